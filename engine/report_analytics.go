package engine

import (
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
