package clickhouse

import (
	"context"
	"strconv"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// Concurrent resolutions of one filter (issue 33 §3). A listing's first
// page and its count are often asked at once (a dashboard's list and
// summary, two aliases of one GraphQL query): before the memo holds the
// filter, each resolved it, and a q at 10M costs a scan of the tenant's
// resources (~0.15–0.2 s of ClickHouse CPU) each time. Reads of the same
// tenant, audit and filters now share one resolution (Store.flight): the
// first runs it, the others wait for its answer (each as long as its own
// context lasts). The resolution runs under the store's query timeout, not
// the first read's context, so that one client leaving (or a short
// deadline) does not fail the others.

// selectiveResolveHook, set by tests, runs at the start of each
// resolution the memo did not answer.
var selectiveResolveHook func()

// flightKey is a memo key as a string (the tenant first: keys of two
// tenants never share a flight).
func flightKey(k memoKey) string {
	return strings.Join([]string{k.tenantID, k.auditID, k.tags, k.q, k.compliance, strconv.FormatInt(k.gen, 10)}, "\x00")
}

// resolveShared is resolveSelective through the memo, one resolution at a
// time per key.
func (s *Store) resolveShared(ctx context.Context, key memoKey, tenantID string, f engine.FindingFilter) (*selectiveResources, error) {
	done := s.flight.DoChan(flightKey(key), func() (any, error) {
		if r, ok := s.memo.resolved.Get(key); ok { // one just finished
			return r.sel, nil
		}
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.QueryTimeout)
		defer cancel()
		if selectiveResolveHook != nil {
			selectiveResolveHook()
		}
		selectiveResolutions.Add(1)
		sel, err := s.resolveSelective(rctx, tenantID, f)
		if err == nil {
			s.memo.resolved.Put(key, resolvedFilter{sel})
		}
		return sel, err
	})
	select {
	case r := <-done:
		sel, _ := r.Val.(*selectiveResources)
		return sel, r.Err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// keyedKeysHook, set by tests, runs at the start of each read of a
// selective filter's keys (readKeyedKeys).
var keyedKeysHook func()

// sharedKeys is what a shared read of keys answers.
type sharedKeys struct {
	keys []findingKey
	kept bool
}

// keyedKeysShared is readKeyedKeys one read at a time per memo key: a
// listing's first page and its count asked at once read the keys of the
// filter's findings from the resource index once (at 10M ~0.1 s of
// ClickHouse CPU for 100 resources), not once each. As resolveShared, the
// read runs under the store's query timeout, not the first reader's
// context.
func (s *Store) keyedKeysShared(ctx context.Context, key memoKey, tenantID string, f engine.FindingFilter, ids []string) ([]findingKey, bool, error) {
	done := s.flight.DoChan("keys\x00"+flightKey(key), func() (any, error) {
		if k, ok := s.memo.keys.Get(key); ok { // one just finished
			return sharedKeys{keys: k, kept: true}, nil
		}
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.QueryTimeout)
		defer cancel()
		keys, kept, err := s.readKeyedKeys(rctx, key, tenantID, f, ids)
		return sharedKeys{keys: keys, kept: kept}, err
	})
	select {
	case r := <-done:
		k, _ := r.Val.(sharedKeys)
		return k.keys, k.kept, r.Err
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
}
