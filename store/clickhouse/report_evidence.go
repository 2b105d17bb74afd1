package clickhouse

import (
	"context"
	"encoding/json"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/jsonvalid"
)

// maxEvidenceIDs bounds the finding ids of one evidence read (the IN list).
const maxEvidenceIDs = 5000

// AffectedEvidence implements reporting.Analytics: the findings'
// evidence from the scope's snapshot, a bounded batch of ids at a time,
// then the resources' last sightings and capture times.
func (s *Store) AffectedEvidence(ctx context.Context, scope engine.ReportScope, rows []engine.AffectedResource) (err error) {
	defer wrap(&err, "AffectedEvidence(%q, %q, %d rows)", scope.TenantID, scope.AuditID, len(rows))
	ctx = s.scoped(ctx, scope.TenantID, "", scope.AuditID)
	if len(rows) == 0 {
		return nil
	}
	if err := checkSnapshotIDs(scope.TenantID, scope.AuditID); err != nil {
		return err
	}
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	byFinding := map[string][]int{}
	byResource := map[string][]int{}
	var findings, resources []string
	for i, r := range rows {
		if _, ok := byFinding[r.FindingID]; !ok {
			findings = append(findings, r.FindingID)
		}
		byFinding[r.FindingID] = append(byFinding[r.FindingID], i)
		if _, ok := byResource[r.ResourceID]; !ok {
			resources = append(resources, r.ResourceID)
		}
		byResource[r.ResourceID] = append(byResource[r.ResourceID], i)
	}
	for lo := 0; lo < len(findings); lo += maxEvidenceIDs {
		keys := findingIDKeys(findings[lo:min(lo+maxEvidenceIDs, len(findings))])
		if len(keys) == 0 {
			continue
		}
		q := evidenceQuery{tenantID: scope.TenantID, auditID: scope.AuditID, keys: keys}
		err := s.each(ctx, q, func(sc scanner) error {
			var key, evidence string
			if err := sc.Scan(&key, &evidence); err != nil {
				return err
			}
			id, err := findingIDText(key)
			if err != nil {
				return err
			}
			for _, i := range byFinding[id] {
				if evidence != "" && jsonvalid.Valid([]byte(evidence)) {
					rows[i].Evidence = json.RawMessage(evidence)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	rs, err := s.GetResourcesPartial(ctx, scope.TenantID, resources, engine.ResourceFields{LastSeen: true, CapturedAt: true})
	if err != nil {
		return err
	}
	for _, r := range rs {
		var seen, captured *time.Time
		if !r.LastSeenAt.IsZero() {
			at := r.LastSeenAt.UTC()
			seen = &at
		}
		if r.CapturedAt != nil {
			at := r.CapturedAt.UTC()
			captured = &at
		}
		for _, i := range byResource[r.ID] {
			rows[i].ObservedAt, rows[i].CapturedAt = seen, captured
		}
	}
	return nil
}

// evidenceQuery reads the evidence of some findings of one snapshot.
type evidenceQuery struct {
	tenantID, auditID string
	keys              []string
}

func (q evidenceQuery) toSQL() (string, []any) {
	var c conds
	addSnapshot(&c, q.tenantID, q.auditID)
	c.add("id IN ?", groupSet(q.keys))
	return "SELECT id, any(evidence) FROM snapshot_findings WHERE " + c.sql() + " GROUP BY id", c.args
}
