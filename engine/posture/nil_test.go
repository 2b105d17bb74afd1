package posture

import (
	"context"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// TestNilServiceIsUnavailable: an adapter given no compliance service
// answers every posture use case unavailable, never a panic, and an audit
// wired without one records nothing.
func TestNilServiceIsUnavailable(t *testing.T) {
	var s *Service
	ctx := context.Background()
	p := engine.Principal{TenantID: "ten_a", Scopes: []engine.Scope{engine.ScopeFindingsRead}}
	calls := map[string]func() error{
		"ComplianceFrameworks": func() error { _, err := s.ComplianceFrameworks(ctx, p, engine.ComplianceQuery{}); return err },
		"ComplianceFramework": func() error {
			_, err := s.ComplianceFramework(ctx, p, "CIS-AWS-4.0.1", engine.ComplianceControlQuery{})
			return err
		},
		"ComplianceTrend": func() error { _, err := s.ComplianceTrend(ctx, p, "CIS-AWS-4.0.1", engine.PageRequest{}); return err },
	}
	for name, call := range calls {
		if code := engine.ErrorCode(call()); code != engine.CodeUnavailable {
			t.Errorf("%s on a nil Service: code %q, want unavailable", name, code)
		}
	}
	var o *Operator
	o.RecordCompliancePosture(ctx, engine.Audit{ID: "aud_x", TenantID: "ten_a"})
	(&Operator{s}).RecordCompliancePosture(ctx, engine.Audit{ID: "aud_x", TenantID: "ten_a"})
}
