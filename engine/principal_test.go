package engine

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRoleScopes(t *testing.T) {
	if len(RoleAdmin.Scopes()) != len(AllScopes) {
		t.Error("admin lacks scopes")
	}
	if slices.Contains(RoleMember.Scopes(), ScopeTokensWrite) || !slices.Contains(RoleMember.Scopes(), ScopeFindingsWrite) {
		t.Errorf("member scopes: %v", RoleMember.Scopes())
	}
	for _, s := range RoleViewer.Scopes() {
		if !strings.HasSuffix(string(s), ":read") {
			t.Errorf("viewer has %s", s)
		}
	}
}

func TestEffectiveScopes(t *testing.T) {
	granted := []Scope{ScopeTokensWrite, ScopeFindingsRead, ScopePoliciesWrite, ScopeAuditsRead}
	cases := []struct {
		role Role
		want []Scope
	}{
		{RoleAdmin, granted},
		{RoleMember, []Scope{ScopeFindingsRead, ScopePoliciesWrite, ScopeAuditsRead}},
		{RoleViewer, []Scope{ScopeFindingsRead, ScopeAuditsRead}},
		{"", []Scope{}},
	}
	for _, c := range cases {
		if diff := cmp.Diff(c.want, EffectiveScopes(granted, c.role)); diff != "" {
			t.Errorf("EffectiveScopes(%q) (-want +got):\n%s", c.role, diff)
		}
	}
}

// TestScopeWords checks that every scope is said in words on the consent
// page.
func TestScopeWords(t *testing.T) {
	for _, sc := range AllScopes {
		if w := sc.Words(); w == string(sc) || w == "" {
			t.Errorf("scope %s has no words", sc)
		}
	}
}
