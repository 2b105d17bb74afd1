package identity

import (
	"context"

	"github.com/fourd-dev/fourd/engine"
)

// OperatorUserID is the UserID of the principal the command line acts as
// (Operator.Principal): what audits it requests record as RequestedBy.
const OperatorUserID = "operator"

// Principal returns the principal the command line acts as in the tenant
// with the slug, creating the tenant when missing: every scope, as the
// operator of this machine, who is trusted as the database is. Only
// cmd/fourd holds an Operator, so no API adapter can obtain one.
func (o *Operator) Principal(ctx context.Context, tenantSlug string) (engine.Principal, error) {
	if tenantSlug == "" {
		return engine.Principal{}, engine.FieldErrorf("tenant", "tenant is required")
	}
	ten, err := o.s.cfg.Tenants.EnsureTenant(ctx, tenantSlug, tenantSlug)
	if err != nil {
		return engine.Principal{}, err
	}
	return engine.Principal{TenantID: ten.ID, UserID: OperatorUserID, Scopes: engine.AllScopes}, nil
}
