package clickhouse

import (
	"context"
	"slices"
	"strconv"
	"sync/atomic"

	ch "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/fourd-dev/fourd/engine"
)

// The first ask of a selective tag (issue 33 §3) waited for two reads of
// about the same cost one after the other: the latest versions of the
// tag's candidates (which of them still carry it) and then the keys of
// the matching resources' findings from the resource index, each a
// granule in every part of its table per resource (at 10M findings, 100
// resources: ~47 and ~80 ms of ClickHouse CPU, quiet). Neither needs the
// other's answer when the keys are read for every candidate: the keys
// of the resources that pass are those whose resource hash is one of
// theirs, what a read by their hashes returns. So both reads run at once,
// and the keys of a filter that its pages and counts read by key
// (keyedResources: a tag with no q) go to the memo as keyedKeys would
// keep them.

// prefetchedKeys counts the key sets that resolutions kept in the memo,
// for tests.
var prefetchedKeys atomic.Int64

// prefetchHook and latestHook, when set by tests, run in the read of the
// candidates' keys and in the check of their latest versions before each
// asks the server.
var prefetchHook, latestHook func()

// latestTagged returns the tag filter's resources (few: fewTagCandidates)
// whose latest version carries every tag of f, or nil when more than
// maxSelectiveResources do; cands, when not nil, are candidates that hold
// every such resource. When the filter's reads go by key, the candidates'
// keys are read meanwhile and those of the matching resources kept in the
// memo (a complete snapshot only).
func (s *Store) latestTagged(ctx context.Context, tenantID string, f engine.FindingFilter, cands []string) ([]string, error) {
	sub, args := tagMatching(tenantID, f)
	if len(cands) == 0 || f.Q != "" || !useFilterMemo || !useKeyedReads || !usePrefetchKeys {
		return s.fewIDs(ctx, sub, args)
	}
	kctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type prefetch struct {
		keys     []hashedKey
		complete bool
		err      error
	}
	done := make(chan prefetch, 1)
	go func() {
		var p prefetch
		if prefetchHook != nil {
			prefetchHook()
		}
		if p.keys, p.err = s.candidateKeys(ch.Context(kctx, ch.WithSettings(keyReadSettings())), tenantID, f.AuditID, cands); p.err == nil {
			p.complete, p.err = s.snapshotComplete(kctx, tenantID, f.AuditID)
		}
		done <- p
	}()
	if latestHook != nil {
		latestHook()
	}
	ids, err := s.fewIDs(ctx, sub, args)
	if err != nil {
		cancel()
		<-done
		return nil, err
	}
	p := <-done
	if p.err != nil || !p.complete || ids == nil || len(p.keys) > maxKeyedCountKeys {
		// Read by key later, as before (keyedKeys reports its errors).
		return ids, nil
	}
	if keys := keysOfHashes(p.keys, ids); len(keys) <= maxKeyedCountKeys {
		s.memo.keys.Put(memoKeyOf(tenantID, f), keys)
		prefetchedKeys.Add(1)
		rowFilterKeyedReads.Add(1) // the page's key read, made here
	}
	return ids, nil
}

// usePrefetchKeys is whether a tag's resolution reads its candidates'
// keys at once (latestTagged); tests turn it off to compare.
var usePrefetchKeys = true

// hashedKey is a finding key of the resource index with its resource's
// hash.
type hashedKey struct {
	findingKey
	hash uint64
}

// candidateKeys reads the keys of the findings of resources ids in the
// snapshot of tenantID and auditID from the resource index, in list
// order, with their resource hashes: up to maxKeyedCountKeys+1 of them.
// The hashes are a PREWHERE, as in resourceKeysQuery.
func (s *Store) candidateKeys(ctx context.Context, tenantID, auditID string, ids []string) ([]hashedKey, error) {
	hashes := make([]any, len(ids))
	for i, id := range ids {
		hashes[i] = resourceHash(id)
	}
	var out []hashedKey
	err := s.each(ctx, rawQuery{sql: "SELECT sev_order, id, resource_hash FROM snapshot_finding_index PREWHERE resource_hash IN ? WHERE snapshot = ?" +
		" ORDER BY sev_order, id LIMIT " + strconv.Itoa(maxKeyedCountKeys+1),
		args: []any{ch.GroupSet{Value: hashes}, snapshotKey(tenantID, auditID)}}, func(sc scanner) error {
		var k hashedKey
		err := sc.Scan(&k.sevOrder, &k.id, &k.hash)
		out = append(out, k)
		return err
	})
	return out, err
}

// keysOfHashes returns the keys (in their order) whose resource hash is
// one of resources ids' (never nil).
func keysOfHashes(keys []hashedKey, ids []string) []findingKey {
	in := make(map[uint64]bool, len(ids))
	for _, id := range ids {
		in[resourceHash(id)] = true
	}
	out := make([]findingKey, 0, len(keys))
	for _, k := range keys {
		if in[k.hash] {
			out = append(out, k.findingKey)
		}
	}
	return slices.Clip(out)
}
