package clickhouse

import (
	"context"

	"github.com/fourd-dev/fourd/engine"
)

// OpenCounts implements reporting.Analytics from the per-snapshot
// counts.
func (s *Store) OpenCounts(ctx context.Context, scope engine.ReportScope) (out []engine.ReportCount, err error) {
	defer wrap(&err, "OpenCounts(%q, %q)", scope.TenantID, scope.AuditID)
	ctx = s.scoped(ctx, scope.TenantID, "", scope.AuditID)
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	err = s.each(ctx, openCountsQuery{scope: scope}, func(sc scanner) error {
		var c engine.ReportCount
		var sev, dim string
		var n uint64
		if err := sc.Scan(&sev, &dim, &c.Account, &c.RuleID, &n); err != nil {
			return err
		}
		c.Severity, c.Dimension, c.Count = engine.Severity(sev), engine.Dimension(dim), int64(n)
		out = append(out, c)
		return nil
	})
	return out, err
}

// TopResources implements reporting.Analytics: one aggregation over the
// snapshot's open rows, then the ranked resources' names.
func (s *Store) TopResources(ctx context.Context, scope engine.ReportScope, limit int) (out []engine.ResourceRank, err error) {
	defer wrap(&err, "TopResources(%q, %q)", scope.TenantID, scope.AuditID)
	ctx = s.scoped(ctx, scope.TenantID, "", scope.AuditID)
	if limit <= 0 {
		return nil, &engine.Error{Code: engine.CodeInvalidLimit, Field: "limit", Message: "limit must be positive"}
	}
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	err = s.each(ctx, topResourcesQuery{scope: scope, limit: limit}, func(sc scanner) error {
		var r engine.ResourceRank
		var n uint64
		var sev string
		if err := sc.Scan(&r.ResourceID, &n, &r.Weighted, &sev); err != nil {
			return err
		}
		r.Open, r.WorstSeverity = int64(n), engine.Severity(sev)
		out = append(out, r)
		return nil
	})
	if err != nil || len(out) == 0 {
		return out, err
	}
	ids := make([]string, len(out))
	for i, r := range out {
		ids[i] = r.ResourceID
	}
	rs, err := s.GetResourcesPartial(ctx, scope.TenantID, ids, engine.ResourceFields{})
	if err != nil {
		return nil, err
	}
	byID := make(map[string]engine.Resource, len(rs))
	for _, r := range rs {
		byID[r.ID] = r
	}
	var gone []string
	for i := range out {
		r, ok := byID[out[i].ResourceID]
		if !ok {
			gone = append(gone, out[i].ResourceID)
			continue
		}
		out[i].NativeID, out[i].Name, out[i].Type, out[i].Account, out[i].Region = r.NativeID, r.Name, r.Type, r.Account, r.Region
	}
	if len(gone) == 0 {
		return out, nil
	}
	// Resources gone from the inventory since: where the findings say.
	index := make(map[string]int, len(out))
	for i, r := range out {
		index[r.ResourceID] = i
	}
	err = s.each(ctx, resourcePlacesQuery{tenantID: scope.TenantID, auditID: scope.AuditID, ids: gone}, func(sc scanner) error {
		var id, typ, account, region string
		if err := sc.Scan(&id, &typ, &account, &region); err != nil {
			return err
		}
		if i, ok := index[id]; ok {
			out[i].Type, out[i].Account, out[i].Region = typ, account, region
		}
		return nil
	})
	return out, err
}

// CostByRule implements reporting.Analytics.
func (s *Store) CostByRule(ctx context.Context, scope engine.ReportScope) (out []engine.RuleCost, err error) {
	defer wrap(&err, "CostByRule(%q, %q)", scope.TenantID, scope.AuditID)
	ctx = s.scoped(ctx, scope.TenantID, "", scope.AuditID)
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	var ids []uint64
	err = s.each(ctx, costByRuleQuery{scope: scope}, func(sc scanner) error {
		var c engine.RuleCost
		var n, priced, id uint64
		if err := sc.Scan(&c.RuleID, &c.Title, &id, &n, &priced, &c.PricedUSD); err != nil {
			return err
		}
		c.Findings, c.Priced = int64(n), int64(priced)
		out = append(out, c)
		ids = append(ids, id)
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = s.eachText(ctx, scope.TenantID, ids, func(i int, t findingText) { out[i].Title = t.title })
	if err != nil {
		return nil, err
	}
	return out, nil
}

// SevereResources implements reporting.Analytics.
func (s *Store) SevereResources(ctx context.Context, scope engine.ReportScope) (n int64, err error) {
	defer wrap(&err, "SevereResources(%q, %q)", scope.TenantID, scope.AuditID)
	ctx = s.scoped(ctx, scope.TenantID, "", scope.AuditID)
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	err = s.each(ctx, severeResourcesQuery{scope: scope}, func(sc scanner) error {
		var u uint64
		if err := sc.Scan(&u); err != nil {
			return err
		}
		n = int64(u)
		return nil
	})
	return n, err
}

// RuleTotals implements reporting.Analytics in one aggregation over the
// snapshot's open rows.
func (s *Store) RuleTotals(ctx context.Context, scope engine.ReportScope) (out []engine.RuleTotals, err error) {
	defer wrap(&err, "RuleTotals(%q, %q)", scope.TenantID, scope.AuditID)
	ctx = s.scoped(ctx, scope.TenantID, "", scope.AuditID)
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	var ids []uint64
	err = s.each(ctx, ruleTotalsQuery{scope: scope}, func(sc scanner) error {
		var t engine.RuleTotals
		var sev, dim string
		var n, res, prod, id uint64
		if err := sc.Scan(&t.RuleID, &t.Title, &t.Remediation, &id, &sev, &dim, &n, &res, &prod); err != nil {
			return err
		}
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

// AffectedResources implements reporting.Analytics: the findings in one
// query (LIMIT n BY rule), then their resources' names and tags.
func (s *Store) AffectedResources(ctx context.Context, scope engine.ReportScope, ruleIDs []string, perRule int) (out map[string][]engine.AffectedResource, err error) {
	defer wrap(&err, "AffectedResources(%q, %q, %d rules)", scope.TenantID, scope.AuditID, len(ruleIDs))
	ctx = s.scoped(ctx, scope.TenantID, "", scope.AuditID)
	out = map[string][]engine.AffectedResource{}
	switch {
	case len(ruleIDs) > engine.MaxAffectedRules:
		return nil, engine.FieldErrorf("rule_ids", "at most %d rules at a time", engine.MaxAffectedRules)
	case perRule <= 0:
		return nil, &engine.Error{Code: engine.CodeInvalidLimit, Field: "per_rule", Message: "per_rule must be positive"}
	case len(ruleIDs) == 0:
		return out, nil
	}
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	var rules []string
	var res []engine.AffectedResource
	err = s.each(ctx, affectedQuery{scope: scope, ruleIDs: ruleIDs, perRule: perRule}, func(sc scanner) error {
		var rule string
		r, err := scanAffected(sc, &rule)
		if err != nil {
			return err
		}
		rules = append(rules, rule)
		res = append(res, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := s.describeAffected(ctx, scope.TenantID, res); err != nil {
		return nil, err
	}
	for i, rule := range rules {
		out[rule] = append(out[rule], res[i])
	}
	return out, nil
}

// ResourceCountsByType implements reporting.Analytics.
func (s *Store) ResourceCountsByType(ctx context.Context, tenantID string) (out map[string]int64, err error) {
	defer wrap(&err, "ResourceCountsByType(%q)", tenantID)
	ctx = s.scoped(ctx, tenantID, "")
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	out = map[string]int64{}
	err = s.each(ctx, resourceTypesQuery{tenantID: tenantID}, func(sc scanner) error {
		var typ string
		var n uint64
		if err := sc.Scan(&typ, &n); err != nil {
			return err
		}
		out[typ] = int64(n)
		return nil
	})
	return out, err
}

// each runs q and calls fn for every row.
func (s *Store) each(ctx context.Context, q sqlQuery, fn func(scanner) error) error {
	text, args := q.toSQL()
	rows, err := s.conn.Query(ctx, text, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
