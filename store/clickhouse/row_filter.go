package clickhouse

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// The row filters (engine.FindingFilter.RowFilters: tag, compliance,
// assignee, q, first seen) are conditions on a snapshot's rows that the
// precomputed counts cannot answer. They are written as PREWHERE
// conditions on narrow columns (id, text_id, resource_id, first_seen_at)
// and IN subqueries over the tenant's texts and resources, which 18.16 and
// 24 accept alike.

// latestMatching is an IN subquery of the ids of a tenant's resources
// whose latest version (ReplacingMergeTree keeps older ones until it
// merges) satisfies cond, with its arguments. The candidates are the ids
// of which any version satisfies it (a filtering scan); only their
// versions are aggregated (argMax of one UInt8), and the primary key
// (tenant_id, id) skips the granules without a candidate. Sorting every
// version (LIMIT 1 BY), or aggregating every id, cost more.
func latestMatching(tenantID, cond string, condArgs ...any) (string, []any) {
	return latestAmong(tenantID, "id IN (SELECT id FROM resources WHERE tenant_id = ? AND ("+cond+"))",
		append([]any{tenantID}, condArgs...), cond, condArgs)
}

// latestAmong is latestMatching with the candidates given: a condition on
// id that every resource satisfying cond satisfies, and its arguments. The
// candidates are a PREWHERE: the key selects a candidate's granule in
// every part of resources, and only the part holding one of its versions
// needs the versions' tags, names or ids read (a selective tag at 1M
// resources in 6 parts: 5 MB read instead of 24, ~40 % less CPU).
func latestAmong(tenantID, candidates string, candArgs []any, cond string, condArgs []any) (string, []any) {
	args := append(append(slices.Clone(candArgs), tenantID), condArgs...)
	return "(SELECT id FROM resources PREWHERE " + candidates + " WHERE tenant_id = ? GROUP BY id HAVING argMax(" + cond + ", version) = 1)", args
}

// useTagIndex is whether the tag filter takes its candidates from
// resource_tags (0018) rather than a scan of the tenant's resources;
// tests turn it off to compare the two.
var useTagIndex = true

// addRowFilter adds the row filters of f to c, and onlyIDs (the findings an
// assignee filter may return; nil for any). sel, when not nil, holds the
// resources the tag and q filters matched, resolved beforehand
// (resolveSelective).
func addRowFilter(c *conds, tenantID string, f engine.FindingFilter, onlyIDs []string, sel *selectiveResources) {
	if onlyIDs != nil {
		if keys := findingIDKeys(onlyIDs); len(keys) > 0 {
			c.add("id IN ?", groupSet(keys))
		} else {
			c.add("0") // nobody's findings: none
		}
	}
	// A DateTime holds whole seconds: first_seen_at >= t is >= ceil(t), and
	// first_seen_at < t is < ceil(t).
	if t := f.FirstSeenAfter; !t.IsZero() {
		c.add("first_seen_at >= toDateTime(?, 'UTC')", ceilUnix(t))
	}
	if t := f.FirstSeenBefore; !t.IsZero() {
		c.add("first_seen_at < toDateTime(?, 'UTC')", ceilUnix(t))
	}
	if f.Compliance != "" {
		if sel != nil && sel.compliance != nil {
			expr, args := textsIn(sel.compliance)
			c.add(expr, args...)
		} else {
			sub, args := complianceTexts(tenantID, f)
			c.add("text_id IN ("+sub+")", args...)
		}
	}
	if f.Tags != "" {
		if sel != nil && sel.tags != nil && sel.keyed {
			expr, args := resourcesIn(sel.tags)
			c.add(expr, args...)
		} else if sel != nil && sel.tags != nil {
			expr, args := sel.keysOf(sel.tags)
			c.add(expr, args...)
		} else if sel != nil && sel.tagScope != nil && useTagIndex {
			sub, subArgs := tagMatchingIn(tenantID, f, sel.probeTag, *sel.tagScope)
			c.add("resource_id IN "+sub, subArgs...)
		} else {
			sub, subArgs := tagMatching(tenantID, f)
			c.add("resource_id IN "+sub, subArgs...)
		}
	}
	if f.Q != "" {
		resources, resArgs := "", []any(nil)
		if sel != nil && sel.q != nil && sel.keyed {
			resources, resArgs = resourcesIn(sel.q)
		} else if sel != nil && sel.q != nil {
			resources, resArgs = sel.keysOf(sel.q)
		} else if sel != nil && sel.qWide != nil {
			resources, resArgs = resourcesIn(sel.qWide)
		} else {
			sub, subArgs := qMatching(tenantID, f)
			resources, resArgs = "resource_id IN "+sub, subArgs
		}
		titleSQL, titleArgs := qTitles(tenantID, f.Q)
		title := "text_id IN (" + titleSQL + ")"
		if sel != nil && sel.titles != nil {
			title, titleArgs = sel.textsOf()
		}
		if title == "" {
			c.add(resources, resArgs...)
		} else {
			c.add("("+title+" OR "+resources+")", append(titleArgs, resArgs...)...)
		}
	}
}

// complianceTexts is the query of the tenant's texts (text_id) that hold
// the compliance filter of f: its control, or a control of its framework.
func complianceTexts(tenantID string, f engine.FindingFilter) (string, []any) {
	fw, control := f.ComplianceParts()
	if control != "" {
		return "SELECT text_id FROM finding_texts WHERE tenant_id = ? AND has(compliance, ?)", []any{tenantID, f.Compliance}
	}
	prefix := fw + ":"
	return "SELECT text_id FROM finding_texts WHERE tenant_id = ? AND arrayExists(x -> substring(x, 1, ?) = ?, compliance)",
		[]any{tenantID, uint64(len(prefix)), prefix}
}

// tagMatching is the IN subquery of the resources the tag filter of f
// matches. Its candidates are the ids with a version indexed under each
// tag (resource_tags: a range of the key per tag), of which those whose
// latest version carries every tag are kept.
func tagMatching(tenantID string, f engine.FindingFilter) (string, []any) {
	cond, args := tagCondition(f)
	if !useTagIndex {
		return latestMatching(tenantID, cond, args...)
	}
	cands, candArgs := tagCandidates(tenantID, f.TagPairs(), "id")
	return latestAmong(tenantID, cands, candArgs, cond, args)
}

// tagMatchingIn is tagMatching for the rows of a snapshot's key range
// (scope: conditions on snapshot_findings' key): its candidates are the
// resources of the range's rows indexed under the tag at index probeTag of
// f.TagPairs() (the latest versions are checked for every tag), so that
// the latest versions read are those of the range's candidates only, not
// of every resource carrying the tag (a tag on 6 % of 1M resources read
// all of their granules of resources, whatever the page).
func tagMatchingIn(tenantID string, f engine.FindingFilter, probeTag int, scope conds) (string, []any) {
	cond, args := tagCondition(f)
	tags := f.TagPairs()
	if probeTag < len(tags) {
		tags = tags[probeTag : probeTag+1]
	}
	cands, candArgs := tagCandidates(tenantID, tags, "resource_id")
	inRange := "id IN (SELECT resource_id FROM snapshot_findings PREWHERE " + cands + " WHERE " + scope.sql() + ")"
	return latestAmong(tenantID, inRange, append(candArgs, scope.args...), cond, args)
}

// tagCondition is the condition on a resource version that it carries
// every tag of f, and its arguments. A resource has each key once
// (engine.SortTags): the value at the key's index is the tag's.
func tagCondition(f engine.FindingFilter) (string, []any) {
	tags := f.TagPairs()
	exprs, args := make([]string, len(tags)), []any(nil)
	for i, t := range tags {
		exprs[i] = "(has(tags.key, ?) AND tags.value[indexOf(tags.key, ?)] = ?)"
		args = append(args, t.Key, t.Key, t.Value)
	}
	return strings.Join(exprs, " AND "), args
}

// tagCandidates is the condition that col (a resource id) has a version
// indexed under each of tags in resource_tags (a key range per tag), and
// its arguments.
func tagCandidates(tenantID string, tags []engine.Tag, col string) (string, []any) {
	cands, args := make([]string, len(tags)), []any(nil)
	for i, t := range tags {
		cands[i] = col + " IN (SELECT id FROM resource_tags WHERE tenant = ? AND tag = ?)"
		args = append(args, tenantHash(tenantID), tagHash(t.Key, t.Value))
	}
	return strings.Join(cands, " AND "), args
}

// qMatching is the IN subquery of the resources whose name or native id
// holds the q filter of f.
func qMatching(tenantID string, f engine.FindingFilter) (string, []any) {
	cond, args := qCondition(f.Q)
	return latestMatching(tenantID, cond, args...)
}

// ceilUnix is t in whole seconds, rounded up.
func ceilUnix(t time.Time) int64 {
	s := t.Unix()
	if t.Nanosecond() > 0 {
		s++
	}
	return s
}

// effectiveStatus is the status a row has once people's decisions and the
// mutes are applied, as an SQL expression ('open', 'resolved' or 'muted'):
// the conditions addPageFilter writes for each status filter, in one.
func effectiveStatus(fc forced, bounds conds) (string, []any) {
	var args []any
	expr := "multiIf("
	if len(fc.mutes) > 0 {
		muted, margs := mutedSubquery(fc, bounds)
		expr += "status = 'open' AND id IN " + muted
		args = append(args, margs...)
		if keys := findingIDKeys(fc.resolved); len(keys) > 0 {
			expr += " AND id NOT IN ?"
			args = append(args, groupSet(keys))
		}
		expr += ", 'muted', "
	}
	resolvedExpr := "status = 'resolved'"
	if keys := findingIDKeys(fc.open); len(keys) > 0 {
		resolvedExpr += " AND (id NOT IN ? OR resolution = 'fixed')"
		args = append(args, groupSet(keys))
	}
	if keys := findingIDKeys(fc.resolved); len(keys) > 0 {
		resolvedExpr = "(" + resolvedExpr + ") OR id IN ?"
		args = append(args, groupSet(keys))
	}
	return expr + resolvedExpr + ", 'resolved', 'open')", args
}

// ageBucket is the group_by=age expression: the engine.AgeBuckets bucket
// of the time from first_seen_at to now.
func ageBucket(now time.Time) (string, []any) {
	expr, args := "multiIf(", []any(nil)
	for i := len(engine.AgeBuckets) - 1; i > 0; i-- {
		b := engine.AgeBuckets[i]
		expr += "first_seen_at <= toDateTime(?, 'UTC'), ?, "
		args = append(args, now.Add(-b.Min).Unix(), b.Name)
	}
	return expr + "?)", append(args, engine.AgeBuckets[0].Name)
}

// rowCountQuery counts a snapshot's rows matching a filter, row filters,
// decisions and mutes included, grouped by fields: for what the
// precomputed counts cannot answer (engine.FindingCountQuery.Rows).
type rowCountQuery struct {
	q       engine.FindingCountQuery
	groupBy []engine.GroupBy
	sel     *selectiveResources
	// byKeys: the rows are those of the keys in the query's external
	// table (withKeyedCount), sel's resources' findings.
	byKeys bool
	// memoRows: the rows are the query's external table memoRowsTable
	// (withMemoRowsTable), sel's resources' findings as the memo keeps
	// them.
	memoRows bool
}

func (r rowCountQuery) toSQL() (string, []any) {
	q := r.q
	f := q.Filter
	fc := forced{resolved: q.ForceResolved, open: q.ForceOpen, mutes: q.Mutes, muteSet: q.MuteSet}
	var snap conds
	addSnapshot(&snap, q.TenantID, f.AuditID)
	rsel := r.sel
	table := "snapshot_findings"
	switch {
	case r.memoRows:
		snap.add(memoRowsIn) // the mutes' bound
		rsel = rsel.byKey()
		table = memoRowsTable
	case r.byKeys:
		snap.add(keyedInTable)
		rsel = rsel.byKey()
	}
	var sel []string
	var selArgs []any
	status, statusArgs := effectiveStatus(fc, snap)
	for _, g := range r.groupBy {
		switch g {
		case engine.GroupByStatus:
			sel = append(sel, status)
			selArgs = append(selArgs, statusArgs...)
		case engine.GroupByAge:
			e, a := ageBucket(q.Now)
			sel = append(sel, e)
			selArgs = append(selArgs, a...)
		default:
			col, _ := groupColumn(g)
			sel = append(sel, "toString("+col+")")
		}
	}
	var rows conds
	if f.ResourceID != "" {
		rows.add("resource_id = ?", f.ResourceID)
	}
	addRowFilter(&rows, q.TenantID, f, q.OnlyIDs, rsel)
	c := conds{exprs: slices.Clone(snap.exprs), args: slices.Clone(snap.args)}
	pre := rows
	if r.memoRows {
		// The table is the rows: no key to read first.
		c = conds{}
		addSnapshot(&c, q.TenantID, f.AuditID)
		pre = conds{}
		c.exprs, c.args = append(c.exprs, rows.exprs...), append(c.args, rows.args...)
	} else if r.byKeys {
		// By key, the keys come first: a key's point range is a granule
		// in each part of the snapshot, and those of the parts without
		// the key need none of the other columns read.
		c = conds{}
		addSnapshot(&c, q.TenantID, f.AuditID)
		pre = conds{}
		pre.add(keyedInTable)
		c.exprs, c.args = append(c.exprs, rows.exprs...), append(c.args, rows.args...)
	}
	nf := f
	nf.Status = ""
	addFindingFilter(&c, nf)
	if f.Status != "" {
		c.add(status+" = ?", append(slices.Clone(statusArgs), string(f.Status))...)
	}
	aliases := make([]string, len(sel))
	for i := range sel {
		aliases[i] = "g" + strconv.Itoa(i)
		sel[i] += " AS " + aliases[i]
	}
	sql := "SELECT " + strings.Join(append(slices.Clone(sel), "count()"), ", ") + " FROM " + table
	if len(pre.exprs) > 0 {
		sql += " PREWHERE " + pre.sql()
	}
	sql += " WHERE " + c.sql()
	if len(sel) > 0 {
		sql += " GROUP BY " + strings.Join(aliases, ", ")
	}
	args := append(selArgs, pre.args...)
	return sql, append(args, c.args...)
}
