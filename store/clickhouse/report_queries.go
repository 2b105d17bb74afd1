package clickhouse

import (
	"fmt"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// The analytic queries reports are built from (reporting.Analytics).
// Each reads one snapshot; the open-finding condition honours people's
// decisions (forced statuses) except in openCountsQuery, which reads the
// per-snapshot counts and leaves them to the engine.

// addReportFilters adds a report's list filters.
func addReportFilters(c *conds, f engine.ReportFilters) {
	if len(f.Severities) > 0 {
		c.add("severity IN ?", groupSetOf(f.Severities))
	}
	if len(f.Dimensions) > 0 {
		c.add("dimension IN ?", groupSetOf(f.Dimensions))
	}
	if len(f.Accounts) > 0 {
		c.add("account IN ?", groupSet(f.Accounts))
	}
}

func groupSetOf[T ~string](xs []T) any {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return groupSet(s)
}

// openRows is the WHERE clause of a read of a scope's open finding rows.
func openRows(scope engine.ReportScope) conds {
	var c conds
	addSnapshot(&c, scope.TenantID, scope.AuditID)
	addReportFilters(&c, scope.Filters)
	var bounds conds // the matches of this snapshot only
	addSnapshot(&bounds, scope.TenantID, scope.AuditID)
	addPageFilter(&c, engine.FindingFilter{Status: engine.StatusOpen},
		forced{resolved: scope.ForceResolved, open: scope.ForceOpen, mutes: scope.Mutes, muteSet: scope.MuteSet}, bounds)
	return c
}

// openCountsQuery counts open findings by severity, dimension, account and
// rule from the per-snapshot counts.
type openCountsQuery struct{ scope engine.ReportScope }

func (q openCountsQuery) toSQL() (string, []any) {
	var c conds
	c.add("tenant_id = ?", q.scope.TenantID)
	c.add("audit_id = ?", q.scope.AuditID)
	c.add("status = ?", string(engine.StatusOpen))
	addReportFilters(&c, q.scope.Filters)
	return "SELECT toString(severity), toString(dimension), account, rule_id, sum(n) FROM finding_counts WHERE " + c.sql() +
		" GROUP BY severity, dimension, account, rule_id ORDER BY severity DESC, dimension, account, rule_id", c.args
}

// severityWeight renders engine.PostureWeights as an expression of the
// severity column.
func severityWeight() string {
	var b strings.Builder
	b.WriteString("multiIf(")
	for i := len(engine.Severities) - 1; i >= 0; i-- {
		s := engine.Severities[i]
		fmt.Fprintf(&b, "severity = '%s', %.1f, ", s, engine.PostureWeights[s])
	}
	b.WriteString("0.0)")
	return b.String()
}

// topResourcesQuery ranks resources by the weight of their open findings.
type topResourcesQuery struct {
	scope engine.ReportScope
	limit int
}

func (q topResourcesQuery) toSQL() (string, []any) {
	c := openRows(q.scope)
	// Only the aggregates: the ranked resources' type, account and region
	// come from the inventory afterwards (three any() over every group
	// cost a third of the query at 1M findings).
	return "SELECT resource_id, count(), sum(" + severityWeight() +
		") AS w, toString(max(severity)) FROM snapshot_findings WHERE " + c.sql() +
		" GROUP BY resource_id ORDER BY w DESC, resource_id LIMIT ?", append(c.args, q.limit)
}

// resourcePlacesQuery reads the type, account and region of some
// resources from a snapshot's rows: the ranked resources the inventory no
// longer holds.
type resourcePlacesQuery struct {
	tenantID, auditID string
	ids               []string
}

func (q resourcePlacesQuery) toSQL() (string, []any) {
	var c conds
	addSnapshot(&c, q.tenantID, q.auditID)
	return "SELECT resource_id, any(resource_type), any(account), any(region) FROM snapshot_findings PREWHERE resource_id IN ? WHERE " +
		c.sql() + " GROUP BY resource_id", append([]any{groupSet(q.ids)}, c.args...)
}

// costByRuleQuery sums the monthly figures of the open cost findings per
// rule. visitParam* reads a top-level JSON number on 18.16 and current
// servers alike (18.16 has no JSONExtract); it expects compact JSON, no
// space before the colon, which is how evidence is written (json.Marshal).
type costByRuleQuery struct{ scope engine.ReportScope }

func (q costByRuleQuery) toSQL() (string, []any) {
	c := openRows(q.scope)
	c.add("dimension = ?", string(engine.DimensionCost))
	const (
		hasUSD  = "visitParamHas(evidence, 'estimated_monthly_usd')"
		hasSave = "visitParamHas(evidence, 'estimated_monthly_saving_usd')"
	)
	price := "if(" + hasUSD + ", visitParamExtractFloat(evidence, 'estimated_monthly_usd'), visitParamExtractFloat(evidence, 'estimated_monthly_saving_usd'))"
	return "SELECT rule_id, " + ruleText("title") + ", max(text_id), count(), countIf(" + hasUSD + " OR " + hasSave + "), sumIf(" + price + ", " +
		hasUSD + " OR " + hasSave + ") FROM snapshot_findings WHERE " + c.sql() + " GROUP BY rule_id ORDER BY rule_id", c.args
}

// prodResources selects the ids of the tenant's production resources, by
// their latest observation's tags (engine.IsProd).
func prodResources() string {
	return "SELECT id FROM resources WHERE tenant_id = ? GROUP BY id HAVING argMax(arrayExists((k, v) -> lower(k) IN ('" +
		strings.Join(engine.ProdTagKeys, "', '") + "') AND lower(v) IN ('" + strings.Join(engine.ProdTagValues, "', '") +
		"'), tags.key, tags.value), version) = 1"
}

// ruleText reads one text column of a rule's rows written before
// finding_texts (text_id 0); rows written since carry max(text_id), whose
// text the store fills in.
func ruleText(col string) string { return "anyIf(" + col + ", text_id = 0)" }

// ruleTotalsQuery totals every rule's open findings in remediation
// priority order.
type ruleTotalsQuery struct{ scope engine.ReportScope }

func (q ruleTotalsQuery) toSQL() (string, []any) {
	c := openRows(q.scope)
	return "SELECT rule_id, " + ruleText("title") + ", " + ruleText("remediation") + ", max(text_id), toString(max(severity)), toString(any(dimension)), count(), " +
			"uniqExact(resource_id) AS resources, uniqExactIf(resource_id, resource_id IN (" + prodResources() + ")) AS prod " +
			"FROM snapshot_findings WHERE " + c.sql() + " GROUP BY rule_id ORDER BY max(severity) DESC, prod DESC, resources DESC, rule_id",
		append([]any{q.scope.TenantID}, c.args...)
}

// affectedQuery reads the first perRule open findings of each rule, most
// severe first, then by resource.
type affectedQuery struct {
	scope   engine.ReportScope
	ruleIDs []string
	perRule int
}

func (q affectedQuery) toSQL() (string, []any) {
	c := openRows(q.scope)
	c.add("rule_id IN ?", groupSet(q.ruleIDs))
	return "SELECT rule_id, id, resource_id, resource_type, account, region, toString(severity) FROM snapshot_findings WHERE " +
		c.sql() + " ORDER BY rule_id, sev_order, resource_id, id LIMIT ? BY rule_id", append(c.args, q.perRule)
}

// resourceTypesQuery counts a tenant's resources by type.
type resourceTypesQuery struct{ tenantID string }

func (q resourceTypesQuery) toSQL() (string, []any) {
	// Distinct ids by their 64-bit hash: a third cheaper than by the
	// strings at 1M resources, and two ids of a tenant collide with a
	// probability of about n²/2⁶⁵ (3·10⁻⁸ at a million).
	return "SELECT type, uniqExact(cityHash64(id)) FROM resources WHERE tenant_id = ? GROUP BY type ORDER BY type", []any{q.tenantID}
}

// severeResourcesQuery counts the resources with an open critical or high
// finding.
type severeResourcesQuery struct{ scope engine.ReportScope }

func (q severeResourcesQuery) toSQL() (string, []any) {
	c := openRows(q.scope)
	// sev_order is in the key: only the critical and high rows are read.
	c.add("sev_order IN (?, ?)", sevOrder(engine.SeverityCritical), sevOrder(engine.SeverityHigh))
	c.add("severity IN (?, ?)", string(engine.SeverityCritical), string(engine.SeverityHigh))
	return "SELECT uniqExact(resource_id) FROM snapshot_findings WHERE " + c.sql(), c.args
}
