package clickhouse

import (
	"context"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/fourd-dev/fourd/engine"
)

// Pages under row filters (engine.FindingFilter.RowFilters). The counts
// do not know how many rows a row filter keeps, so a page cannot bound its
// key range the way an ordinary filter's does (ListFindings). An unbounded
// read of the matching keys after the position costs one pass over the
// narrow columns of every later row of the snapshot, plus a sort of every
// match: a filter that keeps most rows (first_seen_after an old date) paid
// 172 ms at 10M findings for what an unfiltered page reads in 12 ms.
//
// So a page under cheap row filters first probes a bounded key range as if
// the filter kept every row the ordinary filters keep (the counts'
// totals), at least one granule (granuleRows) wide. A probe that fills the
// page is the page: it read every row of the bucket from the position to
// its bound. A probe that comes back short is followed by one sized by the
// density it saw, up to a few (probeTries), then the rest of the page is
// one unbounded pass (the filter is sparse: the pass reads what more
// probes would).
//
// Every query costs a few ms of server CPU whatever it reads (the parts'
// key analysis, a granule of each part): three probes before the pass made
// a first-seen filter keeping nothing cost 43 ms of ClickHouse CPU a page
// against 25 for the pass alone (issue 33 §3). One granule-wide probe
// finds a filter keeping every row or a tenth of them as well as three
// narrow ones did, and under first-seen filters an empty one goes to the
// pass: a filter keeping nothing costs one probe more than the pass.

// probeTries is the most probes of a page that come back short before the
// rest of the page is read in one pass; granuleRows is the fewest rows (at
// full density) the first probe's range is sized for: the server reads
// whole granules of 1,024 rows (index_granularity of snapshot_findings), so
// a narrower range reads as much and sees less. Under first-seen filters
// alone the pass reads one narrow column (~25 ms of CPU at 10M, five
// probes' worth): an empty probe ends the probing and at most two short
// ones are read. A compliance filter's pass also reads text_id and the
// texts' list (150–350 ms at 10M): there an empty probe makes the next
// one emptyWidening times as wide, and three short ones are read.
const (
	probeTries           = 2
	complianceProbeTries = 3
	emptyWidening        = 16.0
	granuleRows          = 1024
)

// useRangeProbes is whether row-filtered pages probe bounded ranges;
// tests turn it off to compare with one unbounded pass a page.
var useRangeProbes = true

// rowFilterReadLimit, when not 0, is the most rows one query of a
// row-filtered page may read (max_rows_to_read): tests set it to prove
// what a page reads.
var rowFilterReadLimit int

// rowFilterPasses counts the unbounded passes of row-filtered pages (the
// reads of every later row's narrow columns), for tests: the limit above
// does not reach the pass's subquery on 18.16. rowFilterProbes counts
// their bounded probes.
var rowFilterPasses, rowFilterProbes atomic.Int64

// logRowFilterQueries, set by tests, logs the queries of row-filtered
// pages (system.query_log) to count what they read.
var logRowFilterQueries bool

// rowFilterSettings are the settings of a row-filtered page's queries.
func rowFilterSettings() ch.Settings {
	if rowFilterReadLimit == 0 && !logRowFilterQueries {
		return idListSettings
	}
	out := ch.Settings{"max_query_size": idListSettings["max_query_size"]}
	if rowFilterReadLimit != 0 {
		out["max_rows_to_read"] = rowFilterReadLimit
	}
	if logRowFilterQueries {
		out["log_queries"] = 1
	}
	return out
}

// probesRanges reports whether a page under q's row filters (sel: the
// ones resolved beforehand) is worth probing: its row filters are
// conditions on the snapshot's own columns, the tenant's texts (first
// seen, compliance) or a tag on many resources, cheap to evaluate on a
// range, and the counts' totals bound every bucket's matches (people's
// decisions do not move rows across the status the filter names). A tag's
// probe checks the latest versions of the range's candidates only
// (tagMatchingIn); a tag on few resources reads their findings from the
// resource index instead. A q filter is probed once resolved to lists
// (its texts and resources, resolveQ): a range then costs a look at its
// text_id and the listed resources' keys; unresolved, its subquery over
// resources costs the same whatever the range. An assignee's findings
// are few (at most 10,000 ids).
func probesRanges(q engine.FindingQuery, sel *selectiveResources) bool {
	f := q.Filter
	if !useRangeProbes || f.Assignee != "" || q.OnlyIDs != nil {
		return false
	}
	if f.Q != "" && (sel == nil || (sel.q == nil && sel.qWide == nil) || sel.titles == nil) {
		return false
	}
	if f.Tags != "" && (!useTagIndex || (sel != nil && sel.tags != nil)) {
		return false
	}
	return f.Status == "" || len(q.ForceResolved)+len(q.ForceOpen) == 0
}

// listRowFiltered appends up to q.Limit findings of q under row filters
// (sel: the tag and q filters' resources resolved beforehand, or nil).
func (s *Store) listRowFiltered(ctx context.Context, q engine.FindingQuery, sel *selectiveResources, out []engine.Finding) ([]engine.Finding, error) {
	if ids := sel.keyedResources(q.Filter); ids != nil && useKeyedReads {
		return s.listKeyed(ctx, q, sel, ids, out)
	}
	read := func(rng *bucketRange, from *keyPos, limit int) rowFilterPageQuery {
		return rowFilterPageQuery{tenantID: q.TenantID, auditID: q.Filter.AuditID, filter: q.Filter, forced: forcedOf(q),
			onlyIDs: q.OnlyIDs, from: from, rng: rng, limit: limit, columns: pageColumns(q), sel: sel}
	}
	var from *keyPos
	if q.After != nil {
		from = &keyPos{bucket: int(sevOrder(engine.SeverityFromRank(q.After.SeverityRank))), bound: q.After.ID}
	}
	pass := func(from *keyPos) ([]engine.Finding, error) {
		rowFilterPasses.Add(1)
		return s.queryFindings(ctx, q.TenantID, q.Filter.AuditID, read(nil, from, q.Limit-len(out)), out)
	}
	if !probesRanges(q, sel) {
		return pass(from)
	}
	tf := withoutRowFilters(q.Filter)
	if tf.Status == engine.StatusMuted {
		tf.Status = engine.StatusOpen // muted findings are open ones
	}
	totals, err := s.bucketTotals(ctx, q.TenantID, tf)
	if err != nil {
		return nil, err
	}
	start := 0
	if from != nil {
		start = from.bucket
	}
	factor, tries := max(initialRangeFactor, granuleRows/float64(q.Limit-len(out))), 0
	maxTries, emptyEnds := probeTries, true
	if q.Filter.Compliance != "" || q.Filter.Tags != "" || q.Filter.Q != "" {
		// Their pass is dear: a tag's checks every candidate's latest
		// version and reads every later row's resource_id (~0.8 s at 10M
		// for a tag on 6 % of the resources); q's reads every later row's
		// text_id (0.2 s of CPU at 10M).
		maxTries, emptyEnds = complianceProbeTries, false
	}
	for b := start; b < numBuckets; b++ {
		r := bucketRange{bucket: b}
		if b == start && from != nil {
			r.lo = from.bound
		}
		if totals[b] == 0 {
			continue
		}
		for {
			need := q.Limit - len(out)
			r.hi = rangeEnd(engine.PrefixFinding, r.lo, need, totals[b], factor)
			before := len(out)
			rowFilterProbes.Add(1)
			if out, err = s.queryFindings(ctx, q.TenantID, q.Filter.AuditID, read(&r, nil, need), out); err != nil {
				return nil, err
			}
			if len(out) == q.Limit {
				return out, nil
			}
			if r.hi == "" {
				break // the rest of the bucket is read: on to the next
			}
			r.lo, r.loInclusive = r.hi, true
			got := len(out) - before
			if tries++; (got == 0 && emptyEnds) || tries == maxTries {
				// Sparse: everything after the last probe in one pass.
				return pass(&keyPos{bucket: b, bound: r.lo, inclusive: true})
			}
			factor = nextFactor(factor, need, got)
		}
	}
	return out, nil
}

// nextFactor is the range factor of the probe after one that was to hold
// need×factor rows at full density and found got matches: sized for twice
// the matches still needed at the density seen, at least twice as wide,
// ×emptyWidening when it found none.
func nextFactor(factor float64, need, got int) float64 {
	if got == 0 {
		return factor * emptyWidening
	}
	density := float64(got) / (float64(need) * factor)
	return min(max(2/density, factor*2), factor*emptyWidening*emptyWidening)
}

// withoutRowFilters is f with its row filters cleared: what the counts
// can answer.
func withoutRowFilters(f engine.FindingFilter) engine.FindingFilter {
	f.Tags, f.Compliance, f.Assignee, f.Q = "", "", "", ""
	f.FirstSeenAfter, f.FirstSeenBefore = time.Time{}, time.Time{}
	return f
}

// keyPos is a position in the list order: a severity bucket (sev_order)
// and an id or id bound in it, the rows after it (at it when inclusive)
// following.
type keyPos struct {
	bucket    int
	bound     string
	inclusive bool
}

// bucketRange is a key range of one severity bucket (sev_order): lo < id
// (lo <= id when loInclusive) and id < hi, empty lo or hi unbounded.
type bucketRange struct {
	bucket      int
	lo          string
	loInclusive bool
	hi          string
}

// rowFilterPageQuery reads up to limit findings under row filters, in
// list order: those of one bucket's key range (rng, a probe), or else
// every one after a position (from; nil for the first page). A range is
// read in one query. Without a range, the matching keys are read first,
// from the narrow columns of the rows after the position (a subquery,
// sorted and cut to the page), then the page's rows by key (point ranges
// of the primary key); what that costs is one pass over the narrow
// columns after the position.
type rowFilterPageQuery struct {
	tenantID, auditID string
	filter            engine.FindingFilter
	forced            forced
	onlyIDs           []string
	from              *keyPos
	rng               *bucketRange
	limit             int
	columns           string // selectColumns
	sel               *selectiveResources
}

func (q rowFilterPageQuery) toSQL() (string, []any) {
	var c conds
	addSnapshot(&c, q.tenantID, q.auditID)
	switch {
	case q.rng != nil:
		c.add("sev_order = ?", uint8(q.rng.bucket))
		if q.rng.lo != "" {
			op := "id > ?"
			if q.rng.loInclusive {
				op = "id >= ?"
			}
			c.add(op, idRangeKey(q.rng.lo))
		}
		if q.rng.hi != "" {
			c.add("id < ?", idRangeKey(q.rng.hi))
		}
	case q.from != nil:
		op := "(sev_order > ? OR (sev_order = ? AND id > ?))"
		if q.from.inclusive {
			op = "(sev_order > ? OR (sev_order = ? AND id >= ?))"
		}
		o := uint8(q.from.bucket)
		c.add(op, o, o, idRangeKey(q.from.bound))
	}
	bounds := conds{exprs: slices.Clone(c.exprs), args: slices.Clone(c.args)}
	sel := q.sel
	if q.rng != nil && q.filter.Tags != "" && (sel == nil || sel.tags == nil) {
		// A probe: the tag's candidates are the range's.
		scoped := selectiveResources{}
		if sel != nil {
			scoped = *sel
		}
		scoped.tagScope = &bounds
		sel = &scoped
	}
	var pre conds
	addRowFilter(&pre, q.tenantID, q.filter, q.onlyIDs, sel)
	addPageFilter(&c, q.filter, q.forced, bounds)
	limit := strconv.Itoa(q.limit)
	if q.rng != nil {
		sql := "SELECT " + selectColumns(q.columns) + " FROM snapshot_findings PREWHERE " + pre.sql() + " WHERE " + c.sql() +
			" ORDER BY id LIMIT " + limit
		return sql, append(pre.args, c.args...)
	}
	keys := "SELECT sev_order, id FROM snapshot_findings PREWHERE " + pre.sql() + " WHERE " + c.sql() +
		" ORDER BY sev_order, id LIMIT " + limit
	sql := "SELECT " + selectColumns(q.columns) + " FROM snapshot_findings WHERE snapshot = ? AND (sev_order, id) IN (" + keys + ")" +
		" ORDER BY sev_order, id LIMIT " + limit
	args := append([]any{snapshotKey(q.tenantID, q.auditID)}, pre.args...)
	return sql, append(args, c.args...)
}
