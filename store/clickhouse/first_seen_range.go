package clickhouse

import (
	"context"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/cache"
)

// Each snapshot's range of first_seen_at (snapshot_first_seen, migration
// 0019; issue 33 §3). A first_seen_after/before filter is a row filter:
// the counts do not know how many rows it keeps, so a page probes and, when
// the filter is sparse, reads first_seen_at of every row after its position
// (row_filter_page.go). A filter that keeps nothing cost a probe plus that
// pass (37/42 ms p50/p99 at 10M), and one that keeps everything the probes.
// Knowing the snapshot's range, a filter outside it answers at once (an
// empty page, a count of 0), and one covering it is dropped: the page is an
// ordinary one, bounded by the counts. A snapshot without a range (written
// by an older build) is read as before.

// firstSeenRange is the range of a snapshot's first_seen_at, in DateTime
// seconds: lo <= first_seen_at <= hi for every row; known is false when
// the snapshot has no recorded range (or no row).
type firstSeenRange struct {
	lo, hi uint32
	known  bool
}

// add widens r to hold a row first seen at sec.
func (r *firstSeenRange) add(sec uint32) {
	if !r.known {
		r.lo, r.hi, r.known = sec, sec, true
		return
	}
	r.lo, r.hi = min(r.lo, sec), max(r.hi, sec)
}

// narrow applies r to the first-seen filters of f: none is true when no
// row of the snapshot can match them; a filter every row matches is
// cleared. A filter's DateTime bound is its time rounded up to a second
// (ceilUnix), as addRowFilter writes it.
func (r firstSeenRange) narrow(f engine.FindingFilter) (_ engine.FindingFilter, none bool) {
	if !r.known {
		return f, false
	}
	lo, hi := int64(r.lo), int64(r.hi)
	if t := f.FirstSeenAfter; !t.IsZero() { // first_seen_at >= ceil(t)
		switch c := ceilUnix(t); {
		case hi < c:
			return f, true
		case lo >= c:
			f.FirstSeenAfter = time.Time{}
		}
	}
	if t := f.FirstSeenBefore; !t.IsZero() { // first_seen_at < ceil(t)
		switch c := ceilUnix(t); {
		case lo >= c:
			return f, true
		case hi < c:
			f.FirstSeenBefore = time.Time{}
		}
	}
	return f, false
}

// maxCachedRanges bounds the cache of complete snapshots' ranges.
const maxCachedRanges = 4096

// newRangeCache makes the cache of complete snapshots' ranges, by snapshot
// key: a snapshot never changes once complete. Purged with the totals
// (deleteSnapshotRows).
func newRangeCache() *cache.LRU[uint64, firstSeenRange] {
	return cache.New(cache.Options[uint64, firstSeenRange]{MaxCost: maxCachedRanges})
}

// useFirstSeenRanges is whether reads consult the snapshots' ranges; tests
// turn it off to compare with the reads without them.
var useFirstSeenRanges = true

// narrowFirstSeen applies the snapshot's range of first_seen_at to the
// first-seen filters of f (firstSeenRange.narrow); f unchanged when it has
// none or the snapshot has no range.
func (s *Store) narrowFirstSeen(ctx context.Context, tenantID string, f engine.FindingFilter) (engine.FindingFilter, bool, error) {
	if !useFirstSeenRanges || (f.FirstSeenAfter.IsZero() && f.FirstSeenBefore.IsZero()) {
		return f, false, nil
	}
	r, err := s.firstSeenRangeOf(ctx, tenantID, f.AuditID)
	if err != nil {
		return f, false, err
	}
	nf, none := r.narrow(f)
	return nf, none, nil
}

// firstSeenRangeOf returns the range of a snapshot, cached once the
// snapshot is complete (its marker written, after its range). The range of
// a snapshot not complete is not used: its rows may still be coming.
func (s *Store) firstSeenRangeOf(ctx context.Context, tenantID, auditID string) (firstSeenRange, error) {
	key := snapshotKey(tenantID, auditID)
	if r, ok := s.ranges.Get(key); ok {
		return r, nil
	}
	var (
		complete, rows uint64
		lo, hi         time.Time
	)
	err := s.conn.QueryRow(ctx, `SELECT (SELECT count() FROM finding_snapshots WHERE tenant_id = ? AND audit_id = ?),
count(), min(lo), max(hi) FROM snapshot_first_seen WHERE snapshot = ?`, tenantID, auditID, key).Scan(&complete, &rows, &lo, &hi)
	if err != nil || complete == 0 {
		return firstSeenRange{}, err
	}
	r := firstSeenRange{lo: uint32(lo.Unix()), hi: uint32(hi.Unix()), known: rows > 0}
	s.ranges.Put(key, r)
	return r, nil
}

// writeFirstSeen records a snapshot's range of first_seen_at: r when
// known (gathered while the rows streamed in), else from the snapshot's
// rows on the server. A snapshot without rows has none. Not deduplicated
// (snapshotInsertSettings), as the counts.
func (s *Store) writeFirstSeen(ctx context.Context, tenantID, auditID string, writtenAt time.Time, r firstSeenRange) error {
	ctx = snapshotWriteCtx(ctx)
	if !r.known {
		return s.conn.Exec(ctx, `INSERT INTO snapshot_first_seen (snapshot, lo, hi, written_at)
SELECT snapshot, min(first_seen_at), max(first_seen_at), any(written_at) FROM snapshot_findings WHERE snapshot = ?
GROUP BY snapshot`, snapshotKey(tenantID, auditID))
	}
	b, err := s.prepareBatch(ctx, "INSERT INTO snapshot_first_seen (snapshot, lo, hi, written_at)")
	if err != nil {
		return err
	}
	if err := b.Append(snapshotKey(tenantID, auditID), int64(r.lo), int64(r.hi), writtenAt); err != nil {
		b.Abort()
		return err
	}
	return b.Send()
}
