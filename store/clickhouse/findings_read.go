package clickhouse

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/fourd-dev/fourd/engine"
)

// maxListLimit bounds one ListFindings call; the engine asks for at most
// engine.MaxLimit+1.
const maxListLimit = 10_000

// Bounded page reads: the first key range is expected to hold twice the rows
// needed; a short range widens ×4; after boundedTries the rest of the bucket
// is read unbounded.
const (
	initialRangeFactor = 2.0
	rangeWidening      = 4.0
	boundedTries       = 3
)

// ListFindings returns up to q.Limit findings of snapshot q.Filter.AuditID
// matching q.Filter, strictly after q.After, most severe first, then by id.
//
// A page reads only a small key range: the snapshot's counts give the
// number of matching findings in each severity bucket, ids are uniform over
// the id space, so the range after the cursor that should hold the page can
// be computed (see rangeEnd) and widened when it comes back short. Empty
// buckets are skipped without a read, and the totals of a complete snapshot
// are cached, so a page is usually one query. A resource id filter, which
// the counts cannot see, reads the resource's keys from finding_resources and
// then its findings by key.
//
// Errors: validation_failed for a missing tenant or audit or a bad limit;
// invalid_severity_filter; invalid_cursor for a malformed q.After.
func (s *Store) ListFindings(ctx context.Context, q engine.FindingQuery) (out []engine.Finding, err error) {
	defer s.metrics.Observe("findings", "ListFindings", time.Now(), &err)
	defer wrap(&err, "ListFindings(%q, %q)", q.TenantID, q.Filter.AuditID)
	ctx = s.scoped(ctx, q.TenantID, "", q.Filter.AuditID)
	if err := validateFindingQuery(q.TenantID, q.Filter); err != nil {
		return nil, err
	}
	if q.Limit < 1 || q.Limit > maxListLimit {
		return nil, &engine.Error{Code: engine.CodeInvalidLimit, Field: "limit", Message: "limit must be from 1 to 10000"}
	}
	if a := q.After; a != nil && (engine.SeverityFromRank(a.SeverityRank) == "" || !engine.ValidID(engine.PrefixFinding, a.ID)) {
		return nil, &engine.Error{Code: engine.CodeInvalidCursor, Field: "cursor", Message: "cursor is not valid; start again without a cursor"}
	}
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	// An export's pages are large: growing the page as it fills copied
	// every row twice over (issue 33 §5).
	out = make([]engine.Finding, 0, q.Limit)
	// A resource id filter, or a status filter that people's decisions
	// shift between the precomputed counts, has a density the counts do not
	// know: scan after the cursor instead of bounding the range.
	if q.Filter.Status == engine.StatusMuted && len(q.Mutes) == 0 {
		return out, nil // no active mute rule: nothing is muted
	}
	f, none, err := s.narrowFirstSeen(ctx, q.TenantID, q.Filter)
	if err != nil || none {
		return out, err // none: the first-seen filters keep no row of the snapshot
	}
	q.Filter = f
	if q.Filter.ResourceID != "" {
		return s.listByResource(ctx, q, out)
	}
	if q.Filter.RowFilters() || q.OnlyIDs != nil {
		ctx := ch.Context(ctx, ch.WithSettings(rowFilterSettings()))
		sel, err := s.resolveSelectiveMemo(ctx, q.TenantID, q.Filter)
		if err != nil {
			return nil, err
		}
		if sel.none() {
			return out, nil
		}
		return s.listRowFiltered(ctx, q, sel, out)
	}
	if q.Filter.Status != "" && len(q.ForceResolved)+len(q.ForceOpen) > 0 {
		return s.queryFindings(ctx, q.TenantID, q.Filter.AuditID, scanPageQuery{tenantID: q.TenantID, auditID: q.Filter.AuditID,
			filter: q.Filter, forced: forcedOf(q), after: q.After, limit: q.Limit, columns: pageColumns(q)}, out)
	}
	tf := q.Filter
	if tf.Status == engine.StatusMuted {
		tf.Status = engine.StatusOpen // muted findings are open ones: a bound the widening corrects
	}
	totals, err := s.bucketTotals(ctx, q.TenantID, tf)
	if err != nil {
		return nil, err
	}
	start, lo := 0, ""
	if q.After != nil {
		start, lo = int(sevOrder(engine.SeverityFromRank(q.After.SeverityRank))), q.After.ID
	}
	for b := start; b < numBuckets && len(out) < q.Limit; b++ {
		if b != start {
			lo = ""
		}
		if totals[b] == 0 {
			continue
		}
		if out, err = s.pageBucket(ctx, q, b, lo, totals[b], out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// pageBucket appends up to q.Limit-len(out) findings of bucket b after lo,
// reading key ranges expected to hold them.
func (s *Store) pageBucket(ctx context.Context, q engine.FindingQuery, b int, lo string, total uint64, out []engine.Finding) ([]engine.Finding, error) {
	loInclusive, factor := false, initialRangeFactor
	for try := 0; ; try++ {
		need := q.Limit - len(out)
		hi := ""
		if try < boundedTries {
			hi = rangeEnd(engine.PrefixFinding, lo, need, total, factor)
		}
		before := len(out)
		var err error
		out, err = s.queryFindings(ctx, q.TenantID, q.Filter.AuditID, bucketPageQuery{tenantID: q.TenantID, auditID: q.Filter.AuditID, filter: q.Filter,
			forced: forcedOf(q), bucket: b, lo: lo, loInclusive: loInclusive, hi: hi, limit: need, columns: pageColumns(q)}, out)
		if err != nil {
			return nil, err
		}
		if len(out)-before == need || hi == "" {
			return out, nil
		}
		// [lo, hi) is exhausted: go on from hi with a wider range.
		lo, loInclusive = hi, true
		factor *= rangeWidening
	}
}

// forcedOf is what of q changes statuses since the snapshot was written.
func forcedOf(q engine.FindingQuery) forced {
	return forced{resolved: q.ForceResolved, open: q.ForceOpen, mutes: q.Mutes, muteSet: q.MuteSet}
}

// validateFindingQuery checks what every snapshot read needs.
func validateFindingQuery(tenantID string, f engine.FindingFilter) error {
	if tenantID == "" {
		return engine.FieldErrorf("tenant_id", "tenant id is required")
	}
	if f.AuditID == "" {
		return engine.FieldErrorf("audit_id", "the snapshot's audit id is required")
	}
	if f.Severity != "" {
		if _, err := engine.ParseSeverity(string(f.Severity)); err != nil {
			return err
		}
	}
	if f.Dimension != "" && !f.Dimension.Valid() {
		return engine.FieldErrorf("dimension", "unknown dimension %q", f.Dimension)
	}
	if f.Status != "" && !f.Status.Valid() && f.Status != engine.StatusMuted {
		return engine.FieldErrorf("status", "status must be open or resolved; got %q", f.Status)
	}
	return nil
}

// sqlQuery is a query struct.
type sqlQuery interface{ toSQL() (string, []any) }

// queryFindings runs a query selecting findingColumns of the snapshot of
// tenantID and auditID and appends the rows, their texts filled in.
func (s *Store) queryFindings(ctx context.Context, tenantID, auditID string, q sqlQuery, out []engine.Finding) ([]engine.Finding, error) {
	text, args := q.toSQL()
	rows, err := s.conn.Query(ctx, text, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	start := len(out)
	ids := make([]uint64, 0, cap(out)-len(out))
	row := newFindingRow()
	for rows.Next() {
		f, id, err := row.scan(rows, tenantID, auditID)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(ids) > 0 {
		if err := s.fillTexts(ctx, tenantID, out[start:], ids); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// GetFinding returns one finding of a snapshot; not_found when the snapshot
// has no finding with that id (also when it is another tenant's).
func (s *Store) GetFinding(ctx context.Context, tenantID, auditID, id string) (f engine.Finding, err error) {
	defer s.metrics.Observe("findings", "GetFinding", time.Now(), &err)
	defer wrap(&err, "GetFinding(%q, %q, %q)", tenantID, auditID, id)
	ctx = s.scoped(ctx, tenantID, "", auditID)
	key, ok := findingIDKey(id)
	if tenantID == "" || auditID == "" || !ok {
		return f, engine.ErrNotFound("finding", id)
	}
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	text, args := getFindingQuery{tenantID: tenantID, auditID: auditID, id: key}.toSQL()
	f, textID, err := scanFinding(s.conn.QueryRow(ctx, text, args...), tenantID, auditID)
	if errors.Is(err, sql.ErrNoRows) {
		return engine.Finding{}, engine.ErrNotFound("finding", id)
	}
	if err != nil {
		return engine.Finding{}, err
	}
	fs := []engine.Finding{f}
	if err := s.fillTexts(ctx, tenantID, fs, []uint64{textID}); err != nil {
		return engine.Finding{}, err
	}
	return fs[0], nil
}

// CountFindings counts the findings of snapshot q.Filter.AuditID matching
// q.Filter, grouped by q.GroupBy; without groups, one row with the total.
// Groups come ordered by their key values in q.GroupBy order: severity most
// severe first (the list order), age youngest first, every other field
// ascending. Counts come from the per-snapshot counts; a resource id filter
// counts the rows, and so do the row filters, the age grouping and
// q.Rows, with q's decisions and mutes applied (rowCountQuery).
//
// Errors: validation_failed for a missing tenant or audit or an unknown or
// repeated group-by field; invalid_severity_filter.
func (s *Store) CountFindings(ctx context.Context, q engine.FindingCountQuery) (out []engine.FindingCount, err error) {
	defer s.metrics.Observe("findings", "CountFindings", time.Now(), &err)
	defer wrap(&err, "CountFindings(%q, %q)", q.TenantID, q.Filter.AuditID)
	ctx = s.scoped(ctx, q.TenantID, "", q.Filter.AuditID)
	if err := validateFindingQuery(q.TenantID, q.Filter); err != nil {
		return nil, err
	}
	cols := make([]string, len(q.GroupBy))
	for i, g := range q.GroupBy {
		col, ok := groupColumn(g)
		if !ok || slices.Contains(q.GroupBy[:i], g) {
			return nil, engine.ParseGroupByError(string(g))
		}
		cols[i] = col
	}
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	// What the precomputed counts cannot answer is counted from the rows
	// (and so are the row filters' counts, with the decisions and mutes
	// given, even when the snapshot's range of first_seen_at drops them).
	q.Rows = q.Rows || q.Filter.RowFilters() || q.OnlyIDs != nil || slices.Contains(q.GroupBy, engine.GroupByAge)
	f, none, err := s.narrowFirstSeen(ctx, q.TenantID, q.Filter)
	if err != nil {
		return nil, err
	}
	q.Filter = f
	if q.Now.IsZero() {
		q.Now = time.Now()
	}
	cq := countQuery{tenantID: q.TenantID, auditID: q.Filter.AuditID, filter: q.Filter, groupBy: cols}
	var groups []countGroup
	ok := false
	if none { // the first-seen filters keep no row of the snapshot
		if len(cols) == 0 {
			groups = []countGroup{{keys: []string{}}} // the total: none
		}
		ok = true
	} else if q.Rows {
		if q.Filter.Status == engine.StatusMuted && len(q.Mutes) == 0 {
			ok = true // no active mute rule: nothing is muted
		} else {
			ctx := ch.Context(ctx, ch.WithSettings(idListSettings))
			sel, err := s.resolveSelectiveMemo(ctx, q.TenantID, q.Filter)
			if err != nil {
				return nil, err
			}
			if sel.none() {
				if len(cols) == 0 {
					groups = []countGroup{{keys: []string{}}} // the total: none
				}
			} else {
				rq := rowCountQuery{q: q, groupBy: q.GroupBy, sel: sel}
				if ids := sel.keyedResources(q.Filter); ids != nil && useKeyedReads {
					key := memoKeyOf(q.TenantID, q.Filter)
					if m := s.memoRowsOf(key); m != nil {
						// The rows from the memo (filter_memo_rows.go); while
						// they are being read, by key.
						memoRowReads.Add(1)
						if ctx, err = withMemoRowsTable(ctx, m.snapshot, m.after(q.Filter.Severity, nil)); err != nil {
							return nil, err
						}
						rq.memoRows = true
					} else if keys, kept, err := s.keyedCountKeys(ctx, q.TenantID, q.Filter, ids); err != nil {
						return nil, err
					} else if keys != nil {
						if kept {
							// After this count's own read, which it would slow.
							defer s.startRowFill(ctx, key, q.TenantID, q.Filter, ids, keys)
						}
						if ctx, err = withKeyedCount(ctx, keys); err != nil {
							return nil, err
						}
						rq.byKeys = true
					}
				}
				text, args := rq.toSQL()
				if groups, err = s.countRows(ctx, text, args, len(cols)); err != nil {
					return nil, err
				}
			}
			ok = true
		}
	} else if cq.fromRows() {
		if groups, ok, err = s.countByResource(ctx, cq); err != nil {
			return nil, err
		}
	}
	if !ok {
		if groups, err = s.countGroups(ctx, cq); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(groups, func(a, b countGroup) int {
		for i, g := range q.GroupBy {
			if c := compareKey(g, a.keys[i], b.keys[i]); c != 0 {
				return c
			}
		}
		return 0
	})
	out = make([]engine.FindingCount, 0, len(groups))
	for _, g := range groups {
		key := make(map[engine.GroupBy]string, len(q.GroupBy))
		for i, gb := range q.GroupBy {
			key[gb] = g.keys[i]
		}
		out = append(out, engine.FindingCount{Key: key, Count: int64(g.n)})
	}
	return out, nil
}

// compareKey orders two values of a group-by field.
func compareKey(g engine.GroupBy, a, b string) int {
	switch g {
	case engine.GroupBySeverity:
		return cmp.Compare(engine.Severity(b).Rank(), engine.Severity(a).Rank())
	case engine.GroupByAge:
		return cmp.Compare(engine.AgeBucketRank(a), engine.AgeBucketRank(b))
	}
	return strings.Compare(a, b)
}

// countGroup is one row of a countQuery.
type countGroup struct {
	keys []string
	n    uint64
}

// countGroups runs a countQuery.
func (s *Store) countGroups(ctx context.Context, q countQuery) ([]countGroup, error) {
	text, args := q.toSQL()
	return s.countRows(ctx, text, args, len(q.groupBy))
}

// countRows runs a query answering rows of keys string columns and a
// count.
func (s *Store) countRows(ctx context.Context, text string, args []any, keys int) ([]countGroup, error) {
	rows, err := s.conn.Query(ctx, text, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []countGroup
	for rows.Next() {
		g := countGroup{keys: make([]string, keys)}
		dest := make([]any, 0, keys+1)
		for i := range g.keys {
			dest = append(dest, &g.keys[i])
		}
		if err := rows.Scan(append(dest, &g.n)...); err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, rows.Err()
}
