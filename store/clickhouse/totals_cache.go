package clickhouse

import (
	"context"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/cache"
)

// maxCachedTotals bounds the totals cache (least recently used go first).
const maxCachedTotals = 4096

// totalsKey is what a snapshot's bucket totals depend on: the tenant and the
// filter with its audit id (the resource id aside).
type totalsKey struct {
	tenantID string
	filter   engine.FindingFilter
}

// The totals cache (Store.totals, an LRU of maxCachedTotals entries,
// internal/cache) keeps the per-bucket totals of complete snapshots, which
// never change, so that a page costs one query instead of two. Snapshots
// dropped through this store are forgotten (Purge); another replica that
// drops one leaves stale totals here, which only make ranges of missing
// rows come back empty.
func newTotalsCache() *cache.LRU[totalsKey, []uint64] {
	return cache.New(cache.Options[totalsKey, []uint64]{MaxCost: maxCachedTotals})
}

// bucketTotals returns how many findings of each severity bucket match the
// filter (its resource id aside), from the snapshot's counts, cached once
// the snapshot is complete.
func (s *Store) bucketTotals(ctx context.Context, tenantID string, f engine.FindingFilter) ([]uint64, error) {
	f.ResourceID = ""
	key := totalsKey{tenantID, f}
	if t, ok := s.totals.Get(key); ok {
		return t, nil
	}
	groups, err := s.countGroups(ctx, countQuery{tenantID: tenantID, auditID: f.AuditID, filter: f, groupBy: []string{"severity"}})
	if err != nil {
		return nil, err
	}
	totals := make([]uint64, numBuckets)
	for _, g := range groups {
		if sev := engine.Severity(g.keys[0]); sev.Valid() {
			totals[sevOrder(sev)] = g.n
		}
	}
	var complete uint64
	if err := s.conn.QueryRow(ctx, "SELECT count() FROM finding_snapshots WHERE tenant_id = ? AND audit_id = ?",
		tenantID, f.AuditID).Scan(&complete); err != nil {
		return nil, err
	}
	if complete > 0 {
		s.totals.Put(key, totals)
	}
	return totals, nil
}
