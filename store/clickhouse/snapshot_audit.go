package clickhouse

import (
	"context"
	"iter"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// The audit engine writes a snapshot in steps (engine.SnapshotStore):
// AppendSnapshot streams the findings the audit detected, CarryForward
// copies server-side what the previous snapshot had and this one lacks
// (resolved now, or resolved earlier and still retained), and
// FinalizeSnapshot counts the snapshot and marks it complete. Every row of
// one snapshot carries the same written_at, the audit id's own time, so a
// snapshot never straddles two monthly partitions.

var (
	_ engine.SnapshotStore   = (*Store)(nil)
	_ engine.InventoryReader = (*Store)(nil)
	_ engine.EventLog        = (*Store)(nil)
)

// auditTime is the time encoded in a time-sortable audit id, truncated to
// seconds.
func auditTime(auditID string) time.Time { return engine.IDTime(auditID).Truncate(time.Second) }

func checkSnapshotIDs(tenantID string, auditIDs ...string) error {
	if tenantID == "" {
		return engine.FieldErrorf("tenant_id", "tenant id is required")
	}
	for _, id := range auditIDs {
		if !engine.ValidID(engine.PrefixAudit, id) {
			return engine.FieldErrorf("audit_id", "audit_id must be an audit id (aud_…); got %q", id)
		}
	}
	return nil
}

// AppendSnapshot streams findings into an audit's snapshot in large
// batches, like WriteSnapshot, without counting or completing it.
func (s *Store) AppendSnapshot(ctx context.Context, tenantID, auditID string, findings iter.Seq2[engine.Finding, error]) (n int64, err error) {
	defer wrap(&err, "AppendSnapshot(%q, %q)", tenantID, auditID)
	ctx = s.scoped(ctx, tenantID, auditID)
	if err := checkSnapshotIDs(tenantID, auditID); err != nil {
		return 0, err
	}
	ctx, cancel := s.writeCtx(ctx)
	defer cancel()
	// The counts gathered here are dropped: FinalizeSnapshot counts on the
	// server, after CarryForward added its rows.
	n, err = s.insertFindings(ctx, tenantID, auditID, auditTime(auditID), findings, newSnapshotCounts(0))
	if err != nil {
		s.written.forget(snapshotKey(tenantID, auditID))
		return 0, err
	}
	// In cluster mode, not done until every live replica holds the rows
	// (replica_wait.go): CarryForward reads them next.
	return n, s.awaitWritten(ctx, tenantID, auditID, n)
}

// CarryForward copies into auditID the findings of prevID that auditID does
// not have: open ones resolved (fixed) at resolvedAt, resolved ones as they
// were when resolved after keepSince: two INSERT … SELECTs on the server,
// the keys into the resource index, then the rows.
func (s *Store) CarryForward(ctx context.Context, tenantID, prevID, auditID string, resolvedAt, keepSince time.Time) (err error) {
	defer wrap(&err, "CarryForward(%q, %q, %q)", tenantID, prevID, auditID)
	ctx = s.scoped(ctx, tenantID, auditID, prevID)
	if err := checkSnapshotIDs(tenantID, prevID, auditID); err != nil {
		return err
	}
	ctx, cancel := s.writeCtx(ctx)
	defer cancel()
	if err := s.checkSnapshotKey(ctx, tenantID, auditID); err != nil {
		return err
	}
	const absent = `snapshot = ? AND id NOT IN (SELECT id FROM snapshot_findings WHERE snapshot = ?)`
	at, keep := resolvedAt.UTC().Truncate(time.Second), keepSince.UTC().Truncate(time.Second)
	const carried = absent + ` AND (status = 'open' OR resolved_at >= toDateTime(?, 'UTC'))`
	prev, snap := snapshotKey(tenantID, prevID), snapshotKey(tenantID, auditID)
	var carrying uint64
	if s.router != nil {
		// What the replicas must hold afterwards (awaitWritten): counted
		// before the copy, while the rows it copies are still absent.
		if err := s.conn.QueryRow(ctx, `SELECT count() FROM snapshot_findings WHERE `+carried,
			prev, snap, keep.Unix()).Scan(&carrying); err != nil {
			s.written.forget(snap)
			return err
		}
	}
	ctx = snapshotWriteCtx(ctx)
	defer func() {
		if err != nil {
			s.written.forget(snap)
		}
	}()
	// The keys first, while the findings they name are still absent from
	// auditID; sorted by the index's key (see sendBucket).
	if err := s.conn.Exec(ctx, `INSERT INTO snapshot_finding_index (snapshot, resource_hash, sev_order, id, written_at)
SELECT ?, cityHash64(resource_id) AS h, sev_order, id, toDateTime(?, 'UTC')
FROM snapshot_findings WHERE `+carried+`
ORDER BY h, sev_order, id`,
		snap, auditTime(auditID).Unix(), prev, snap, keep.Unix()); err != nil {
		return err
	}
	err = s.conn.Exec(ctx, `INSERT INTO snapshot_findings (snapshot, sev_order, id, severity, dimension, status, resolution,
  resource_id, rule_id, resource_type, provider, account, region, text_id, evidence, first_seen_at, last_seen_at,
  resolved_at, written_at)
SELECT ?, sev_order, id, severity, dimension,
  CAST('resolved' AS Enum8('open' = 1, 'resolved' = 2)),
  if(status = 'open', 'fixed', resolution),
  resource_id, rule_id, resource_type, provider, account, region, text_id, evidence, first_seen_at, last_seen_at,
  if(status = 'open', toDateTime(?, 'UTC'), resolved_at),
  toDateTime(?, 'UTC')
FROM snapshot_findings WHERE `+carried,
		snap, at.Unix(), auditTime(auditID).Unix(), prev, snap, keep.Unix())
	if err != nil {
		return err
	}
	return s.awaitWritten(ctx, tenantID, auditID, int64(carrying))
}

// FirstSeen calls fn with the id and first sighting of each open or
// accepted finding of a snapshot, reading only those columns.
func (s *Store) FirstSeen(ctx context.Context, tenantID, auditID string, fn func(id string, at time.Time) error) (err error) {
	defer wrap(&err, "FirstSeen(%q, %q)", tenantID, auditID)
	ctx = s.scoped(ctx, tenantID, "", auditID)
	if err := checkSnapshotIDs(tenantID, auditID); err != nil {
		return err
	}
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	rows, err := s.conn.Query(ctx, `SELECT id, first_seen_at FROM snapshot_findings
WHERE snapshot = ? AND (status = 'open' OR resolution IN ('accepted_risk', 'false_positive'))`, snapshotKey(tenantID, auditID))
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var key string
		var at time.Time
		if err := rows.Scan(&key, &at); err != nil {
			return err
		}
		id, err := findingIDText(key)
		if err != nil {
			return err
		}
		if err := fn(id, fromCHTime(at)); err != nil {
			return err
		}
	}
	return rows.Err()
}

// FinalizeSnapshot counts the snapshot on the server, records its range of
// first_seen_at and writes the marker that makes it complete.
func (s *Store) FinalizeSnapshot(ctx context.Context, tenantID, auditID string) (err error) {
	defer wrap(&err, "FinalizeSnapshot(%q, %q)", tenantID, auditID)
	ctx = s.scoped(ctx, tenantID, auditID)
	if err := checkSnapshotIDs(tenantID, auditID); err != nil {
		return err
	}
	ctx, cancel := s.writeCtx(ctx)
	defer cancel()
	key := snapshotKey(tenantID, auditID)
	defer s.written.forget(key)
	if want, ok := s.written.get(key); ok {
		// AppendSnapshot and CarryForward waited for the replicas; one of
		// them may have been down then and be back behind.
		if err := s.awaitReplicas(ctx, tenantID, auditID, want); err != nil {
			return err
		}
	}
	var n uint64
	if err := s.conn.QueryRow(ctx, `SELECT count() FROM snapshot_findings WHERE snapshot = ?`, key).Scan(&n); err != nil {
		return err
	}
	at := auditTime(auditID)
	if finalizeFault != nil {
		finalizeFault("counts")
	}
	if err := s.writeCounts(ctx, tenantID, auditID, at, &snapshotCounts{overflow: true}); err != nil {
		return err
	}
	if err := s.writeFirstSeen(ctx, tenantID, auditID, at, firstSeenRange{}); err != nil {
		return err
	}
	if finalizeFault != nil {
		finalizeFault("marker")
	}
	if err := s.awaitCounts(ctx, tenantID, auditID, n); err != nil {
		return err
	}
	if err := s.insertSnapshotMarker(ctx, tenantID, auditID, n, at); err != nil {
		return err
	}
	return s.awaitComplete(ctx, tenantID, auditID, n)
}

// finalizeFault, set by tests only (SetFinalizeFault), is called by
// FinalizeSnapshot just before it inserts the counts ("counts") and right
// after ("marker", on the way to the marker): the fault drills kill a
// replica there.
var finalizeFault func(stage string)

// GetFindings returns the findings of a snapshot with the given ids that
// exist.
func (s *Store) GetFindings(ctx context.Context, tenantID, auditID string, ids []string) (out []engine.Finding, err error) {
	defer wrap(&err, "GetFindings(%q, %q, %d ids)", tenantID, auditID, len(ids))
	ctx = s.scoped(ctx, tenantID, "", auditID)
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	ids = findingIDKeys(ids)
	for len(ids) > 0 {
		chunk := ids[:min(len(ids), 1000)]
		ids = ids[len(chunk):]
		out, err = s.queryFindings(ctx, tenantID, auditID, rawQuery{
			sql:  "SELECT " + findingColumns + " FROM snapshot_findings WHERE snapshot = ? AND id IN ?",
			args: []any{snapshotKey(tenantID, auditID), groupSet(chunk)}}, out)
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// rawQuery is a query already in SQL form.
type rawQuery struct {
	sql  string
	args []any
}

func (q rawQuery) toSQL() (string, []any) { return q.sql, q.args }

// classifyChange names what a changed row means.
func classifyChange(f engine.Finding, inPrev bool, prevSev engine.Severity, prevStatus engine.FindingStatus) (engine.FindingChange, bool) {
	ch := engine.FindingChange{Finding: f, Previous: prevSev}
	switch {
	case f.Status == engine.StatusOpen && (!inPrev || prevStatus != engine.StatusOpen):
		ch.Kind = engine.EventFindingCreated
	case f.Status == engine.StatusResolved && inPrev && prevStatus == engine.StatusOpen:
		ch.Kind = engine.EventFindingResolved
	case f.Status == engine.StatusOpen && inPrev && prevSev != f.Severity:
		ch.Kind = engine.EventFindingSeverityChanged
	default:
		return ch, false
	}
	return ch, true
}
