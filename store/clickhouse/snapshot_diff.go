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
		scan := func(sc scanner) (engine.Finding, uint64, error) { return scanFinding(sc, tenantID, auditID) }
		if narrow {
			q.columns = eventColumns
			if prevID == "" { // nothing can have changed severity
				q.columns = eventColumnsNoEvidence
			}
			scan = func(sc scanner) (engine.Finding, uint64, error) { return scanEventFinding(sc, tenantID, auditID) }
		}
		sql, args := q.toSQL()
		rows, err := s.conn.Query(ctx, sql, args...)
		if err != nil {
			yield(engine.FindingChange{}, fmt.Errorf("clickhouse: DiffSnapshots: %w", err))
			return
		}
		defer rows.Close()
		for rows.Next() {
			var prevSev, prevStatus string
			var inPrev uint8
			f, id, err := scan(scanFunc(func(dest ...any) error {
				return rows.Scan(append(dest, &prevSev, &prevStatus, &inPrev)...)
			}))
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
// scanEventFinding: the fields of an event's finding and the evidence
// (a severity change's reason is in it).
const eventColumns = `id, severity, dimension, status, resolution,
resource_id, rule_id, resource_type, provider, account, region, title, evidence, resolved_at, text_id`

// eventColumnsNoEvidence is eventColumns with an empty evidence.
const eventColumnsNoEvidence = `id, severity, dimension, status, resolution,
resource_id, rule_id, resource_type, provider, account, region, title, '', resolved_at, text_id`

// scanEventFinding reads one row selected with eventColumns, as
// scanFinding does.
func scanEventFinding(sc scanner, tenantID, auditID string) (engine.Finding, uint64, error) {
	var (
		f                         = engine.Finding{TenantID: tenantID, AuditID: auditID}
		sev, dim, status, res, ev string
		id                        string // stored (idkey.go)
		resolved                  time.Time
		textID                    uint64
	)
	err := sc.Scan(&id, &sev, &dim, &status, &res, &f.ResourceID, &f.RuleID, &f.ResourceType, &f.Provider,
		&f.Account, &f.Region, &f.Title, &ev, &resolved, &textID)
	if err != nil {
		return f, 0, fmt.Errorf("scan finding: %w", err)
	}
	if f.ID, err = findingIDText(id); err != nil {
		return f, 0, fmt.Errorf("scan finding: %w", err)
	}
	f.Severity, f.Dimension, f.Status, f.Resolution = engine.Severity(sev), engine.Dimension(dim), engine.FindingStatus(status), engine.Resolution(res)
	if ev != "" {
		f.Evidence = json.RawMessage(ev)
	}
	if r := fromCHTime(resolved); !r.IsZero() {
		f.ResolvedAt = &r
	}
	return f, textID, nil
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
