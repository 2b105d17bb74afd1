package clickhouse

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// DiffSnapshots yields the changes from prevID (empty: none) to auditID,
// computed by the server with one join, so only changed rows travel. The
// findings mutes match are left out in the same query (diffQuery).
func (s *Store) DiffSnapshots(ctx context.Context, tenantID, prevID, auditID string, mutes engine.DiffMutes) iter.Seq2[engine.FindingChange, error] {
	return s.diff(ctx, tenantID, prevID, auditID, mutes, false)
}

// DiffChanges yields what DiffSnapshots yields with only the columns an
// event carries read (eventColumns): the server reads and sends a third
// of a finding's bytes, and a first audit's millions of rows cost the
// client half the CPU.
func (s *Store) DiffChanges(ctx context.Context, tenantID, prevID, auditID string) iter.Seq2[engine.FindingChange, error] {
	return s.diff(ctx, tenantID, prevID, auditID, engine.DiffMutes{}, true)
}

func (s *Store) diff(ctx context.Context, tenantID, prevID, auditID string, mutes engine.DiffMutes, narrow bool) iter.Seq2[engine.FindingChange, error] {
	return func(yield func(engine.FindingChange, error) bool) {
		ids := []string{auditID}
		if prevID != "" {
			ids = append(ids, prevID)
		}
		if err := checkSnapshotIDs(tenantID, ids...); err != nil {
			yield(engine.FindingChange{}, err)
			return
		}
		// The stream is read as fast as its consumer commits the events
		// (millions on a first audit): it gets a write's deadline.
		ctx, cancel := s.writeCtx(s.scoped(ctx, tenantID, "", ids...))
		defer cancel()
		texts, err := s.snapshotTexts(ctx, tenantID, auditID)
		if err != nil {
			yield(engine.FindingChange{}, fmt.Errorf("clickhouse: DiffSnapshots: %w", err))
			return
		}
		q := diffQuery{tenantID: tenantID, prevID: prevID, auditID: auditID, columns: findingColumns, mutes: mutes}
		var prevSev, prevStatus string
		var inPrev uint8
		scan := func(rows scanner) (engine.Finding, uint64, error) {
			return scanFinding(scanFunc(func(dest ...any) error {
				return rows.Scan(append(dest, &prevSev, &prevStatus, &inPrev)...)
			}), tenantID, auditID)
		}
		if narrow {
			q.columns = eventColumns
			if prevID == "" { // nothing can have changed severity
				q.columns = eventColumnsNoEvidence
			}
			row := newEventRow(tenantID, auditID)
			scan = func(rows scanner) (engine.Finding, uint64, error) {
				f, id, err := row.scan(rows)
				prevSev, prevStatus, inPrev = row.prevSev, row.prevStatus, row.inPrev
				return f, id, err
			}
		}
		sql, args := q.toSQL()
		rows, err := s.conn.Query(ctx, sql, args...)
		if err != nil {
			yield(engine.FindingChange{}, fmt.Errorf("clickhouse: DiffSnapshots: %w", err))
			return
		}
		defer rows.Close()
		for rows.Next() {
			f, id, err := scan(rows)
			if err == nil && narrow && id != 0 {
				t, ok := texts[id]
				if !ok {
					err = fmt.Errorf("finding %s: text %016x is missing", f.ID, id)
				}
				f.Title = t.title
			} else if err == nil {
				err = applyText(&f, id, texts)
			}
			if err != nil {
				yield(engine.FindingChange{}, err)
				return
			}
			ch, ok := classifyChange(f, inPrev == 1, engine.Severity(prevSev), engine.FindingStatus(prevStatus))
			if ok && !yield(ch, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(engine.FindingChange{}, fmt.Errorf("clickhouse: DiffSnapshots: %w", err))
		}
	}
}

// scanFunc lets a function stand for a scanner.
type scanFunc func(dest ...any) error

func (f scanFunc) Scan(dest ...any) error { return f(dest...) }

// eventColumns is what DiffChanges reads of a finding, in the order of
// eventRow: the fields of an event's finding and the evidence
// (a severity change's reason is in it).
const eventColumns = `id, severity, dimension, status, resolution,
resource_id, rule_id, resource_type, provider, account, region, title, evidence, resolved_at, text_id`

// eventColumnsNoEvidence is eventColumns with an empty evidence.
const eventColumnsNoEvidence = `id, severity, dimension, status, resolution,
resource_id, rule_id, resource_type, provider, account, region, title, '', resolved_at, text_id`

// eventRow reads rows selected with eventColumns and the diff's previous
// severity, status and presence, as scanFinding does, into destinations
// it reuses row after row: scanning into a fresh set each row (the driver
// takes them as interfaces) allocated every one of them, 18 a finding of
// a first audit's millions.
type eventRow struct {
	tenantID, auditID                string
	id, sev, dim, status, res, ev    string
	resourceID, ruleID, resourceType string
	provider, account, region, title string
	resolved                         time.Time
	textID                           uint64
	prevSev, prevStatus              string
	inPrev                           uint8
	dest                             []any
}

func newEventRow(tenantID, auditID string) *eventRow {
	x := &eventRow{tenantID: tenantID, auditID: auditID}
	x.dest = []any{&x.id, &x.sev, &x.dim, &x.status, &x.res, &x.resourceID, &x.ruleID, &x.resourceType, &x.provider,
		&x.account, &x.region, &x.title, &x.ev, &x.resolved, &x.textID, &x.prevSev, &x.prevStatus, &x.inPrev}
	return x
}

// scan reads the current row of sc into a new Finding and its text id.
func (x *eventRow) scan(sc scanner) (engine.Finding, uint64, error) {
	f := engine.Finding{TenantID: x.tenantID, AuditID: x.auditID}
	if err := sc.Scan(x.dest...); err != nil {
		return f, 0, fmt.Errorf("scan finding: %w", err)
	}
	var err error
	if f.ID, err = findingIDText(x.id); err != nil {
		return f, 0, fmt.Errorf("scan finding: %w", err)
	}
	f.Severity, f.Dimension, f.Status, f.Resolution = engine.Severity(x.sev), engine.Dimension(x.dim), engine.FindingStatus(x.status), engine.Resolution(x.res)
	f.ResourceID, f.RuleID, f.ResourceType, f.Provider = x.resourceID, x.ruleID, x.resourceType, x.provider
	f.Account, f.Region, f.Title = x.account, x.region, x.title
	if x.ev != "" {
		f.Evidence = json.RawMessage(x.ev)
	}
	if r := fromCHTime(x.resolved); !r.IsZero() {
		f.ResolvedAt = &r
	}
	return f, x.textID, nil
}

// diffQuery selects the rows of auditID that differ from prevID: new,
// changed status, or (open in both) changed severity, with the previous
// severity and status beside them. An open row that mutes.Cur match in
// auditID, or a row no longer open that mutes.Prev matched in prevID
// (mute_matches holds open findings only), is left out by an anti-join on
// the snapshot's matches: the server reads each side's matches once,
// where a lookup per batch of changes would cost thousands of queries on
// a first audit of a million findings.
type diffQuery struct {
	tenantID, prevID, auditID, columns string
	mutes                              engine.DiffMutes
}

func (q diffQuery) toSQL() (string, []any) {
	var c conds
	if len(q.mutes.Cur) > 0 {
		muted, margs := mutedSubquery(forced{mutes: q.mutes.Cur}, q.snapshotCond(q.auditID))
		c.add("(status != 'open' OR id NOT IN "+muted+")", margs...)
	}
	if q.prevID == "" {
		where := "snapshot = ? AND status = 'open'"
		if len(c.exprs) > 0 {
			where += " AND " + c.sql()
		}
		return "SELECT " + q.columns + ", 'info', 'open', toUInt8(0) FROM snapshot_findings WHERE " + where,
			append([]any{snapshotKey(q.tenantID, q.auditID)}, c.args...)
	}
	if len(q.mutes.Prev) > 0 {
		muted, margs := mutedSubquery(forced{mutes: q.mutes.Prev}, q.snapshotCond(q.prevID))
		c.add("(status = 'open' OR id NOT IN "+muted+")", margs...)
	}
	where := "(in_prev = 0 OR toString(status) != prev_status OR (status = 'open' AND toString(severity) != prev_severity))"
	if len(c.exprs) > 0 {
		where += " AND " + c.sql()
	}
	return "SELECT " + q.columns + `, prev_severity, prev_status, in_prev
FROM (SELECT ` + q.columns + ` FROM snapshot_findings WHERE snapshot = ?)
ANY LEFT JOIN (SELECT id, toString(severity) AS prev_severity, toString(status) AS prev_status, toUInt8(1) AS in_prev
  FROM snapshot_findings WHERE snapshot = ?) USING id
WHERE ` + where,
		append([]any{snapshotKey(q.tenantID, q.auditID), snapshotKey(q.tenantID, q.prevID)}, c.args...)
}

// snapshotCond is the condition selecting auditID's rows of mute_matches.
func (q diffQuery) snapshotCond(auditID string) conds {
	var c conds
	addSnapshot(&c, q.tenantID, auditID)
	return c
}
