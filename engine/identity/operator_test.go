package identity

import (
	"context"
	"reflect"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// TestOperatorOnly keeps the operator-only actions off the Service that rest
// and graph hold: an API adapter cannot issue a token, create or disable a
// user or register a client without a Principal, by mistake or otherwise.
func TestOperatorOnly(t *testing.T) {
	ops := reflect.TypeFor[*Operator]()
	svc := reflect.TypeFor[*Service]()
	for _, name := range []string{"IssueToken", "CreateUser", "DisableUser", "RegisterOAuthClient", "RevokeToken", "ListTokens", "Principal"} {
		if _, ok := ops.MethodByName(name); !ok {
			t.Errorf("Operator has no %s", name)
		}
	}
	for _, name := range []string{"IssueToken", "CreateUser", "DisableUser", "RegisterOAuthClient", "RevokeTokenByOperator", "ListTokensByOperator", "Principal"} {
		if _, ok := svc.MethodByName(name); ok {
			t.Errorf("Service has the operator-only %s", name)
		}
	}
	// The Service's RevokeToken and ListTokens are the API's: they take the
	// caller's Principal.
	for _, name := range []string{"RevokeToken", "ListTokens"} {
		m, _ := svc.MethodByName(name)
		if m.Type.NumIn() < 3 || m.Type.In(2).String() != "engine.Principal" {
			t.Errorf("Service.%s does not take a Principal: %v", name, m.Type)
		}
	}
}

// The command line's principal is the tenant's (created when missing), with
// every scope, as the operator; a missing slug is refused.
func TestOperatorPrincipal(t *testing.T) {
	env := newTestEnv(t)
	p, err := env.ops.Principal(context.Background(), "acme")
	if err != nil {
		t.Fatal(err)
	}
	want := engine.Principal{TenantID: engine.DerivedID(engine.PrefixTenant, "acme"), UserID: OperatorUserID, Scopes: engine.AllScopes}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("Principal = %+v, want %+v", p, want)
	}
	if _, err := env.ops.Principal(context.Background(), ""); engine.ErrorCode(err) != engine.CodeValidationFailed {
		t.Errorf("Principal without a slug: %v, want validation_failed", err)
	}
}
