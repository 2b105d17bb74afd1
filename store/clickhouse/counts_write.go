package clickhouse

import (
	"context"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// countKey is one group of the finding_counts table.
type countKey struct {
	severity, dimension, status, resourceType, account, region, ruleID string
}

// snapshotCounts aggregates a snapshot's counts while it streams in, so that
// writing them costs no scan of the snapshot. Past max groups it gives up
// (overflow) and the server aggregates instead.
type snapshotCounts struct {
	max      int
	groups   map[countKey]uint64
	overflow bool
}

func newSnapshotCounts(max int) *snapshotCounts {
	return &snapshotCounts{max: max, groups: map[countKey]uint64{}}
}

func (c *snapshotCounts) add(f *engine.Finding) {
	if c.overflow {
		return
	}
	k := countKey{string(f.Severity), string(f.Dimension), string(f.Status), f.ResourceType, f.Account, f.Region, f.RuleID}
	if _, ok := c.groups[k]; !ok && len(c.groups) >= c.max {
		c.overflow, c.groups = true, nil
		return
	}
	c.groups[k]++
}

const countColumns = "tenant_id, audit_id, severity, dimension, status, resource_type, account, region, rule_id, n, written_at"

// writeCounts stores the snapshot's counts: the ones gathered in memory in
// one INSERT, or, after an overflow, with an INSERT … SELECT … GROUP BY over
// the snapshot's rows.
func (s *Store) writeCounts(ctx context.Context, tenantID, auditID string, writtenAt time.Time, c *snapshotCounts) error {
	if c.overflow {
		return s.conn.Exec(ctx, `INSERT INTO finding_counts (`+countColumns+`)
SELECT tenant_id, audit_id, severity, dimension, status, resource_type, account, region, rule_id, count(), any(written_at)
FROM findings WHERE tenant_id = ? AND audit_id = ?
GROUP BY tenant_id, audit_id, severity, dimension, status, resource_type, account, region, rule_id`, tenantID, auditID)
	}
	if len(c.groups) == 0 {
		return nil
	}
	b, err := s.conn.PrepareBatch(ctx, "INSERT INTO finding_counts ("+countColumns+")")
	if err != nil {
		return err
	}
	for k, n := range c.groups {
		if err := b.Append(tenantID, auditID, k.severity, k.dimension, k.status, k.resourceType, k.account, k.region, k.ruleID, n, writtenAt); err != nil {
			b.Abort()
			return err
		}
	}
	return b.Send()
}
