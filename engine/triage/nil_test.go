package triage

import (
	"context"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// TestNilServiceIsUnavailable: an adapter given no triage service answers
// every use case unavailable, never a panic; a caller without the scope is
// refused first.
func TestNilServiceIsUnavailable(t *testing.T) {
	var s *Service
	ctx := context.Background()
	update := engine.FindingUpdate{Status: engine.StatusInProgress}
	calls := map[string]struct {
		scope engine.Scope
		call  func(engine.Principal) error
	}{
		"UpdateFinding": {engine.ScopeFindingsWrite, func(p engine.Principal) error {
			_, err := s.UpdateFinding(ctx, p, "fnd_x", update)
			return err
		}},
		"BulkUpdateFindings": {engine.ScopeFindingsWrite, func(p engine.Principal) error {
			_, err := s.BulkUpdateFindings(ctx, p, engine.BulkFindingUpdate{IDs: []string{"fnd_x"}, Update: update})
			return err
		}},
		"ListFindingActivity": {engine.ScopeFindingsRead, func(p engine.Principal) error {
			_, _, err := s.ListFindingActivity(ctx, p, "fnd_x", engine.PageRequest{})
			return err
		}},
	}
	for name, c := range calls {
		if code := engine.ErrorCode(c.call(engine.Principal{TenantID: "ten_a", Scopes: []engine.Scope{c.scope}})); code != engine.CodeUnavailable {
			t.Errorf("%s on a nil Service: code %q, want unavailable", name, code)
		}
		if code := engine.ErrorCode(c.call(engine.Principal{TenantID: "ten_a"})); code != engine.CodeInsufficientScope {
			t.Errorf("%s without %s: code %q, want insufficient_scope", name, c.scope, code)
		}
	}
	if _, err := New(Config{Secret: []byte(strings.Repeat("k", 32))}); err == nil {
		t.Error("New without Reads: no error")
	}
}

// panicReads is a Reads no call may reach.
type panicReads struct{ Reads }

// TestNoDecisionsIsUnavailable: without a Decisions store the updates
// answer unavailable before reading anything.
func TestNoDecisionsIsUnavailable(t *testing.T) {
	s, err := New(Config{Reads: panicReads{}, Secret: []byte(strings.Repeat("k", 32))})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p := engine.Principal{TenantID: "ten_a", Scopes: engine.AllScopes}
	update := engine.FindingUpdate{Status: engine.StatusInProgress}
	_, errOne := s.UpdateFinding(ctx, p, "fnd_x", update)
	_, errBulk := s.BulkUpdateFindings(ctx, p, engine.BulkFindingUpdate{IDs: []string{"fnd_x"}, Update: update})
	for name, err := range map[string]error{"UpdateFinding": errOne, "BulkUpdateFindings": errBulk} {
		if code := engine.ErrorCode(err); code != engine.CodeUnavailable {
			t.Errorf("%s without Decisions: code %q, want unavailable", name, code)
		}
	}
}
