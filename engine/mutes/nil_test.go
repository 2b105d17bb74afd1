package mutes

import (
	"context"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// TestNilServiceIsUnavailable: an adapter given no mute rules service
// answers every mute rule use case unavailable, never a panic.
func TestNilServiceIsUnavailable(t *testing.T) {
	var s *Service
	ctx := context.Background()
	p := engine.Principal{TenantID: "ten_a", Scopes: []engine.Scope{engine.ScopeFindingsRead, engine.ScopeFindingsWrite}}
	calls := map[string]func() error{
		"CreateMuteRule": func() error { _, err := s.CreateMuteRule(ctx, p, engine.MuteRuleInput{}); return err },
		"UpdateMuteRule": func() error { _, err := s.UpdateMuteRule(ctx, p, "mut_x", engine.MuteRuleInput{}); return err },
		"DeleteMuteRule": func() error { return s.DeleteMuteRule(ctx, p, "mut_x") },
		"GetMuteRule":    func() error { _, err := s.GetMuteRule(ctx, p, "mut_x"); return err },
		"ListMuteRules":  func() error { _, err := s.ListMuteRules(ctx, p, engine.PageRequest{}); return err },
		"ListMuteRuleHistory": func() error {
			_, err := s.ListMuteRuleHistory(ctx, p, "mut_x", engine.PageRequest{})
			return err
		},
		"DryRunMuteRule": func() error { _, err := s.DryRunMuteRule(ctx, p, "true", 0); return err },
	}
	for name, call := range calls {
		if code := engine.ErrorCode(call()); code != engine.CodeUnavailable {
			t.Errorf("%s on a nil Service: code %q, want unavailable", name, code)
		}
	}
}
