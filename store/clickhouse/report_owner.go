package clickhouse

import (
	"context"

	"github.com/fourd-dev/fourd/engine"
)

// resourceOwners selects each of the tenant's resources with the value of
// its first owner tag (” without one), by its latest observation: the SQL
// of engine.ResourceOwner, whose account fallback ownerExpr applies.
func resourceOwners() string {
	return "SELECT id AS resource_id, argMax(tags.value[indexOf(arrayMap(k -> lower(k), tags.key), '" + engine.OwnerTagKey +
		"')], version) AS owner_tag FROM resources WHERE tenant_id = ? GROUP BY id"
}

// ownerExpr is a finding row's owner once joined with resourceOwners.
const ownerExpr = "if(owner_tag != '', owner_tag, account)"

// ownerRuleTotalsQuery totals the open findings of every (owner, rule)
// pair, by owner then in remediation priority order.
type ownerRuleTotalsQuery struct{ scope engine.ReportScope }

func (q ownerRuleTotalsQuery) toSQL() (string, []any) {
	c := openRows(q.scope)
	return "SELECT " + ownerExpr + " AS owner, toUInt8(owner_tag != '') AS by_tag, rule_id, " + ruleText("title") + ", " +
			ruleText("remediation") + ", max(text_id), toString(max(severity)), toString(any(dimension)), count(), " +
			"uniqExact(resource_id) AS resources, uniqExactIf(resource_id, resource_id IN (" + prodResources() + ")) AS prod " +
			"FROM snapshot_findings ANY LEFT JOIN (" + resourceOwners() + ") USING resource_id WHERE " + c.sql() +
			" GROUP BY owner, by_tag, rule_id ORDER BY owner, max(severity) DESC, prod DESC, resources DESC, rule_id",
		append([]any{q.scope.TenantID, q.scope.TenantID}, c.args...)
}

// ownerAffectedQuery reads the first perGroup open findings of each
// (owner, rule) pair among owners × rules, most severe first, then by
// resource; the caller keeps the pairs it asked for.
type ownerAffectedQuery struct {
	scope    engine.ReportScope
	owners   []string
	ruleIDs  []string
	perGroup int
}

func (q ownerAffectedQuery) toSQL() (string, []any) {
	c := openRows(q.scope)
	c.add("rule_id IN ?", groupSet(q.ruleIDs))
	args := append([]any{q.scope.TenantID}, c.args...)
	return "SELECT owner, rule_id, id, resource_id, resource_type, account, region, toString(severity) FROM (" +
			"SELECT " + ownerExpr + " AS owner, rule_id, id, resource_id, resource_type, account, region, severity, sev_order " +
			"FROM snapshot_findings ANY LEFT JOIN (" + resourceOwners() + ") USING resource_id WHERE " + c.sql() +
			") WHERE owner IN ? ORDER BY owner, rule_id, sev_order, resource_id, id LIMIT ? BY owner, rule_id",
		append(args, groupSet(q.owners), q.perGroup)
}

// OwnerRuleTotals implements reporting.Analytics in one aggregation
// over the snapshot's open rows joined with their resources' owner tags.
func (s *Store) OwnerRuleTotals(ctx context.Context, scope engine.ReportScope) (out []engine.OwnerRuleTotals, err error) {
	defer wrap(&err, "OwnerRuleTotals(%q, %q)", scope.TenantID, scope.AuditID)
	ctx = s.scoped(ctx, scope.TenantID, "", scope.AuditID)
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	var ids []uint64
	err = s.each(ctx, ownerRuleTotalsQuery{scope: scope}, func(sc scanner) error {
		var t engine.OwnerRuleTotals
		var sev, dim string
		var byTag uint8
		var n, res, prod, id uint64
		if err := sc.Scan(&t.Owner, &byTag, &t.RuleID, &t.Title, &t.Remediation, &id, &sev, &dim, &n, &res, &prod); err != nil {
			return err
		}
		t.ByTag = byTag == 1
		t.Severity, t.Dimension = engine.Severity(sev), engine.Dimension(dim)
		t.Findings, t.Resources, t.Prod = int64(n), int64(res), int64(prod)
		out = append(out, t)
		ids = append(ids, id)
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = s.eachText(ctx, scope.TenantID, ids, func(i int, t findingText) {
		out[i].Title, out[i].Remediation = t.title, t.remediation
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// OwnerAffectedResources implements reporting.Analytics: the findings
// in one query (LIMIT n BY owner and rule), then their resources' names
// and tags.
func (s *Store) OwnerAffectedResources(ctx context.Context, scope engine.ReportScope, pairs []engine.OwnerRule, perGroup int) (out map[engine.OwnerRule][]engine.AffectedResource, err error) {
	defer wrap(&err, "OwnerAffectedResources(%q, %q, %d groups)", scope.TenantID, scope.AuditID, len(pairs))
	ctx = s.scoped(ctx, scope.TenantID, "", scope.AuditID)
	out = map[engine.OwnerRule][]engine.AffectedResource{}
	switch {
	case len(pairs) > engine.MaxAffectedRules:
		return nil, engine.FieldErrorf("pairs", "at most %d groups at a time", engine.MaxAffectedRules)
	case perGroup <= 0:
		return nil, &engine.Error{Code: engine.CodeInvalidLimit, Field: "per_group", Message: "per_group must be positive"}
	case len(pairs) == 0:
		return out, nil
	}
	want := make(map[engine.OwnerRule]bool, len(pairs))
	var owners, rules []string
	seenOwner, seenRule := map[string]bool{}, map[string]bool{}
	for _, p := range pairs {
		want[p] = true
		if !seenOwner[p.Owner] {
			seenOwner[p.Owner] = true
			owners = append(owners, p.Owner)
		}
		if !seenRule[p.RuleID] {
			seenRule[p.RuleID] = true
			rules = append(rules, p.RuleID)
		}
	}
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	var keys []engine.OwnerRule
	var rows []engine.AffectedResource
	err = s.each(ctx, ownerAffectedQuery{scope: scope, owners: owners, ruleIDs: rules, perGroup: perGroup}, func(sc scanner) error {
		var k engine.OwnerRule
		r, err := scanAffected(sc, &k.Owner, &k.RuleID)
		if err != nil {
			return err
		}
		if !want[k] {
			return nil // another batch's pair: owners × rules is wider than the pairs
		}
		keys = append(keys, k)
		rows = append(rows, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := s.describeAffected(ctx, scope.TenantID, rows); err != nil {
		return nil, err
	}
	for i, k := range keys {
		out[k] = append(out[k], rows[i])
	}
	return out, nil
}

// scanAffected scans an affected finding's row: the leading columns into
// lead, then its id, resource, type, account, region and severity.
func scanAffected(sc scanner, lead ...any) (engine.AffectedResource, error) {
	var r engine.AffectedResource
	var key, sev string
	if err := sc.Scan(append(lead, &key, &r.ResourceID, &r.Type, &r.Account, &r.Region, &sev)...); err != nil {
		return r, err
	}
	var err error
	if r.FindingID, err = findingIDText(key); err != nil {
		return r, err
	}
	r.Severity = engine.Severity(sev)
	return r, nil
}

// describeAffected fills in the affected resources' names, native ids and
// what their tags say (production, environment) from the resources' latest
// observations.
func (s *Store) describeAffected(ctx context.Context, tenantID string, rows []engine.AffectedResource) error {
	seen := map[string]bool{}
	var ids []string
	for _, r := range rows {
		if !seen[r.ResourceID] {
			seen[r.ResourceID] = true
			ids = append(ids, r.ResourceID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	rs, err := s.GetResourcesPartial(ctx, tenantID, ids, engine.ResourceFields{Tags: true})
	if err != nil {
		return err
	}
	byID := make(map[string]*engine.Resource, len(rs))
	for i := range rs {
		byID[rs[i].ID] = &rs[i]
	}
	for i := range rows {
		if r, ok := byID[rows[i].ResourceID]; ok {
			rows[i].Name, rows[i].NativeID = r.Name, r.NativeID
			rows[i].Prod, rows[i].Environment = engine.IsProd(r.Tags), engine.Environment(r.Tags)
		}
	}
	return nil
}
