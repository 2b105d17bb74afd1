package engine

import (
	"slices"
	"time"
)

// Scope is a permission on one collection and verb.
type Scope string

// Scopes, per collection and verb.
const (
	ScopeFindingsRead   Scope = "findings:read"
	ScopeFindingsWrite  Scope = "findings:write"
	ScopeResourcesRead  Scope = "resources:read"
	ScopeResourcesWrite Scope = "resources:write"
	ScopeAuditsRead     Scope = "audits:read"
	ScopeAuditsWrite    Scope = "audits:write"
	ScopePoliciesRead   Scope = "policies:read"
	ScopePoliciesWrite  Scope = "policies:write"
	ScopeReportsRead    Scope = "reports:read"
	ScopeReportsWrite   Scope = "reports:write"
	ScopeWebhooksRead   Scope = "webhooks:read"
	ScopeWebhooksWrite  Scope = "webhooks:write"
	ScopeTokensWrite    Scope = "tokens:write"
)

// AllScopes lists every scope.
var AllScopes = []Scope{ScopeFindingsRead, ScopeFindingsWrite, ScopeResourcesRead, ScopeResourcesWrite,
	ScopeAuditsRead, ScopeAuditsWrite, ScopePoliciesRead, ScopePoliciesWrite, ScopeReportsRead,
	ScopeReportsWrite, ScopeWebhooksRead, ScopeWebhooksWrite, ScopeTokensWrite}

// Role is a user's role in a tenant; it bounds the scopes of their tokens.
type Role string

// Roles.
const (
	RoleAdmin  Role = "admin"
	RoleMember Role = "member"
	RoleViewer Role = "viewer"
)

// Roles lists the roles.
var Roles = []Role{RoleAdmin, RoleMember, RoleViewer}

// Scopes returns the scopes a role may grant.
func (r Role) Scopes() []Scope {
	switch r {
	case RoleAdmin:
		return AllScopes
	case RoleMember:
		return slices.DeleteFunc(slices.Clone(AllScopes), func(s Scope) bool { return s == ScopeTokensWrite })
	case RoleViewer:
		var out []Scope
		for _, s := range AllScopes {
			if len(s) > 5 && s[len(s)-5:] == ":read" {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// Principal is an authenticated caller: the tenant it acts in, who it is and
// what it may do. Every Service method takes one and checks it.
type Principal struct {
	TenantID string
	UserID   string
	TokenID  string // pat_… or an OAuth access token id
	Scopes   []Scope
	// RateLimit is requests per minute for this credential; 0 means default.
	RateLimit int
}

// Authenticated reports whether p identifies a caller.
func (p Principal) Authenticated() bool { return p.TenantID != "" }

// Require checks that p is authenticated and holds scope.
func (p Principal) Require(scope Scope) error {
	if !p.Authenticated() {
		return Errorf(CodeUnauthorized, "authentication required")
	}
	if !slices.Contains(p.Scopes, scope) {
		return Errorf(CodeInsufficientScope, "this token lacks the %s scope", scope)
	}
	return nil
}

// Tenant is one customer's environment.
type Tenant struct {
	ID        string    `json:"id"`
	Slug      string    `json:"slug"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
}

// User is a person in a tenant.
type User struct {
	ID           string    `json:"id"`
	TenantID     string    `json:"-"`
	Email        string    `json:"email"`
	Role         Role      `json:"role"`
	PasswordHash string    `json:"-"`
	CreatedAt    time.Time `json:"created_at"`
	// DisabledAt is when an operator disabled the user (nil: active). A
	// disabled user cannot sign in and none of their tokens works.
	DisabledAt *time.Time `json:"disabled_at,omitempty"`
}

// Token is a personal access token. Only its hash is stored; the secret is
// shown once, at creation.
type Token struct {
	ID         string     `json:"id"`
	TenantID   string     `json:"-"`
	UserID     string     `json:"user_id"`
	Name       string     `json:"name"`
	Hash       string     `json:"-"`
	Scopes     []Scope    `json:"scopes"`
	RateLimit  int        `json:"rate_limit,omitempty"`
	CreatedAt  time.Time  `json:"created_at"`
	ExpiresAt  *time.Time `json:"expires_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	RevokedAt  *time.Time `json:"revoked_at"`
	// UserRole is the role the token's user has now, read with the token
	// by TenantStore.GetTokenByHash; empty when the user is disabled or
	// gone. The token's effective scopes are Scopes within this role's.
	UserRole Role `json:"-"`
}

// EffectiveScopes returns the scopes of granted that role allows now, in
// granted's order: what a token may do is bounded by its user's current
// role on every request, not by the role the user had when it was issued.
// An empty role (a disabled user) allows nothing.
func EffectiveScopes(granted []Scope, role Role) []Scope {
	allowed := role.Scopes()
	out := make([]Scope, 0, len(granted))
	for _, sc := range granted {
		if slices.Contains(allowed, sc) {
			out = append(out, sc)
		}
	}
	return out
}
