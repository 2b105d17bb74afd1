package graph_test

import (
	"context"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
)

// TestTokenRightsFollowRoleInGraphQL (issue 28 §1): GraphQL shares REST's
// authentication, so an admin's token demoted to viewer through the path
// `fourd user create` uses loses createPolicy and startAudit at once, keeps
// its reads, and stops altogether when the user is disabled.
func TestTokenRightsFollowRoleInGraphQL(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 4})
	create := `mutation { createPolicy(input: {name: "NAME", expression: "resource.type == 'aws_s3_bucket'", effect: RAISE,
	  dimension: SECURITY, severity: HIGH, title: "Bucket"}) { id } }`
	if r := e.gql(t, e.tokA, strings.Replace(create, "NAME", "before", 1), nil); len(r.Errors) != 0 {
		t.Fatalf("admin's createPolicy: %+v", r.Errors)
	}
	ctx := context.Background()
	if _, _, err := e.ops.CreateUser(ctx, identity.CreateUserInput{TenantSlug: "acme", Email: "admin@acme.test",
		Role: engine.RoleViewer, Password: "correct horse battery staple"}); err != nil {
		t.Fatal(err)
	}
	for name, q := range map[string]string{"createPolicy": strings.Replace(create, "NAME", "after", 1), "startAudit": `mutation { startAudit { id } }`} {
		if r := e.gql(t, e.tokA, q, nil); r.code() != engine.CodeInsufficientScope {
			t.Errorf("demoted user's %s: %q %+v, want insufficient_scope", name, r.code(), r.Errors)
		}
	}
	if r := e.gql(t, e.tokA, `{ findings(first: 1) { totalCount } }`, nil); len(r.Errors) != 0 {
		t.Errorf("viewer's read: %+v", r.Errors)
	}
	if _, err := e.ops.DisableUser(ctx, "acme", "admin@acme.test"); err != nil {
		t.Fatal(err)
	}
	if r := e.gql(t, e.tokA, `{ findings(first: 1) { totalCount } }`, nil); r.status != 401 {
		t.Errorf("disabled user's token: %d %+v, want 401", r.status, r.Errors)
	}
}
