package clickhouse

import (
	"context"
	"time"
)

// snapshotCounts aggregates a snapshot's counts while it streams in, so that
// writing them costs no scan of the snapshot. Groups are kept in the
// snapshot's dictionary codes (dicts, set by insertFindings), packed into
// one integer when the codes fit (packed: a map of uint64 keys, whose
// hashing and compares cost a fraction of a struct key's, which was a
// tenth of a snapshot write's client CPU), else as they are (wide). Past
// max groups it gives up (overflow) and the server aggregates instead.
// It also keeps the range of the rows' first_seen_at (firstSeen), which
// never overflows.
type snapshotCounts struct {
	max       int
	packed    map[uint64]uint64
	wide      map[countCodes]uint64
	dicts     *snapshotDicts
	overflow  bool
	firstSeen firstSeenRange
}

func newSnapshotCounts(max int) *snapshotCounts {
	return &snapshotCounts{max: max, packed: map[uint64]uint64{}, wide: map[countCodes]uint64{}}
}

// The bits of a packed group: 3 for the severity, 3 the dimension, 2 the
// status, then the codes of the region, account, resource type and rule.
const (
	packRegionBits  = 10
	packAccountBits = 18
	packTypeBits    = 12
	packRuleBits    = 64 - 8 - packRegionBits - packAccountBits - packTypeBits
)

// pack returns k as one integer, or false when a code is too large for
// its bits.
func (k countCodes) pack() (uint64, bool) {
	if k.region >= 1<<packRegionBits || k.account >= 1<<packAccountBits ||
		k.resourceType >= 1<<packTypeBits || k.rule >= 1<<packRuleBits ||
		uint8(k.severity) >= 8 || uint8(k.dimension) >= 8 || uint8(k.status) >= 4 {
		return 0, false
	}
	p := uint64(k.rule)
	p = p<<packTypeBits | uint64(k.resourceType)
	p = p<<packAccountBits | uint64(k.account)
	p = p<<packRegionBits | uint64(k.region)
	return p<<8 | uint64(k.severity)<<5 | uint64(k.dimension)<<2 | uint64(k.status), true
}

// unpackCounts is pack's inverse.
func unpackCounts(p uint64) countCodes {
	var k countCodes
	k.status, k.dimension, k.severity = int8(p&3), int8(p>>2&7), int8(p>>5&7)
	p >>= 8
	k.region = uint32(p & (1<<packRegionBits - 1))
	p >>= packRegionBits
	k.account = uint32(p & (1<<packAccountBits - 1))
	p >>= packAccountBits
	k.resourceType = uint32(p & (1<<packTypeBits - 1))
	k.rule = uint32(p >> packTypeBits)
	return k
}

func (c *snapshotCounts) add(k countCodes) {
	if c.overflow {
		return
	}
	if p, ok := k.pack(); ok {
		// Below the bound a new group is always taken: one map operation
		// (m[k]++ is a single assignment) instead of a lookup and an
		// assignment, which cost a snapshot write of 10M findings ~0.7 s.
		if len(c.packed)+len(c.wide) < c.max {
			c.packed[p]++
			return
		}
		n, ok := c.packed[p]
		if !ok && c.full() {
			return
		}
		c.packed[p] = n + 1
		return
	}
	n, ok := c.wide[k]
	if !ok && c.full() {
		return
	}
	c.wide[k] = n + 1
}

// full reports whether the counts hold max groups, and if so gives up.
func (c *snapshotCounts) full() bool {
	if len(c.packed)+len(c.wide) < c.max {
		return false
	}
	c.overflow, c.packed, c.wide = true, nil, nil
	return true
}

// each calls f with every group and its count.
func (c *snapshotCounts) each(f func(countCodes, uint64) error) error {
	for p, n := range c.packed {
		if err := f(unpackCounts(p), n); err != nil {
			return err
		}
	}
	for k, n := range c.wide {
		if err := f(k, n); err != nil {
			return err
		}
	}
	return nil
}

const countColumns = "tenant_id, audit_id, severity, dimension, status, resource_type, account, region, rule_id, n, written_at"

// writeCounts stores the snapshot's counts: the ones gathered in memory in
// one INSERT, or, after an overflow, with an INSERT … SELECT … GROUP BY over
// the snapshot's rows. Not deduplicated (snapshotInsertSettings): a retried
// audit's counts are the very block of the attempt that failed.
func (s *Store) writeCounts(ctx context.Context, tenantID, auditID string, writtenAt time.Time, c *snapshotCounts) error {
	ctx = snapshotWriteCtx(ctx)
	if c.overflow {
		return s.conn.Exec(ctx, `INSERT INTO finding_counts (`+countColumns+`)
SELECT ?, ?, severity, dimension, status, resource_type, account, region, rule_id, count(), any(written_at)
FROM snapshot_findings WHERE snapshot = ?
GROUP BY severity, dimension, status, resource_type, account, region, rule_id`, tenantID, auditID, snapshotKey(tenantID, auditID))
	}
	if len(c.packed)+len(c.wide) == 0 {
		return nil
	}
	b, err := s.prepareBatch(ctx, "INSERT INTO finding_counts ("+countColumns+")")
	if err != nil {
		return err
	}
	d := c.dicts
	if err := c.each(func(k countCodes, n uint64) error {
		return b.Append(tenantID, auditID, k.severity, k.dimension, k.status, d[dictResourceType].values[k.resourceType],
			d[dictAccount].values[k.account], d[dictRegion].values[k.region], d[dictRule].values[k.rule], n, writtenAt)
	}); err != nil {
		b.Abort()
		return err
	}
	return b.Send()
}
