package clickhouse

import "github.com/fourd-dev/fourd/engine"

// SetPrefetchHooks sets prefetchHook and latestHook until the returned
// function restores them.
func SetPrefetchHooks(prefetch, latest func()) (restore func()) {
	oldP, oldL := prefetchHook, latestHook
	prefetchHook, latestHook = prefetch, latest
	return func() { prefetchHook, latestHook = oldP, oldL }
}

// SetPrefetchKeys sets usePrefetchKeys until the returned function
// restores it.
func SetPrefetchKeys(on bool) (restore func()) {
	old := usePrefetchKeys
	usePrefetchKeys = on
	memoGen.Add(1)
	return func() { usePrefetchKeys = old; memoGen.Add(1) }
}

// PrefetchedKeys is how many key sets resolutions have kept in the memo so
// far.
func PrefetchedKeys() int64 { return prefetchedKeys.Load() }

// MemoKeys returns the keys the memo keeps for tenantID and the filters
// of f (ids as the server stores them), and whether it keeps some.
func (s *Store) MemoKeys(tenantID string, f engine.FindingFilter) (int, bool) {
	k, ok := s.memo.keys.Get(memoKeyOf(tenantID, f))
	return len(k), ok
}
