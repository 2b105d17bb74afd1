package clickhouse

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/cache"
)

// The selective-filter memo (issue 33 §3). What the tag, q and compliance
// filters of a read resolve to (resolveSelective: the resources and texts
// they match, or that they match too many to list) is the same for every
// page of a listing and for its count; so are the keys of the listed
// resources' findings in the snapshot (row_filter_keyed.go). Resolving
// cost a page under a selective tag at 10M three queries and ~170 ms of
// ClickHouse CPU under load before its one read of rows. The memo keeps
// both per tenant, audit and filter for memoTTL: tags, names and texts are
// the resources' current ones, and a re-import that changes them shows
// within that time, as a kept page does (docs/design/read-path.md). For a
// complete snapshot it also keeps those keys' rows (filter_memo_rows.go).

// memoTTL is how long a resolved filter is used; memoMaxKB bounds the
// memo's keys and, apart, its rows (their approximate size in KiB; the
// resolutions a quarter of it).
const (
	memoTTL   = time.Minute
	memoMaxKB = 64 << 10
)

// useFilterMemo is whether reads use the memo; tests turn it off.
var useFilterMemo = true

// selectiveResolutions counts the resolutions of row filters the memo did
// not answer, for tests.
var selectiveResolutions atomic.Int64

// memoGen is bumped by tests' setters that change how filters resolve
// (SetMaxSelectiveResources, SetTagIndex): what was resolved before is
// then not used.
var memoGen atomic.Int64

// memoKey is a read's tenant, audit and the filters the memo resolves.
type memoKey struct {
	tenantID, auditID   string
	tags, q, compliance string
	gen                 int64
}

func memoKeyOf(tenantID string, f engine.FindingFilter) memoKey {
	return memoKey{tenantID: tenantID, auditID: f.AuditID, tags: f.Tags, q: f.Q, compliance: f.Compliance, gen: memoGen.Load()}
}

// resolvedFilter is what resolveSelective answered (nil: nothing to list).
type resolvedFilter struct{ sel *selectiveResources }

// filterMemo holds the resolved filters and, for those whose findings are
// read by key, the keys of every finding of their resources in the
// snapshot, in list order (of a complete snapshot only).
type filterMemo struct {
	resolved *cache.LRU[memoKey, resolvedFilter]
	keys     *cache.LRU[memoKey, []findingKey]
	// rows are the rows of those keys (filter_memo_rows.go); fills the
	// reads of them under way, each closed when done.
	rows  *cache.LRU[memoKey, *memoRows]
	mu    sync.Mutex
	fills map[memoKey]chan struct{}
	// purges counts purge calls: a read of rows that began before one
	// does not keep them.
	purges atomic.Int64
}

func newFilterMemo() *filterMemo {
	return &filterMemo{
		resolved: cache.New(cache.Options[memoKey, resolvedFilter]{MaxCost: memoMaxKB / 4, TTL: memoTTL,
			Cost: func(_ memoKey, r resolvedFilter) int {
				if r.sel == nil {
					return 1
				}
				return 1 + (48*(len(r.sel.tags)+len(r.sel.q)+len(r.sel.qWide))+8*(len(r.sel.titles)+len(r.sel.compliance)))>>10
			}}),
		keys: cache.New(cache.Options[memoKey, []findingKey]{MaxCost: memoMaxKB, TTL: memoTTL,
			Cost: func(_ memoKey, k []findingKey) int { return 1 + (40*len(k))>>10 }}),
		rows: cache.New(cache.Options[memoKey, *memoRows]{MaxCost: memoMaxKB, TTL: memoTTL,
			Cost: func(_ memoKey, r *memoRows) int { return r.costKB() }}),
		fills: map[memoKey]chan struct{}{},
	}
}

// purge drops everything (a snapshot deleted).
func (m *filterMemo) purge() {
	m.mu.Lock() // a read of rows keeps them under mu if no purge came between
	m.purges.Add(1)
	m.mu.Unlock()
	m.resolved.Purge()
	m.keys.Purge()
	m.rows.Purge()
}

// resolveSelectiveMemo is resolveSelective through the memo.
func (s *Store) resolveSelectiveMemo(ctx context.Context, tenantID string, f engine.FindingFilter) (*selectiveResources, error) {
	if f.Tags == "" && f.Q == "" && f.Compliance == "" {
		return nil, nil
	}
	key := memoKeyOf(tenantID, f)
	if useFilterMemo {
		if r, ok := s.memo.resolved.Get(key); ok {
			return r.sel, nil
		}
		return s.resolveShared(ctx, key, tenantID, f) // filter_memo_flight.go
	}
	selectiveResolutions.Add(1)
	return s.resolveSelective(ctx, tenantID, f)
}

// keyedKeys returns the keys of every finding of resources ids (the
// filters' keyedResources) in the snapshot of f, in list order: from the
// memo, or read from the resource index and kept once the snapshot is
// complete (kept then says so). Nil when there are more than
// maxKeyedCountKeys.
func (s *Store) keyedKeys(ctx context.Context, tenantID string, f engine.FindingFilter, ids []string) (_ []findingKey, kept bool, _ error) {
	if len(ids) == 0 {
		return []findingKey{}, false, nil
	}
	key := memoKeyOf(tenantID, f)
	if useFilterMemo {
		if k, ok := s.memo.keys.Get(key); ok {
			return k, true, nil
		}
		return s.keyedKeysShared(ctx, key, tenantID, f, ids) // filter_memo_flight.go
	}
	return s.readKeyedKeys(ctx, key, tenantID, f, ids)
}

// readKeyedKeys reads what keyedKeys answers from the resource index and
// keeps it in the memo once the snapshot is complete.
func (s *Store) readKeyedKeys(ctx context.Context, key memoKey, tenantID string, f engine.FindingFilter, ids []string) (_ []findingKey, kept bool, _ error) {
	if keyedKeysHook != nil {
		keyedKeysHook()
	}
	rowFilterKeyedReads.Add(1)
	keys, err := s.resourceKeys(ctx, resourceKeysQuery{tenantID: tenantID, auditID: f.AuditID, resourceIDs: ids,
		limit: maxKeyedCountKeys + 1})
	if err != nil || len(keys) > maxKeyedCountKeys {
		return nil, false, err
	}
	keys = slices.Clip(keys)
	if keys == nil {
		keys = []findingKey{}
	}
	if useFilterMemo {
		complete, err := s.snapshotComplete(ctx, tenantID, f.AuditID)
		if err != nil {
			return nil, false, err
		}
		if complete {
			s.memo.keys.Put(key, keys)
			return keys, true, nil
		}
	}
	return keys, false, nil
}

// snapshotComplete reports whether the snapshot's marker is written (its
// rows and index are then all there).
func (s *Store) snapshotComplete(ctx context.Context, tenantID, auditID string) (bool, error) {
	var n uint64
	err := s.conn.QueryRow(ctx, "SELECT count() FROM finding_snapshots WHERE tenant_id = ? AND audit_id = ?", tenantID, auditID).Scan(&n)
	return n > 0, err
}
