// Package enginetest holds the in-memory fakes of the store interfaces that
// engine's concern packages (findings, identity, ingest) use in their unit
// tests, one copy of each. The stores themselves are tested against real
// servers (store/clickhouse/chtest, store/postgres/pgtest).
package enginetest

import (
	"bytes"
	"cmp"
	"context"
	"iter"
	"slices"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Findings is an engine.FindingStore in memory; it filters by severity,
// dimension and status only.
type Findings struct{ Rows []engine.Finding }

// FindingLess is the findings order: most severe first, then by id.
func FindingLess(a, b engine.Finding) int {
	if c := cmp.Compare(b.Severity.Rank(), a.Severity.Rank()); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

// match reports whether x is tenant's, of flt's audit, and passes its
// severity, dimension and status.
func (f *Findings) match(tenant string, flt engine.FindingFilter, x engine.Finding) bool {
	return x.TenantID == tenant && x.AuditID == flt.AuditID &&
		(flt.Severity == "" || x.Severity == flt.Severity) &&
		(flt.Dimension == "" || x.Dimension == flt.Dimension) &&
		(flt.Status == "" || x.Status == flt.Status)
}

// ListFindings implements the store method of that name in memory.
func (f *Findings) ListFindings(_ context.Context, q engine.FindingQuery) ([]engine.Finding, error) {
	rows := slices.Clone(f.Rows)
	slices.SortFunc(rows, FindingLess)
	var out []engine.Finding
	for _, x := range rows {
		if !f.match(q.TenantID, q.Filter, x) {
			continue
		}
		if q.After != nil && FindingLess(x, engine.Finding{Severity: engine.SeverityFromRank(q.After.SeverityRank), ID: q.After.ID}) <= 0 {
			continue
		}
		if out = append(out, x); len(out) == q.Limit {
			break
		}
	}
	return out, nil
}

// GetFinding implements the store method of that name in memory.
func (f *Findings) GetFinding(_ context.Context, tenant, audit, id string) (engine.Finding, error) {
	for _, x := range f.Rows {
		if x.TenantID == tenant && x.AuditID == audit && x.ID == id {
			return x, nil
		}
	}
	return engine.Finding{}, engine.ErrNotFound("finding", id)
}

// CountFindings implements the store method of that name in memory.
func (f *Findings) CountFindings(_ context.Context, q engine.FindingCountQuery) ([]engine.FindingCount, error) {
	counts := map[string]*engine.FindingCount{}
	var keys []string
	for _, x := range f.Rows {
		if !f.match(q.TenantID, q.Filter, x) {
			continue
		}
		key := map[engine.GroupBy]string{}
		var parts []string
		for _, g := range q.GroupBy {
			v := map[engine.GroupBy]string{engine.GroupBySeverity: string(x.Severity), engine.GroupByDimension: string(x.Dimension)}[g]
			key[g] = v
			parts = append(parts, v)
		}
		k := strings.Join(parts, "|")
		if counts[k] == nil {
			counts[k] = &engine.FindingCount{Key: key}
			keys = append(keys, k)
		}
		counts[k].Count++
	}
	slices.Sort(keys)
	var out []engine.FindingCount
	for _, k := range keys {
		out = append(out, *counts[k])
	}
	return out, nil
}

// WriteSnapshot implements the store method of that name in memory.
func (f *Findings) WriteSnapshot(_ context.Context, tenant, audit string, src iter.Seq2[engine.Finding, error]) (int64, error) {
	var n int64
	for x, err := range src {
		if err != nil {
			return n, err
		}
		x.TenantID, x.AuditID = tenant, audit
		f.Rows = append(f.Rows, x)
		n++
	}
	return n, nil
}

// Tenants is an engine.TenantStore in memory: tenants and users derived
// from their names, tokens in a slice.
type Tenants struct {
	Tokens  []engine.Token
	Touched int                    // TouchToken calls
	Roles   map[string]engine.Role // user id → role now ("" or missing: disabled)
}

// Control is the control store in memory: audits, tenants and tokens (no
// policy is ever found), the PostgreSQL side a read path needs.
type Control struct {
	Tenants
	AuditList
}

// AuditList is an audit store in memory.
type AuditList struct {
	Audits []engine.Audit
}

// CreateAudit implements the store method of that name in memory.
func (c *AuditList) CreateAudit(_ context.Context, a engine.Audit) error {
	c.Audits = append(c.Audits, a)
	return nil
}

// GetAudit implements the store method of that name in memory.
func (c *AuditList) GetAudit(_ context.Context, tenant, id string) (engine.Audit, error) {
	for _, a := range c.Audits {
		if a.TenantID == tenant && a.ID == id {
			return a, nil
		}
	}
	return engine.Audit{}, engine.ErrNotFound("audit", id)
}

// LatestCompletedAudit implements the store method of that name in memory.
func (c *AuditList) LatestCompletedAudit(_ context.Context, tenant string) (engine.Audit, error) {
	var best *engine.Audit
	for i, a := range c.Audits {
		if a.TenantID == tenant && a.Status == engine.AuditCompleted && (best == nil || a.CompletedAt.After(*best.CompletedAt)) {
			best = &c.Audits[i]
		}
	}
	if best == nil {
		return engine.Audit{}, engine.ErrNotFound("audit", "latest")
	}
	return *best, nil
}

// ListAudits implements the store method of that name in memory.
func (c *AuditList) ListAudits(context.Context, engine.AuditQuery) ([]engine.Audit, error) {
	return nil, nil
}

// UpdateAudit implements the store method of that name in memory.
func (c *AuditList) UpdateAudit(context.Context, engine.Audit) error { return nil }

// EnsureTenant implements the store method of that name in memory.
func (c *Tenants) EnsureTenant(_ context.Context, slug, name string) (engine.Tenant, error) {
	return engine.Tenant{ID: engine.DerivedID(engine.PrefixTenant, slug), Slug: slug, Name: name}, nil
}

// GetTenantBySlug implements the store method of that name in memory.
func (c *Tenants) GetTenantBySlug(_ context.Context, slug string) (engine.Tenant, error) {
	return engine.Tenant{ID: engine.DerivedID(engine.PrefixTenant, slug), Slug: slug}, nil
}

// EnsureUser implements the store method of that name in memory.
func (c *Tenants) EnsureUser(_ context.Context, tenant, email string, role engine.Role) (engine.User, error) {
	id := engine.DerivedID(engine.PrefixUser, tenant, email)
	if c.Roles == nil {
		c.Roles = map[string]engine.Role{}
	}
	if r, ok := c.Roles[id]; ok {
		role = r // an existing user keeps its role
	} else {
		c.Roles[id] = role
	}
	return engine.User{ID: id, TenantID: tenant, Email: email, Role: role}, nil
}

// CreateToken implements the store method of that name in memory.
func (c *Tenants) CreateToken(_ context.Context, t engine.Token) error {
	c.Tokens = append(c.Tokens, t)
	return nil
}

// GetTokenByHash implements the store method of that name in memory.
func (c *Tenants) GetTokenByHash(_ context.Context, hash string) (engine.Token, error) {
	for _, t := range c.Tokens {
		if t.Hash == hash {
			t.UserRole = c.Roles[t.UserID]
			return t, nil
		}
	}
	return engine.Token{}, engine.ErrNotFound("token", "")
}

// TouchToken implements the store method of that name in memory.
func (c *Tenants) TouchToken(_ context.Context, id string, at time.Time) error {
	c.Touched++
	for i := range c.Tokens {
		if c.Tokens[i].ID == id {
			c.Tokens[i].LastUsedAt = &at
		}
	}
	return nil
}

// ListTokens implements the store method of that name in memory.
func (c *Tenants) ListTokens(context.Context, string, string) ([]engine.Token, error) {
	return nil, nil
}

// RevokeToken implements the store method of that name in memory.
func (c *Tenants) RevokeToken(_ context.Context, tenant, id string, at time.Time) error {
	for i := range c.Tokens {
		if c.Tokens[i].ID == id && c.Tokens[i].TenantID == tenant {
			c.Tokens[i].RevokedAt = &at
			return nil
		}
	}
	return engine.ErrNotFound("token", id)
}

// GetPolicy implements the store method of that name in memory.
func (c *Control) GetPolicy(_ context.Context, _, id string) (engine.Policy, error) {
	return engine.Policy{}, engine.ErrNotFound("policy", id)
}

// ListPolicies implements the store method of that name in memory.
func (c *Control) ListPolicies(context.Context, engine.PolicyQuery) ([]engine.Policy, error) {
	return nil, nil
}

// Resources is an inventory store in memory, keyed by resource id;
// ListResources lists nothing.
type Resources struct{ Rows map[string]engine.Resource }

// ListResources implements the store method of that name in memory.
func (f *Resources) ListResources(context.Context, engine.ResourceQuery) ([]engine.Resource, error) {
	return nil, nil
}

// GetResource implements the store method of that name in memory.
func (f *Resources) GetResource(_ context.Context, tenant, id string) (engine.Resource, error) {
	if r, ok := f.Rows[id]; ok && r.TenantID == tenant {
		return r, nil
	}
	return engine.Resource{}, engine.ErrNotFound("resource", id)
}

// GetResources implements the store method of that name in memory.
func (f *Resources) GetResources(_ context.Context, tenant string, ids []string) ([]engine.Resource, error) {
	var out []engine.Resource
	for _, id := range ids {
		if r, ok := f.Rows[id]; ok && r.TenantID == tenant {
			out = append(out, r)
		}
	}
	return out, nil
}

// GetResourcesPartial implements the store method of that name in memory.
func (f *Resources) GetResourcesPartial(ctx context.Context, tenant string, ids []string, fields engine.ResourceFields) ([]engine.Resource, error) {
	out, err := f.GetResources(ctx, tenant, ids)
	for i := range out {
		if !fields.Tags {
			out[i].Tags = nil
		}
		if !fields.Attributes {
			out[i].Attributes = nil
		}
	}
	return out, err
}

// WriteResources implements the store method of that name in memory.
func (f *Resources) WriteResources(_ context.Context, tenant string, src iter.Seq2[engine.Resource, error]) (engine.WriteResourcesResult, error) {
	if f.Rows == nil {
		f.Rows = map[string]engine.Resource{}
	}
	var res engine.WriteResourcesResult
	for r, err := range src {
		if err != nil {
			return res, err
		}
		if _, ok := f.Rows[r.ID]; !ok {
			res.NewIDs = append(res.NewIDs, r.ID)
		}
		r.TenantID = tenant
		f.Rows[r.ID] = r
		res.Written++
	}
	return res, nil
}

// Events is an engine.EventStore (the outbox) in memory.
type Events struct {
	Events []engine.Event
	Fail   error // when set, every append fails with it
}

// AppendEvents implements the store method of that name in memory.
func (f *Events) AppendEvents(ctx context.Context, evs []engine.Event) error {
	if err := ctx.Err(); err != nil { // as a database would
		return err
	}
	if f.Fail != nil {
		return f.Fail
	}
	for _, e := range evs { // as a store, keeping nothing of the caller's
		e.Data = bytes.Clone(e.Data)
		f.Events = append(f.Events, e)
	}
	return nil
}

// CreatePolicy implements the store method of that name in memory.
func (c *Control) CreatePolicy(context.Context, engine.Policy) error { return nil }

// UpdatePolicy implements the store method of that name in memory.
func (c *Control) UpdatePolicy(_ context.Context, p engine.Policy) (engine.Policy, error) {
	return engine.Policy{}, engine.ErrNotFound("policy", p.ID)
}

// DeletePolicy implements the store method of that name in memory.
func (c *Control) DeletePolicy(_ context.Context, _, id string, _ time.Time) error {
	return engine.ErrNotFound("policy", id)
}
