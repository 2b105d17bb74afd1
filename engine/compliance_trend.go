package engine

import (
	"context"
	"time"
)

// The compliance trend: each audit's posture per framework, recorded when
// the audit completes (with the decisions people had made by then), so
// that a trend is one indexed read rather than one judgement per audit.
// Audits completed before the posture was recorded (or whose recording
// failed) have no point: the trend says nothing of them rather than
// recomputing them from snapshots that may be gone.

// CompliancePostureStore keeps the postures recorded for the trend
// (store/postgres).
type CompliancePostureStore interface {
	// PutCompliancePostures records the posture of each framework for one
	// completed audit (AuditID and AuditCompletedAt set), replacing what
	// was recorded for that audit. A posture of an audit the store does
	// not hold (deleted meanwhile) is not recorded.
	PutCompliancePostures(ctx context.Context, tenantID string, postures []CompliancePosture) error
	// ListCompliancePostures returns the recorded postures of one
	// framework, newest audit first (by completion time, then audit id),
	// after q.After when set, at most q.Limit.
	ListCompliancePostures(ctx context.Context, q CompliancePostureQuery) ([]CompliancePosture, error)
}

// CompliancePostureQuery selects recorded postures of one framework.
type CompliancePostureQuery struct {
	TenantID    string
	FrameworkID string
	After       *TrendKey // the last point of the previous page
	Limit       int
}

// TrendKey is a point's position in a trend: its audit's completion time
// and id.
type TrendKey struct {
	At      time.Time `json:"t"`
	AuditID string    `json:"a"`
}

// recordCompliancePosture judges every framework against audit a, just
// completed, and records the postures for the trend. It is best effort: a
// failure is logged and the audit stays completed; its point is missing
// from the trend.
func (s *Service) recordCompliancePosture(ctx context.Context, a Audit) {
	if s.cfg.CompliancePostures == nil || s.cfg.Reporting.Analytics == nil || s.cfg.Reporting.Catalog == nil {
		return
	}
	start := time.Now()
	err := func() error {
		facts, err := s.tenantPostureFacts(ctx, a.TenantID, a)
		if err != nil {
			return err
		}
		fws := s.cfg.Reporting.Catalog.Frameworks()
		out := make([]CompliancePosture, 0, len(fws))
		for _, fw := range fws {
			p, _ := facts.judgeFramework(fw)
			out = append(out, p)
		}
		return s.cfg.CompliancePostures.PutCompliancePostures(ctx, a.TenantID, out)
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
func (s *Service) ComplianceTrend(ctx context.Context, p Principal, id string, pr PageRequest) (Page[CompliancePosture], error) {
	var out Page[CompliancePosture]
	if err := s.complianceReady(p); err != nil {
		return out, err
	}
	if s.cfg.CompliancePostures == nil {
		return out, Errorf(CodeUnavailable, "the compliance trend is not configured on this server")
	}
	fw, err := s.catalogFramework(id)
	if err != nil {
		return out, err
	}
	limit, err := pr.limit()
	if err != nil {
		return out, err
	}
	q := CompliancePostureQuery{TenantID: p.TenantID, FrameworkID: fw.ID, Limit: limit + 1}
	scope := trendScope(fw.ID)
	if pr.Cursor != "" {
		var k TrendKey
		if err := s.cursors.decode(pr.Cursor, p.TenantID, scope, &k); err != nil {
			return out, err
		}
		q.After = &k
	}
	got, err := s.cfg.CompliancePostures.ListCompliancePostures(ctx, q)
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
		out.Items = []CompliancePosture{}
	}
	return out, nil
}

// trendScope binds a trend cursor to its framework.
func trendScope(frameworkID string) string { return "compliance_trend|" + fingerprint(frameworkID) }

// ComplianceTrendCursor returns the cursor after a point of a framework's
// trend (the edges of a GraphQL connection).
func (s *Service) ComplianceTrendCursor(p Principal, point CompliancePosture) string {
	k := TrendKey{AuditID: point.AuditID}
	if point.AuditCompletedAt != nil {
		k.At = *point.AuditCompletedAt
	}
	return s.cursors.encode(p.TenantID, trendScope(point.ID), k)
}
