package rest

import (
	"context"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// The control-store wrappers of InstrumentStores (see storemetrics.go).

type tenantStore struct {
	s engine.TenantStore
	m *storeMetrics
}

func (w tenantStore) Ping(ctx context.Context) error { return ping(ctx, w.s) }

func (w tenantStore) EnsureTenant(ctx context.Context, slug, name string) (out engine.Tenant, err error) {
	defer func(t time.Time) { w.m.observe("tenants", "EnsureTenant", t, err) }(time.Now())
	return w.s.EnsureTenant(ctx, slug, name)
}

func (w tenantStore) GetTenantBySlug(ctx context.Context, slug string) (out engine.Tenant, err error) {
	defer func(t time.Time) { w.m.observe("tenants", "GetTenantBySlug", t, err) }(time.Now())
	return w.s.GetTenantBySlug(ctx, slug)
}

func (w tenantStore) EnsureUser(ctx context.Context, tenantID, email string, role engine.Role) (out engine.User, err error) {
	defer func(t time.Time) { w.m.observe("tenants", "EnsureUser", t, err) }(time.Now())
	return w.s.EnsureUser(ctx, tenantID, email, role)
}

func (w tenantStore) CreateToken(ctx context.Context, tok engine.Token) (err error) {
	defer func(t time.Time) { w.m.observe("tenants", "CreateToken", t, err) }(time.Now())
	return w.s.CreateToken(ctx, tok)
}

func (w tenantStore) GetTokenByHash(ctx context.Context, hash string) (out engine.Token, err error) {
	defer func(t time.Time) { w.m.observe("tenants", "GetTokenByHash", t, err) }(time.Now())
	return w.s.GetTokenByHash(ctx, hash)
}

func (w tenantStore) TouchToken(ctx context.Context, id string, at time.Time) (err error) {
	defer func(t time.Time) { w.m.observe("tenants", "TouchToken", t, err) }(time.Now())
	return w.s.TouchToken(ctx, id, at)
}

func (w tenantStore) ListTokens(ctx context.Context, tenantID, userID string) (out []engine.Token, err error) {
	defer func(t time.Time) { w.m.observe("tenants", "ListTokens", t, err) }(time.Now())
	return w.s.ListTokens(ctx, tenantID, userID)
}

func (w tenantStore) RevokeToken(ctx context.Context, tenantID, id string, at time.Time) (err error) {
	defer func(t time.Time) { w.m.observe("tenants", "RevokeToken", t, err) }(time.Now())
	return w.s.RevokeToken(ctx, tenantID, id, at)
}

type auditStore struct {
	s engine.AuditStore
	m *storeMetrics
}

func (w auditStore) CreateAudit(ctx context.Context, a engine.Audit) (err error) {
	defer func(t time.Time) { w.m.observe("audits", "CreateAudit", t, err) }(time.Now())
	return w.s.CreateAudit(ctx, a)
}

func (w auditStore) GetAudit(ctx context.Context, tenantID, id string) (out engine.Audit, err error) {
	defer func(t time.Time) { w.m.observe("audits", "GetAudit", t, err) }(time.Now())
	return w.s.GetAudit(ctx, tenantID, id)
}

func (w auditStore) LatestCompletedAudit(ctx context.Context, tenantID string) (out engine.Audit, err error) {
	defer func(t time.Time) { w.m.observe("audits", "LatestCompletedAudit", t, err) }(time.Now())
	return w.s.LatestCompletedAudit(ctx, tenantID)
}

func (w auditStore) ListAudits(ctx context.Context, q engine.AuditQuery) (out []engine.Audit, err error) {
	defer func(t time.Time) { w.m.observe("audits", "ListAudits", t, err) }(time.Now())
	return w.s.ListAudits(ctx, q)
}

func (w auditStore) UpdateAudit(ctx context.Context, a engine.Audit) (err error) {
	defer func(t time.Time) { w.m.observe("audits", "UpdateAudit", t, err) }(time.Now())
	return w.s.UpdateAudit(ctx, a)
}

type policyStore struct {
	s engine.PolicyStore
	m *storeMetrics
}

func (w policyStore) GetPolicy(ctx context.Context, tenantID, id string) (out engine.Policy, err error) {
	defer func(t time.Time) { w.m.observe("policies", "GetPolicy", t, err) }(time.Now())
	return w.s.GetPolicy(ctx, tenantID, id)
}

func (w policyStore) ListPolicies(ctx context.Context, q engine.PolicyQuery) (out []engine.Policy, err error) {
	defer func(t time.Time) { w.m.observe("policies", "ListPolicies", t, err) }(time.Now())
	return w.s.ListPolicies(ctx, q)
}

type reportStore struct {
	s engine.ReportStore
	m *storeMetrics
}

func (w reportStore) GetReport(ctx context.Context, tenantID, id string) (out engine.Report, err error) {
	defer func(t time.Time) { w.m.observe("reports", "GetReport", t, err) }(time.Now())
	return w.s.GetReport(ctx, tenantID, id)
}

func (w reportStore) ListReports(ctx context.Context, q engine.ReportQuery) (out []engine.Report, err error) {
	defer func(t time.Time) { w.m.observe("reports", "ListReports", t, err) }(time.Now())
	return w.s.ListReports(ctx, q)
}
