package posture

import (
	"context"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Operator is the judge's principal-less side: recording the posture of a
// just-completed audit, which engine/audit calls as its PostureRecorder.
// Only New returns one (cmd/fourd wires it into the audit service), so no
// API adapter holding the Service can record a posture.
type Operator struct{ s *Service }

// RecordCompliancePosture judges every framework against audit a, just
// completed, and records the postures for the trend. It is best effort: a
// failure is logged and the audit stays completed; its point is missing
// from the trend. A nil Operator records nothing.
func (o *Operator) RecordCompliancePosture(ctx context.Context, a engine.Audit) {
	if o == nil {
		return
	}
	o.s.recordCompliancePosture(ctx, a)
}

// recordCompliancePosture is RecordCompliancePosture.
func (s *Service) recordCompliancePosture(ctx context.Context, a engine.Audit) {
	if s == nil || s.cfg.Postures == nil || s.cfg.Types == nil || s.cfg.Catalog == nil {
		return
	}
	start := time.Now()
	err := func() error {
		facts, err := s.tenantFacts(ctx, a.TenantID, a)
		if err != nil {
			return err
		}
		fws := s.cfg.Catalog.Frameworks()
		out := make([]engine.CompliancePosture, 0, len(fws))
		for _, fw := range fws {
			p, _ := facts.JudgeFramework(fw)
			out = append(out, p)
		}
		return s.cfg.Postures.PutCompliancePostures(ctx, a.TenantID, out)
	}()
	if err != nil {
		s.log.WarnContext(ctx, "recording the compliance posture failed; the audit has no trend point", "audit_id", a.ID, "error", err)
		return
	}
	s.log.InfoContext(ctx, "compliance posture recorded", "audit_id", a.ID, "elapsed", time.Since(start))
}

// ComplianceTrend returns the posture of one framework as recorded at the
// completion of each audit, newest first, a page at a time. Errors:
// not_found (framework), invalid_limit, invalid_cursor, unavailable.
func (s *Service) ComplianceTrend(ctx context.Context, p engine.Principal, id string, pr engine.PageRequest) (engine.Page[engine.CompliancePosture], error) {
	var out engine.Page[engine.CompliancePosture]
	if err := s.complianceReady(p); err != nil {
		return out, err
	}
	if s.cfg.Postures == nil {
		return out, engine.Errorf(engine.CodeUnavailable, "the compliance trend is not configured on this server")
	}
	fw, err := s.catalogFramework(id)
	if err != nil {
		return out, err
	}
	limit, err := pr.PageSize()
	if err != nil {
		return out, err
	}
	q := engine.CompliancePostureQuery{TenantID: p.TenantID, FrameworkID: fw.ID, Limit: limit + 1}
	scope := trendScope(fw.ID)
	if pr.Cursor != "" {
		var k engine.TrendKey
		if err := s.cursors.Decode(pr.Cursor, p.TenantID, scope, &k); err != nil {
			return out, err
		}
		q.After = &k
	}
	got, err := s.cfg.Postures.ListCompliancePostures(ctx, q)
	if err != nil {
		return out, err
	}
	if len(got) > limit {
		got, out.HasMore = got[:limit], true
		out.NextCursor = s.ComplianceTrendCursor(p, got[limit-1])
	}
	for i := range got {
		// The recorded row holds the counts; the catalog the names.
		got[i].Name, got[i].Version, got[i].ScorePercent = fw.Title, fw.Version, got[i].Counts.ScorePercent()
	}
	out.Items = got
	if out.Items == nil {
		out.Items = []engine.CompliancePosture{}
	}
	return out, nil
}

// trendScope binds a trend cursor to its framework.
func trendScope(frameworkID string) string {
	return "compliance_trend|" + engine.Fingerprint(frameworkID)
}

// ComplianceTrendCursor returns the cursor after a point of a framework's
// trend (the edges of a GraphQL connection).
func (s *Service) ComplianceTrendCursor(p engine.Principal, point engine.CompliancePosture) string {
	k := engine.TrendKey{AuditID: point.AuditID}
	if point.AuditCompletedAt != nil {
		k.At = *point.AuditCompletedAt
	}
	return s.cursors.Encode(p.TenantID, trendScope(point.ID), k)
}
