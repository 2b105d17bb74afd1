package webhooks

import (
	"context"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// Without a configuration (a nil Service, or one without a Store) every use
// case answers unavailable, after the caller's scope was checked.
func TestUnconfigured(t *testing.T) {
	ctx := context.Background()
	none, err := New(Config{Secret: []byte("webhooks test secret, at least 32 bytes")})
	if err != nil {
		t.Fatal(err)
	}
	admin := engine.Principal{TenantID: "ten_1", Scopes: engine.AllScopes}
	for name, s := range map[string]*Service{"nil": nil, "no store": none} {
		_, err := s.ListWebhookEndpoints(ctx, admin, engine.PageRequest{})
		if !isCode(err, engine.CodeUnavailable) {
			t.Errorf("%s: ListWebhookEndpoints = %v, want unavailable", name, err)
		}
		_, err = s.CreateWebhookEndpoint(ctx, engine.Principal{TenantID: "ten_1", UserID: "usr_1", Scopes: []engine.Scope{engine.ScopeWebhooksRead}}, CreateWebhookEndpointInput{})
		if !isCode(err, engine.CodeInsufficientScope) {
			t.Errorf("%s: CreateWebhookEndpoint without scope = %v, want forbidden", name, err)
		}
	}
	if _, err := New(Config{Secret: []byte("short")}); err == nil {
		t.Error("New with a short secret: no error")
	}
}

func isCode(err error, code string) bool { return engine.ErrorCode(err) == code }
