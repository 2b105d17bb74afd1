package clickhouse

import (
	"context"
	"slices"
	"strings"

	ch "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/fourd-dev/fourd/engine"
)

// trendQuery counts the findings of several snapshots grouped by audit and
// by fields, from the per-snapshot counts (or from the rows when the filter
// has a resource id, which the counts do not hold).
type trendQuery struct {
	tenantID string
	auditIDs []string
	filter   engine.FindingFilter
	groupBy  []string // columns
}

func (q trendQuery) toSQL() (string, []any) {
	table, agg, audit, pre, args := "finding_counts", "sum(n)", "audit_id", "", []any(nil)
	var c conds
	if q.filter.ResourceID != "" {
		// The rows know their snapshot by key: its audit id is mapped back.
		keys := make([]uint64, len(q.auditIDs))
		for i, id := range q.auditIDs {
			keys[i] = snapshotKey(q.tenantID, id)
		}
		table, agg, audit = "snapshot_findings", "count()", "transform(snapshot, ?, ?, '') AS audit_id"
		pre, args = prewhere(q.filter)
		args = append([]any{keys, q.auditIDs}, args...)
		in := make([]any, len(keys))
		for i, k := range keys {
			in[i] = k
		}
		c.add("snapshot IN ?", ch.GroupSet{Value: in})
	} else {
		c.add("tenant_id = ?", q.tenantID)
		c.add("audit_id IN ?", groupSet(q.auditIDs))
	}
	addFindingFilter(&c, q.filter)
	cols := []string{"audit_id"}
	for _, g := range q.groupBy {
		cols = append(cols, "toString("+g+")")
	}
	sql := "SELECT " + strings.Join(append([]string{audit}, cols[1:]...), ", ") + ", " + agg + " FROM " + table + pre +
		" WHERE " + c.sql() + " GROUP BY " + strings.Join(cols, ", ")
	return sql, append(args, c.args...)
}

// CountsByAudit counts the findings of the snapshots of auditIDs matching
// filter, grouped by groupBy, in one aggregation on the server. It
// implements findings.TrendStore; validation_failed for an unknown group-by
// field.
func (s *Store) CountsByAudit(ctx context.Context, tenantID string, auditIDs []string, filter engine.FindingFilter, groupBy []engine.GroupBy) (out map[string][]engine.FindingCount, err error) {
	defer wrap(&err, "CountsByAudit(%q, %d audits)", tenantID, len(auditIDs))
	ctx = s.scoped(ctx, tenantID, "", auditIDs...)
	out = map[string][]engine.FindingCount{}
	if len(auditIDs) == 0 {
		return out, nil
	}
	cols := make([]string, len(groupBy))
	for i, g := range groupBy {
		col, ok := groupColumn(g)
		if !ok || slices.Contains(groupBy[:i], g) {
			return nil, engine.ParseGroupByError(string(g))
		}
		cols[i] = col
	}
	filter.AuditID = ""
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	text, args := trendQuery{tenantID: tenantID, auditIDs: auditIDs, filter: filter, groupBy: cols}.toSQL()
	rows, err := s.conn.Query(ctx, text, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var auditID string
		var n uint64
		keys := make([]string, len(cols))
		dest := []any{&auditID}
		for i := range keys {
			dest = append(dest, &keys[i])
		}
		if err := rows.Scan(append(dest, &n)...); err != nil {
			return nil, err
		}
		key := make(map[engine.GroupBy]string, len(groupBy))
		for i, g := range groupBy {
			key[g] = keys[i]
		}
		out[auditID] = append(out[auditID], engine.FindingCount{Key: key, Count: int64(n)})
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, groups := range out {
		slices.SortFunc(groups, func(a, b engine.FindingCount) int {
			for _, g := range groupBy {
				if c := compareKey(g, a.Key[g], b.Key[g]); c != 0 {
					return c
				}
			}
			return 0
		})
	}
	return out, nil
}
