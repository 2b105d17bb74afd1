package engine

import (
	"context"
	"slices"
	"strings"
)

// ReportScope is what one report's analytic queries read: the open findings
// of one snapshot that pass the report's filters, with people's decisions
// made since the snapshot was written applied (ForceResolved are treated
// as resolved, ForceOpen as open, whatever the snapshot says) and the
// findings the active mute rules match (Mutes) left out: a muted finding is
// not an open finding of any report.
type ReportScope struct {
	TenantID      string
	AuditID       string
	Filters       ReportFilters
	ForceResolved []string
	ForceOpen     []string
	Mutes         []MuteRef
	// MuteSet is the build of the materialised set of Mutes, when built
	// (as FindingQuery.MuteSet).
	MuteSet string
}

// ReportCount is one group of open findings by severity, dimension,
// account and rule.
type ReportCount struct {
	Severity  Severity
	Dimension Dimension
	Account   string
	RuleID    string
	Count     int64
}

// RuleTotals is one rule's open findings in a snapshot: a remediation
// group before its text and resources are filled in.
type RuleTotals struct {
	RuleID      string
	Title       string   // from the finding rows
	Remediation string   // from the finding rows
	Severity    Severity // the highest of the rule's open findings
	Dimension   Dimension
	Findings    int64
	Resources   int64 // distinct resources
	Prod        int64 // distinct resources tagged as production
}

// RuleCost is one rule's priced open cost findings.
type RuleCost struct {
	RuleID   string
	Title    string
	Findings int64
	// Priced counts the findings whose evidence carries a monthly figure;
	// PricedUSD sums those figures.
	Priced    int64
	PricedUSD float64
}

// ReportAnalytics answers the analytic queries reports are built from
// (store/clickhouse). Every method reads only scope's snapshot; an audit
// whose snapshot is missing simply has no rows.
type ReportAnalytics interface {
	// OpenCounts counts open findings by severity, dimension, account and
	// rule, from the per-snapshot counts; ForceResolved, ForceOpen and
	// Mutes are not applied (the engine moves them between groups itself).
	OpenCounts(ctx context.Context, scope ReportScope) ([]ReportCount, error)
	// TopResources returns the limit resources whose open findings weigh
	// most (PostureWeights), heaviest first.
	TopResources(ctx context.Context, scope ReportScope, limit int) ([]ResourceRank, error)
	// CostByRule sums the open cost findings' monthly figures
	// (evidence estimated_monthly_usd, else estimated_monthly_saving_usd)
	// per rule.
	CostByRule(ctx context.Context, scope ReportScope) ([]RuleCost, error)
	// RuleTotals returns every rule with open findings in remediation
	// priority order: severity, production resources, resources, rule id.
	RuleTotals(ctx context.Context, scope ReportScope) ([]RuleTotals, error)
	// AffectedResources returns, for each of ruleIDs, the first perRule of
	// its open findings (most severe first, then by resource id) with their
	// resources. validation_failed for more than MaxAffectedRules rules.
	AffectedResources(ctx context.Context, scope ReportScope, ruleIDs []string, perRule int) (map[string][]AffectedResource, error)
	// OwnerRuleTotals returns every (owner, rule) pair with open findings,
	// by owner then in the rule's remediation priority order. A resource's
	// owner is its tag whose key is OwnerTagKey (any case), else its
	// account (ResourceOwner).
	OwnerRuleTotals(ctx context.Context, scope ReportScope) ([]OwnerRuleTotals, error)
	// OwnerAffectedResources returns, for each pair, the first perGroup of
	// its open findings (most severe first, then by resource id) with their
	// resources. validation_failed for more than MaxAffectedRules pairs.
	OwnerAffectedResources(ctx context.Context, scope ReportScope, pairs []OwnerRule, perGroup int) (map[OwnerRule][]AffectedResource, error)
	// AffectedEvidence fills in rows' Evidence (their findings' evidence
	// in scope's snapshot: what the check read), ObservedAt (their
	// resources' latest sighting) and CapturedAt (when the source captured
	// their stored configuration, when known), in place.
	AffectedEvidence(ctx context.Context, scope ReportScope, rows []AffectedResource) error
	// SevereResources counts the distinct resources with at least one
	// open critical or high finding in scope (decisions applied).
	SevereResources(ctx context.Context, scope ReportScope) (int64, error)
	// ResourceCountsByType counts the tenant's resources by type.
	ResourceCountsByType(ctx context.Context, tenantID string) (map[string]int64, error)
	// SampleResourceIDs returns, per type, the ids of the tenant's first
	// perType resources of that type (lowest ids first); types it has none
	// of are absent.
	SampleResourceIDs(ctx context.Context, tenantID string, types []string, perType int) (map[string][]string, error)
	// ResolutionTimes counts scope's resolved findings by severity with
	// their mean time from first seen to resolved; scope.Filters apply,
	// ForceOpen findings are left out, and so are findings without a
	// resolution time (ForceResolved ones among them).
	ResolutionTimes(ctx context.Context, scope ReportScope) ([]ResolutionTime, error)
}

// MaxAffectedRules bounds the rules of one AffectedResources call, so that
// a remediation plan reads its resources a bounded batch at a time.
const MaxAffectedRules = 500

// RuleCatalog describes the built-in rules and the frameworks they map to;
// engine/audit implements it from engine/rules.
type RuleCatalog interface {
	// Rule returns a built-in rule's metadata; false for any other id
	// (custom policies, synthetic rules), whose title comes from its
	// findings.
	Rule(id string) (RuleInfo, bool)
	// Frameworks lists the compliance frameworks with their controls, in
	// control order.
	Frameworks() []CatalogFramework
}

// RuleInfo is a built-in rule as reports describe it.
type RuleInfo struct {
	ID            string
	Title         string
	Remediation   string
	Dimension     Dimension
	Severity      Severity
	Compliance    []string
	ResourceTypes []string
}

// CatalogFramework is one compliance framework with every control of its
// catalog (engine/compliance) and the rules that check each.
type CatalogFramework struct {
	ID       string // e.g. CIS-AWS-4.0.1
	Title    string
	Version  string
	Source   string // where the control ids and titles come from
	Controls []CatalogControl
}

// Control assessments as CIS marks them (empty for other frameworks).
const (
	AssessmentAutomated = "automated"
	AssessmentManual    = "manual"
)

// CatalogControl is one control with the rules that check it (none for a
// control fourd does not assess).
type CatalogControl struct {
	ID            string // e.g. 2.1.4
	Title         string
	Section       string
	Level         string // CIS profile level; empty elsewhere
	Assessment    string // AssessmentAutomated or AssessmentManual for CIS; empty elsewhere
	Gap           string // why no rule checks a CIS Automated control, when known
	Rules         []string
	ResourceTypes []string
}

// OwnerRule names a remediation group: one owner's findings of one rule.
type OwnerRule struct{ Owner, RuleID string }

// OwnerRuleTotals is one rule's open findings on one owner's resources.
type OwnerRuleTotals struct {
	Owner string
	// ByTag: the owner is an owner tag's value, not the account.
	ByTag bool
	RuleTotals
}

// OwnerTagKey is the tag that names a resource's owner (compared in lower
// case); a resource without it is its account's.
const OwnerTagKey = "owner"

// ResourceOwner returns who owns a resource: the value of its first tag
// whose key is OwnerTagKey, else (no such tag, or an empty value) its
// account; byTag says which. The ClickHouse store computes the same in SQL.
func ResourceOwner(tags Tags, account string) (owner string, byTag bool) {
	for _, t := range tags {
		if strings.ToLower(t.Key) == OwnerTagKey {
			if t.Value == "" {
				break
			}
			return t.Value, true
		}
	}
	return account, false
}

// Environment returns the value of a resource's environment tag (the
// first of ProdTagKeys it carries), or "" when it has none.
func Environment(tags Tags) string {
	for _, t := range tags {
		if slices.Contains(ProdTagKeys, strings.ToLower(t.Key)) && t.Value != "" {
			return t.Value
		}
	}
	return ""
}

// ProdTagKeys and ProdTagValues say which resources are production: a tag
// whose key is one of ProdTagKeys has a value in ProdTagValues (both
// compared in lower case).
var (
	ProdTagKeys   = []string{"env", "environment", "stage"}
	ProdTagValues = []string{"prod", "production"}
)

// IsProd reports whether tags mark a production resource.
func IsProd(tags Tags) bool {
	for _, t := range tags {
		if slices.Contains(ProdTagKeys, strings.ToLower(t.Key)) && slices.Contains(ProdTagValues, strings.ToLower(t.Value)) {
			return true
		}
	}
	return false
}
