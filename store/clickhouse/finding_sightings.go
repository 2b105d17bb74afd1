package clickhouse

import (
	"context"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// sightingsQuery reads one finding's row in each of a tenant's snapshots:
// per snapshot, a point range of the primary key per severity bucket (the
// severity may differ between audits), as getFindingQuery does for one.
type sightingsQuery struct {
	tenantID string
	auditIDs []string
	id       string // stored form
}

func (q sightingsQuery) toSQL() (string, []any) {
	args := []any{q.id}
	alts := make([]string, 0, len(q.auditIDs)*numBuckets)
	for _, a := range q.auditIDs {
		for b := range numBuckets {
			alts = append(alts, "(snapshot = ? AND sev_order = ? AND id = ?)")
			args = append(args, snapshotKey(q.tenantID, a), uint8(b), q.id)
		}
	}
	return "SELECT snapshot, toString(severity), toString(status), resolution, last_seen_at FROM snapshot_findings PREWHERE id = ? WHERE " +
		strings.Join(alts, " OR "), args
}

// FindingSightings implements engine.SnapshotStore: the finding as each of
// the given completed audits of the tenant saw it (severity, status,
// resolution, last seen), for the audits whose snapshot holds it.
func (s *Store) FindingSightings(ctx context.Context, tenantID string, auditIDs []string, id string) (out []engine.Finding, err error) {
	defer wrap(&err, "FindingSightings(%q, %d audits, %q)", tenantID, len(auditIDs), id)
	ctx = s.scoped(ctx, tenantID, "", auditIDs...)
	key, ok := findingIDKey(id)
	if !ok || len(auditIDs) == 0 {
		return nil, nil
	}
	if err := checkSnapshotIDs(tenantID, auditIDs...); err != nil {
		return nil, err
	}
	bySnapshot := make(map[uint64]string, len(auditIDs))
	for _, a := range auditIDs {
		bySnapshot[snapshotKey(tenantID, a)] = a
	}
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	err = s.each(ctx, sightingsQuery{tenantID: tenantID, auditIDs: auditIDs, id: key}, func(sc scanner) error {
		var snap uint64
		var sev, status, res string
		var seen time.Time
		if err := sc.Scan(&snap, &sev, &status, &res, &seen); err != nil {
			return err
		}
		out = append(out, engine.Finding{ID: id, TenantID: tenantID, AuditID: bySnapshot[snap], Severity: engine.Severity(sev),
			Status: engine.FindingStatus(status), Resolution: engine.Resolution(res), LastSeenAt: seen.UTC()})
		return nil
	})
	return out, err
}
