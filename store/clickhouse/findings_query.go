package clickhouse

import (
	"slices"
	"strconv"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// The queries on findings are small structs whose toSQL returns the text and
// its arguments, so that tests can assert both exactly.

// conds collects the conditions of a WHERE clause and their arguments.
type conds struct {
	exprs []string
	args  []any
}

func (c *conds) add(expr string, args ...any) {
	c.exprs = append(c.exprs, expr)
	c.args = append(c.args, args...)
}

func (c *conds) sql() string { return strings.Join(c.exprs, " AND ") }

// addSnapshot adds the condition that selects the snapshot of tenantID and
// auditID in snapshot_findings (by its key: see checkSnapshotKey).
func addSnapshot(c *conds, tenantID, auditID string) {
	c.add("snapshot = ?", snapshotKey(tenantID, auditID))
}

// addFindingFilter adds the filter's conditions on the columns that both
// findings and finding_counts have (everything but resource_id).
func addFindingFilter(c *conds, f engine.FindingFilter) {
	if f.Severity != "" {
		c.add("severity = ?", string(f.Severity))
	}
	if f.Dimension != "" {
		c.add("dimension = ?", string(f.Dimension))
	}
	if f.Status != "" {
		c.add("status = ?", string(f.Status))
	}
	if f.RuleID != "" {
		c.add("rule_id = ?", f.RuleID)
	}
	if f.ResourceType != "" {
		c.add("resource_type = ?", f.ResourceType)
	}
	if f.Account != "" {
		c.add("account = ?", f.Account)
	}
	if f.Region != "" {
		c.add("region = ?", f.Region)
	}
}

// forced are the findings whose status people changed since the snapshot
// was written (engine.FindingQuery.ForceResolved and ForceOpen), and the
// mute rules whose matches are muted (engine.FindingQuery.Mutes).
type forced struct {
	resolved, open []string
	mutes          []engine.MuteRef
	// muteSet is the build of the mutes' materialised set, when built
	// (engine.FindingQuery.MuteSet).
	muteSet string
}

// addPageFilter adds the filter's conditions for a read of snapshot rows,
// where a status filter honours the forced statuses and the mutes. bounds
// are the conditions on the key (sev_order, id) the read already has: the
// mutes' anti-join reads only the matches within them.
func addPageFilter(c *conds, f engine.FindingFilter, fc forced, bounds conds) {
	status := f.Status
	if len(fc.resolved)+len(fc.open)+len(fc.mutes) > 0 {
		f.Status = ""
	}
	addFindingFilter(c, f)
	if f.Status != "" || status == "" {
		return
	}
	if len(fc.mutes) > 0 {
		muted, margs := mutedSubquery(fc, bounds)
		switch status {
		case engine.StatusMuted:
			expr, args := "status = 'open' AND id IN "+muted, margs
			if keys := findingIDKeys(fc.resolved); len(keys) > 0 {
				expr, args = expr+" AND id NOT IN ?", append(args, groupSet(keys))
			}
			c.add("("+expr+")", args...)
			return
		case engine.StatusOpen:
			c.add("id NOT IN "+muted, margs...)
		}
	}
	// A finding forced open is one a person reopened (or only assigned, or
	// marked in progress): never a fixed one, which stays resolved.
	expr, args := "status = ?", []any{string(status)}
	resolved, open := findingIDKeys(fc.resolved), findingIDKeys(fc.open)
	if status == engine.StatusOpen {
		if len(resolved) > 0 {
			expr, args = expr+" AND id NOT IN ?", append(args, groupSet(resolved))
		}
		if len(open) > 0 {
			expr, args = "("+expr+") OR (id IN ? AND resolution != 'fixed')", append(args, groupSet(open))
		}
	} else {
		if len(open) > 0 {
			expr, args = expr+" AND (id NOT IN ? OR resolution = 'fixed')", append(args, groupSet(open))
		}
		if len(resolved) > 0 {
			expr, args = "("+expr+") OR id IN ?", append(args, groupSet(resolved))
		}
	}
	c.add("("+expr+")", args...)
}

// prewhere renders the resource filter, the one selective filter the counts
// cannot answer, as a PREWHERE: only its narrow column is read for every
// row of the range, the wide columns only for the matches.
func prewhere(f engine.FindingFilter) (string, []any) {
	if f.ResourceID == "" {
		return "", nil
	}
	return " PREWHERE resource_id = ?", []any{f.ResourceID}
}

// bucketPageQuery reads up to limit findings of one severity bucket
// (sev_order) with lo < id (lo <= id when loInclusive) and id < hi, in id
// order. Empty lo or hi is unbounded. Bounding hi is what keeps a page cheap
// at any depth: 18.16 reads every row of the range before the LIMIT.
type bucketPageQuery struct {
	tenantID, auditID string
	filter            engine.FindingFilter
	forced            forced
	bucket            int
	lo                string
	loInclusive       bool
	hi                string
	limit             int
	columns           string // selectColumns
}

func (q bucketPageQuery) toSQL() (string, []any) {
	pre, args := prewhere(q.filter)
	var bounds conds
	addSnapshot(&bounds, q.tenantID, q.auditID)
	bounds.add("sev_order = ?", uint8(q.bucket))
	if q.lo != "" {
		if q.loInclusive {
			bounds.add("id >= ?", idRangeKey(q.lo))
		} else {
			bounds.add("id > ?", idRangeKey(q.lo))
		}
	}
	if q.hi != "" {
		bounds.add("id < ?", idRangeKey(q.hi))
	}
	c := conds{exprs: slices.Clone(bounds.exprs), args: slices.Clone(bounds.args)}
	f := q.filter
	f.Severity = "" // the bucket is the severity
	addPageFilter(&c, f, q.forced, bounds)
	sql := "SELECT " + selectColumns(q.columns) + " FROM snapshot_findings" + pre + " WHERE " + c.sql() +
		" ORDER BY id LIMIT " + strconv.Itoa(q.limit)
	return sql, append(args, c.args...)
}

// scanPageQuery reads up to limit findings after (afterBucket, afterID) in
// the list order across buckets, without bounds: for filters whose density
// the counts do not know (a resource id).
type scanPageQuery struct {
	tenantID, auditID string
	filter            engine.FindingFilter
	forced            forced
	after             *engine.FindingKey
	limit             int
	columns           string // selectColumns
}

func (q scanPageQuery) toSQL() (string, []any) {
	pre, args := prewhere(q.filter)
	var c conds
	addSnapshot(&c, q.tenantID, q.auditID)
	if q.after != nil {
		o := uint8(numBuckets - q.after.SeverityRank)
		c.add("(sev_order > ? OR (sev_order = ? AND id > ?))", o, o, idRangeKey(q.after.ID))
	}
	bounds := conds{exprs: slices.Clone(c.exprs), args: slices.Clone(c.args)}
	addPageFilter(&c, q.filter, q.forced, bounds)
	sql := "SELECT " + selectColumns(q.columns) + " FROM snapshot_findings" + pre + " WHERE " + c.sql() +
		" ORDER BY sev_order, id LIMIT " + strconv.Itoa(q.limit)
	return sql, append(args, c.args...)
}

// getFindingQuery is a point lookup. The severity is not known, so it asks
// for the id in each bucket: five point ranges of the primary key, where
// "id = ?" alone would scan the snapshot. id is the stored id (idkey.go).
type getFindingQuery struct {
	tenantID, auditID, id string
}

func (q getFindingQuery) toSQL() (string, []any) {
	args := []any{q.id, snapshotKey(q.tenantID, q.auditID)}
	alts := make([]string, numBuckets)
	for b := range numBuckets {
		alts[b] = "(sev_order = ? AND id = ?)"
		args = append(args, uint8(b), q.id)
	}
	return "SELECT " + findingColumns + " FROM snapshot_findings PREWHERE id = ? WHERE snapshot = ? AND (" +
		strings.Join(alts, " OR ") + ") LIMIT 1", args
}

// groupColumn maps a group-by field to its column.
func groupColumn(g engine.GroupBy) (string, bool) {
	switch g {
	case engine.GroupBySeverity, engine.GroupByDimension, engine.GroupByStatus,
		engine.GroupByResourceType, engine.GroupByAccount, engine.GroupByRegion:
		return string(g), true
	case engine.GroupByRule:
		return "rule_id", true
	case engine.GroupByAge:
		return "", true // an expression of first_seen_at (rowCountQuery)
	}
	return "", false
}

// countQuery counts a snapshot's findings grouped by fields: from the
// per-snapshot counts, or from the rows when the filter has a resource id.
type countQuery struct {
	tenantID, auditID string
	filter            engine.FindingFilter
	groupBy           []string // columns
	// keys, when set, are the findings of q.filter.ResourceID to count.
	keys []findingKey
}

func (q countQuery) fromRows() bool { return q.filter.ResourceID != "" }

func (q countQuery) toSQL() (string, []any) {
	table, agg, pre, args := "finding_counts", "sum(n)", "", []any(nil)
	if q.fromRows() {
		table, agg = "snapshot_findings", "count()"
		if q.keys == nil {
			pre, args = prewhere(q.filter)
		}
	}
	var c conds
	if q.fromRows() {
		addSnapshot(&c, q.tenantID, q.auditID)
	} else {
		c.add("tenant_id = ?", q.tenantID)
		c.add("audit_id = ?", q.auditID)
	}
	if q.keys != nil {
		c.add("(sev_order, id) IN ?", keysGroupSet(q.keys))
		c.add("resource_id = ?", q.filter.ResourceID) // the keys may hold another's (resourceKeysQuery)
	}
	addFindingFilter(&c, q.filter)
	cols := make([]string, len(q.groupBy))
	for i, g := range q.groupBy {
		cols[i] = "toString(" + g + ")"
	}
	sel := strings.Join(append(cols, agg), ", ")
	sql := "SELECT " + sel + " FROM " + table + pre + " WHERE " + c.sql()
	if len(cols) > 0 {
		sql += " GROUP BY " + strings.Join(cols, ", ")
	}
	return sql, append(args, c.args...)
}
