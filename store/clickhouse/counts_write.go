package clickhouse

import (
	"context"
	"time"
)

// snapshotCounts aggregates a snapshot's counts while it streams in, so that
// writing them costs no scan of the snapshot. Groups are kept in the
// snapshot's dictionary codes (dicts, set by insertFindings). Past max
// groups it gives up (overflow) and the server aggregates instead.
type snapshotCounts struct {
	max      int
	groups   map[countCodes]uint64
	dicts    *snapshotDicts
	overflow bool
}

func newSnapshotCounts(max int) *snapshotCounts {
	return &snapshotCounts{max: max, groups: map[countCodes]uint64{}}
}

func (c *snapshotCounts) add(k countCodes) {
	if c.overflow {
		return
	}
	n, ok := c.groups[k]
	if !ok && len(c.groups) >= c.max {
		c.overflow, c.groups = true, nil
		return
	}
	c.groups[k] = n + 1
}

const countColumns = "tenant_id, audit_id, severity, dimension, status, resource_type, account, region, rule_id, n, written_at"

// writeCounts stores the snapshot's counts: the ones gathered in memory in
// one INSERT, or, after an overflow, with an INSERT … SELECT … GROUP BY over
// the snapshot's rows.
func (s *Store) writeCounts(ctx context.Context, tenantID, auditID string, writtenAt time.Time, c *snapshotCounts) error {
	if c.overflow {
		return s.conn.Exec(ctx, `INSERT INTO finding_counts (`+countColumns+`)
SELECT ?, ?, severity, dimension, status, resource_type, account, region, rule_id, count(), any(written_at)
FROM finding_rows WHERE snapshot = ?
GROUP BY severity, dimension, status, resource_type, account, region, rule_id`, tenantID, auditID, snapshotKey(tenantID, auditID))
	}
	if len(c.groups) == 0 {
		return nil
	}
	b, err := s.prepareBatch(ctx, "INSERT INTO finding_counts ("+countColumns+")")
	if err != nil {
		return err
	}
	d := c.dicts
	for k, n := range c.groups {
		if err := b.Append(tenantID, auditID, k.severity, k.dimension, k.status, d[dictResourceType].values[k.resourceType],
			d[dictAccount].values[k.account], d[dictRegion].values[k.region], d[dictRule].values[k.rule], n, writtenAt); err != nil {
			b.Abort()
			return err
		}
	}
	return b.Send()
}
