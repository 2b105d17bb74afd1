package findings

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

type fakeFindings struct{ rows []engine.Finding }

func findingLess(a, b engine.Finding) int {
	if c := cmp.Compare(b.Severity.Rank(), a.Severity.Rank()); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

func (f *fakeFindings) match(tenant string, flt engine.FindingFilter, x engine.Finding) bool {
	return x.TenantID == tenant && x.AuditID == flt.AuditID &&
		(flt.Severity == "" || x.Severity == flt.Severity) &&
		(flt.Dimension == "" || x.Dimension == flt.Dimension) &&
		(flt.Status == "" || x.Status == flt.Status)
}

func (f *fakeFindings) ListFindings(_ context.Context, q engine.FindingQuery) ([]engine.Finding, error) {
	rows := slices.Clone(f.rows)
	slices.SortFunc(rows, findingLess)
	var out []engine.Finding
	for _, x := range rows {
		if !f.match(q.TenantID, q.Filter, x) {
			continue
		}
		if q.After != nil && findingLess(x, engine.Finding{Severity: engine.SeverityFromRank(q.After.SeverityRank), ID: q.After.ID}) <= 0 {
			continue
		}
		if out = append(out, x); len(out) == q.Limit {
			break
		}
	}
	return out, nil
}

func (f *fakeFindings) GetFinding(_ context.Context, tenant, audit, id string) (engine.Finding, error) {
	for _, x := range f.rows {
		if x.TenantID == tenant && x.AuditID == audit && x.ID == id {
			return x, nil
		}
	}
	return engine.Finding{}, engine.ErrNotFound("finding", id)
}

func (f *fakeFindings) CountFindings(_ context.Context, q engine.FindingCountQuery) ([]engine.FindingCount, error) {
	counts := map[string]*engine.FindingCount{}
	var keys []string
	for _, x := range f.rows {
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

func (f *fakeFindings) WriteSnapshot(_ context.Context, tenant, audit string, src iter.Seq2[engine.Finding, error]) (int64, error) {
	var n int64
	for x, err := range src {
		if err != nil {
			return n, err
		}
		x.TenantID, x.AuditID = tenant, audit
		f.rows = append(f.rows, x)
		n++
	}
	return n, nil
}

type fakeControl struct {
	audits  []engine.Audit
	tokens  []engine.Token
	touched int
	roles   map[string]engine.Role // user id → role now ("" or missing: disabled)
}

func (c *fakeControl) CreateAudit(_ context.Context, a engine.Audit) error {
	c.audits = append(c.audits, a)
	return nil
}

func (c *fakeControl) GetAudit(_ context.Context, tenant, id string) (engine.Audit, error) {
	for _, a := range c.audits {
		if a.TenantID == tenant && a.ID == id {
			return a, nil
		}
	}
	return engine.Audit{}, engine.ErrNotFound("audit", id)
}

func (c *fakeControl) LatestCompletedAudit(_ context.Context, tenant string) (engine.Audit, error) {
	var best *engine.Audit
	for i, a := range c.audits {
		if a.TenantID == tenant && a.Status == engine.AuditCompleted && (best == nil || a.CompletedAt.After(*best.CompletedAt)) {
			best = &c.audits[i]
		}
	}
	if best == nil {
		return engine.Audit{}, engine.ErrNotFound("audit", "latest")
	}
	return *best, nil
}

func (c *fakeControl) ListAudits(context.Context, engine.AuditQuery) ([]engine.Audit, error) {
	return nil, nil
}

func (c *fakeControl) UpdateAudit(context.Context, engine.Audit) error { return nil }

func (c *fakeControl) EnsureTenant(_ context.Context, slug, name string) (engine.Tenant, error) {
	return engine.Tenant{ID: engine.DerivedID(engine.PrefixTenant, slug), Slug: slug, Name: name}, nil
}

func (c *fakeControl) GetTenantBySlug(_ context.Context, slug string) (engine.Tenant, error) {
	return engine.Tenant{ID: engine.DerivedID(engine.PrefixTenant, slug), Slug: slug}, nil
}

func (c *fakeControl) EnsureUser(_ context.Context, tenant, email string, role engine.Role) (engine.User, error) {
	id := engine.DerivedID(engine.PrefixUser, tenant, email)
	if c.roles == nil {
		c.roles = map[string]engine.Role{}
	}
	if r, ok := c.roles[id]; ok {
		role = r // an existing user keeps its role
	} else {
		c.roles[id] = role
	}
	return engine.User{ID: id, TenantID: tenant, Email: email, Role: role}, nil
}

func (c *fakeControl) CreateToken(_ context.Context, t engine.Token) error {
	c.tokens = append(c.tokens, t)
	return nil
}

func (c *fakeControl) GetTokenByHash(_ context.Context, hash string) (engine.Token, error) {
	for _, t := range c.tokens {
		if t.Hash == hash {
			t.UserRole = c.roles[t.UserID]
			return t, nil
		}
	}
	return engine.Token{}, engine.ErrNotFound("token", "")
}

func (c *fakeControl) TouchToken(_ context.Context, id string, at time.Time) error {
	c.touched++
	for i := range c.tokens {
		if c.tokens[i].ID == id {
			c.tokens[i].LastUsedAt = &at
		}
	}
	return nil
}

func (c *fakeControl) ListTokens(context.Context, string, string) ([]engine.Token, error) {
	return nil, nil
}

func (c *fakeControl) RevokeToken(_ context.Context, tenant, id string, at time.Time) error {
	for i := range c.tokens {
		if c.tokens[i].ID == id && c.tokens[i].TenantID == tenant {
			c.tokens[i].RevokedAt = &at
			return nil
		}
	}
	return engine.ErrNotFound("token", id)
}

func (c *fakeControl) GetPolicy(_ context.Context, _, id string) (engine.Policy, error) {
	return engine.Policy{}, engine.ErrNotFound("policy", id)
}

func (c *fakeControl) ListPolicies(context.Context, engine.PolicyQuery) ([]engine.Policy, error) {
	return nil, nil
}

type fakeResources struct{ rows map[string]engine.Resource }

func (f *fakeResources) ListResources(context.Context, engine.ResourceQuery) ([]engine.Resource, error) {
	return nil, nil
}

func (f *fakeResources) GetResource(_ context.Context, tenant, id string) (engine.Resource, error) {
	if r, ok := f.rows[id]; ok && r.TenantID == tenant {
		return r, nil
	}
	return engine.Resource{}, engine.ErrNotFound("resource", id)
}

func (f *fakeResources) GetResources(_ context.Context, tenant string, ids []string) ([]engine.Resource, error) {
	var out []engine.Resource
	for _, id := range ids {
		if r, ok := f.rows[id]; ok && r.TenantID == tenant {
			out = append(out, r)
		}
	}
	return out, nil
}

func (f *fakeResources) GetResourcesPartial(ctx context.Context, tenant string, ids []string, fields engine.ResourceFields) ([]engine.Resource, error) {
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

func (f *fakeResources) WriteResources(_ context.Context, tenant string, src iter.Seq2[engine.Resource, error]) (engine.WriteResourcesResult, error) {
	if f.rows == nil {
		f.rows = map[string]engine.Resource{}
	}
	var res engine.WriteResourcesResult
	for r, err := range src {
		if err != nil {
			return res, err
		}
		if _, ok := f.rows[r.ID]; !ok {
			res.NewIDs = append(res.NewIDs, r.ID)
		}
		r.TenantID = tenant
		f.rows[r.ID] = r
		res.Written++
	}
	return res, nil
}

type fakeEvents struct {
	events []engine.Event
	fail   error // when set, every append fails with it
}

func (f *fakeEvents) AppendEvents(ctx context.Context, evs []engine.Event) error {
	if err := ctx.Err(); err != nil { // as a database would
		return err
	}
	if f.fail != nil {
		return f.fail
	}
	for _, e := range evs { // as a store, keeping nothing of the caller's
		e.Data = bytes.Clone(e.Data)
		f.events = append(f.events, e)
	}
	return nil
}

func (c *fakeControl) CreatePolicy(context.Context, engine.Policy) error { return nil }

func (c *fakeControl) UpdatePolicy(_ context.Context, p engine.Policy) (engine.Policy, error) {
	return engine.Policy{}, engine.ErrNotFound("policy", p.ID)
}

func (c *fakeControl) DeletePolicy(_ context.Context, _, id string, _ time.Time) error {
	return engine.ErrNotFound("policy", id)
}
