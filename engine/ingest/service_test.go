package ingest

import (
	"context"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// A nil Service (an API without inventory intake) answers unavailable once
// the caller's scope is checked; New refuses a configuration without a
// resource store.
func TestUnconfigured(t *testing.T) {
	var s *Service
	writer := engine.Principal{TenantID: "ten_a", Scopes: []engine.Scope{engine.ScopeResourcesWrite}}
	if _, err := s.IngestResources(context.Background(), writer, items()); engine.ErrorCode(err) != engine.CodeUnavailable {
		t.Errorf("nil Service: %v, want unavailable", err)
	}
	reader := engine.Principal{TenantID: "ten_a", Scopes: []engine.Scope{engine.ScopeResourcesRead}}
	if _, err := s.IngestResources(context.Background(), reader, items()); engine.ErrorCode(err) != engine.CodeInsufficientScope {
		t.Errorf("nil Service, read-only token: %v, want insufficient_scope", err)
	}
	if _, err := New(Config{}); err == nil {
		t.Error("New without Resources: no error")
	}
}
