package engine

import (
	"encoding/json"
	"math"
	"slices"
	"time"
)

// ReportSchemaVersion is the version of the report document schema. It
// changes only when a field is removed or changes meaning; fields are added
// without a new version.
const ReportSchemaVersion = "2026-11-27"

// ReportDocument is a report's content: the JSON document every format is
// rendered from. Exactly one body, the one of Header.Kind, is set.
type ReportDocument struct {
	SchemaVersion      string                    `json:"schema_version"`
	Header             ReportHeader              `json:"header"`
	ExecutiveSummary   *ExecutiveSummaryReport   `json:"executive_summary,omitempty"`
	RemediationPlan    *RemediationPlanReport    `json:"remediation_plan,omitempty"`
	ComplianceEvidence *ComplianceEvidenceReport `json:"compliance_evidence,omitempty"`
}

// ReportHeader identifies a report, its tenant and the audit it describes.
type ReportHeader struct {
	ReportID         string        `json:"report_id"`
	Kind             ReportKind    `json:"kind"`
	TenantID         string        `json:"tenant_id"`
	TenantName       string        `json:"tenant_name"`
	AuditID          string        `json:"audit_id"`
	AuditCompletedAt time.Time     `json:"audit_completed_at"`
	PreviousAuditID  string        `json:"previous_audit_id,omitempty"`
	GeneratedAt      time.Time     `json:"generated_at"`
	Filters          ReportFilters `json:"filters"`
	// MutedFindings counts the open findings within the filters that the
	// tenant's active mute rules silence (docs/design/mute-rules.md): no
	// figure of the report counts them as open.
	MutedFindings int64 `json:"muted_findings"`
}

// ReportFilters narrow what a report covers. Empty lists do not filter.
type ReportFilters struct {
	Dimensions []Dimension `json:"dimensions"`
	Severities []Severity  `json:"severities"`
	Accounts   []string    `json:"accounts"`
	// Frameworks selects compliance frameworks by id prefix, e.g.
	// "CIS-AWS-4.0.1"; compliance_evidence only.
	Frameworks []string `json:"frameworks"`
}

// Match reports whether a finding passes the filters' dimensions,
// severities and accounts (Frameworks select controls, not findings).
func (f ReportFilters) Match(x Finding) bool {
	return (len(f.Dimensions) == 0 || slices.Contains(f.Dimensions, x.Dimension)) &&
		(len(f.Severities) == 0 || slices.Contains(f.Severities, x.Severity)) &&
		(len(f.Accounts) == 0 || slices.Contains(f.Accounts, x.Account))
}

// Severity weights of the posture score: an open finding of severity s
// weighs PostureWeights[s]; info findings do not lower the score.
var PostureWeights = map[Severity]float64{
	SeverityCritical: 10, SeverityHigh: 5, SeverityMedium: 2, SeverityLow: 1, SeverityInfo: 0,
}

// PostureScore is the tenant's overall posture, 0 (worst) to 100 (no
// weighted open finding). With W the sum of PostureWeights over the open
// findings and R the resources scanned (at least 1), the density is
// D = W / R and the score is 100 / (1 + D), rounded to one decimal: one
// medium finding on every resource scores 33.3, one high on every fifth
// resource scores 50.
type PostureScore struct {
	Score            float64  `json:"score"`
	PreviousScore    *float64 `json:"previous_score"`
	Delta            *float64 `json:"delta"`
	WeightedOpen     float64  `json:"weighted_open"`
	ResourcesScanned int64    `json:"resources_scanned"`
}

// ComputePostureScore applies the formula of PostureScore to severity
// counts of open findings and the number of resources scanned.
func ComputePostureScore(bySeverity map[Severity]int64, resources int64) (score, weighted float64) {
	for s, n := range bySeverity {
		weighted += PostureWeights[s] * float64(n)
	}
	d := weighted / float64(max(resources, 1))
	return math.Round(1000/(1+d)) / 10, weighted
}

// SeverityRow counts open findings of one severity in each dimension.
type SeverityRow struct {
	Severity     Severity `json:"severity"`
	Security     int64    `json:"security"`
	Cost         int64    `json:"cost"`
	Architecture int64    `json:"architecture"`
	Compliance   int64    `json:"compliance"`
	Total        int64    `json:"total"`
}

// Add adds n findings of dimension d to the row.
func (r *SeverityRow) Add(d Dimension, n int64) {
	switch d {
	case DimensionSecurity:
		r.Security += n
	case DimensionCost:
		r.Cost += n
	case DimensionArchitecture:
		r.Architecture += n
	case DimensionCompliance:
		r.Compliance += n
	default:
		return
	}
	r.Total += n
}

// Count returns the row's count for dimension d.
func (r SeverityRow) Count(d Dimension) int64 {
	return map[Dimension]int64{DimensionSecurity: r.Security, DimensionCost: r.Cost,
		DimensionArchitecture: r.Architecture, DimensionCompliance: r.Compliance}[d]
}

// ReportTrendPoint is one past audit in a report's trend, oldest first.
type ReportTrendPoint struct {
	AuditID      string    `json:"audit_id"`
	CompletedAt  time.Time `json:"completed_at"`
	OpenFindings int64     `json:"open_findings"`
	Critical     int64     `json:"critical"`
	High         int64     `json:"high"`
	Score        float64   `json:"score"`
}

// AccountRank is an account with its open findings.
type AccountRank struct {
	Account  string `json:"account"`
	Open     int64  `json:"open"`
	Critical int64  `json:"critical"`
	High     int64  `json:"high"`
}

// ResourceRank is a resource with its open findings; Weighted is their sum
// of PostureWeights, by which resources are ranked.
type ResourceRank struct {
	ResourceID string `json:"resource_id"`
	// NativeID is the provider's id (an ARN, an instance id), empty for a
	// resource the inventory no longer holds.
	NativeID      string   `json:"native_id,omitempty"`
	Name          string   `json:"name"`
	Type          string   `json:"type"`
	Account       string   `json:"account"`
	Region        string   `json:"region"`
	Open          int64    `json:"open"`
	Weighted      float64  `json:"weighted"`
	WorstSeverity Severity `json:"worst_severity"`
}

// RuleRank is a rule with its open findings.
type RuleRank struct {
	RuleID    string    `json:"rule_id"`
	Title     string    `json:"title"`
	Severity  Severity  `json:"severity"`
	Dimension Dimension `json:"dimension"`
	Open      int64     `json:"open"`
}

// CostWaste estimates the monthly spend the open cost findings waste, in
// USD: the sum of the figures their evidence carries (estimated_monthly_usd,
// else estimated_monthly_saving_usd), which the cost rules take from the
// embedded price table (engine/rules/pricing). A finding without a figure
// is counted in NotEstimated and adds nothing: no amount is invented.
type CostWaste struct {
	MonthlyUSD float64         `json:"monthly_usd"`
	ByRule     []CostWasteRule `json:"by_rule"`
	// Estimated and NotEstimated count the open cost findings with and
	// without a monthly figure.
	Estimated    int64 `json:"estimated"`
	NotEstimated int64 `json:"not_estimated"`
}

// CostWasteRule is one rule's share of the cost waste estimate.
type CostWasteRule struct {
	RuleID     string  `json:"rule_id"`
	Title      string  `json:"title"`
	Findings   int64   `json:"findings"`
	MonthlyUSD float64 `json:"monthly_usd"`
	Basis      string  `json:"basis"` // evidence, not_estimated or mixed
	// Estimated counts the findings that carry a monthly figure.
	Estimated int64 `json:"estimated"`
}

// AuditChanges is what changed since the previous audit.
type AuditChanges struct {
	New             int64           `json:"new"`
	Resolved        int64           `json:"resolved"`
	SeverityChanged int64           `json:"severity_changed"`
	Examples        []ChangeExample `json:"examples"`
}

// ChangeExample is one finding that changed since the previous audit.
type ChangeExample struct {
	Change       string `json:"change"` // new, resolved or severity_changed
	FindingID    string `json:"finding_id"`
	RuleID       string `json:"rule_id"`
	Title        string `json:"title"`
	ResourceID   string `json:"resource_id"`
	ResourceName string `json:"resource_name"` // empty when the resource has none (or is gone)
	// NativeID is the provider's id (an ARN, an instance id), empty for a
	// resource the inventory no longer holds.
	NativeID         string   `json:"native_id,omitempty"`
	Severity         Severity `json:"severity"`
	PreviousSeverity Severity `json:"previous_severity,omitempty"`
}

// ExecutiveSummaryReport is the body of an executive_summary report.
type ExecutiveSummaryReport struct {
	Posture      PostureScore       `json:"posture"`
	OpenFindings int64              `json:"open_findings"`
	Matrix       []SeverityRow      `json:"matrix"` // critical first, one row per severity
	Trend        []ReportTrendPoint `json:"trend"`
	TopAccounts  []AccountRank      `json:"top_accounts"`
	TopResources []ResourceRank     `json:"top_resources"`
	TopRules     []RuleRank         `json:"top_rules"`
	CostWaste    CostWaste          `json:"cost_waste"`
	Changes      AuditChanges       `json:"changes"`
	// KeyMessages, TopActions and Compliance are the first page: what
	// an executive reads before anything else.
	KeyMessages []KeyMessage       `json:"key_messages"`
	TopActions  []TopAction        `json:"top_actions"`
	Compliance  []FrameworkPosture `json:"compliance"`
	Exposure    ResourceExposure   `json:"exposure"`
}

// Remediation effort model: a group costs RemediationBaseHours to plan and
// verify, plus RemediationHoursPerResource[severity] for each affected
// resource (higher severities usually need a change review and a careful
// rollout).
const RemediationBaseHours = 1.0

// RemediationHoursPerResource is the per-resource effort by severity.
var RemediationHoursPerResource = map[Severity]float64{
	SeverityCritical: 1.0, SeverityHigh: 0.75, SeverityMedium: 0.5, SeverityLow: 0.25, SeverityInfo: 0.1,
}

// RemediationEffortHours applies the effort model to one group.
func RemediationEffortHours(s Severity, resources int64) float64 {
	return math.Round((RemediationBaseHours+RemediationHoursPerResource[s]*float64(resources))*10) / 10
}

// Bounds of a remediation plan: a group lists at most
// RemediationResourcesPerGroup affected resources (ResourcesOmitted says how
// many more, and ResourcesQuery lists them all through the API), and a plan
// holds at most MaxRemediationGroups groups (GroupsOmitted says how many
// more).
const (
	RemediationResourcesPerGroup = 50
	MaxRemediationGroups         = 5000
)

// RemediationPlanReport is the body of a remediation_plan report: how to
// fix each rule once (Playbooks, in priority order), then the work per
// owner (Groups: one per owner and rule). Owners come by the weight of
// their open findings (PostureWeights), heaviest first; within an owner,
// groups come in priority order: severity (critical first), then the
// number of affected resources tagged as production, then the number of
// affected resources, then the rule id.
type RemediationPlanReport struct {
	Summary   RemediationSummary    `json:"summary"`
	Playbooks []RemediationPlaybook `json:"playbooks"`
	Groups    []RemediationGroup    `json:"groups"`
}

// RemediationSummary totals a remediation plan; it is known before the
// groups are, so a plan can be written one group at a time.
type RemediationSummary struct {
	Groups        int64         `json:"groups"`
	GroupsOmitted int64         `json:"groups_omitted"`
	Findings      int64         `json:"findings"`
	EffortHours   float64       `json:"effort_hours"`
	BySeverity    []SeverityRow `json:"by_severity"`
	// Owners lists the owners of the plan's groups in the groups' order.
	Owners []OwnerWork `json:"owners"`
	// Checklist is how to work through any group, said once.
	Checklist []string `json:"checklist"`
}

// OwnerWork totals one owner's groups.
type OwnerWork struct {
	Owner string `json:"owner"`
	// OwnerSource says where the owner comes from: "tag" (the resources'
	// owner tag) or "account" (no owner tag: the account stands in).
	OwnerSource   string  `json:"owner_source"`
	Groups        int64   `json:"groups"`
	Findings      int64   `json:"findings"`
	Resources     int64   `json:"resources"`
	ProdResources int64   `json:"prod_resources"`
	EffortHours   float64 `json:"effort_hours"`
}

// RemediationPlaybook is how to fix one rule's findings, said once for
// every owner.
type RemediationPlaybook struct {
	RuleID    string    `json:"rule_id"`
	Title     string    `json:"title"`
	Severity  Severity  `json:"severity"`
	Dimension Dimension `json:"dimension"`
	Steps     []string  `json:"steps"`
	Findings  int64     `json:"findings"`
	Resources int64     `json:"resources"`
	Owners    int64     `json:"owners"`
}

// RemediationGroup is one owner's open findings of one rule: where, and
// how long it takes; the steps are in the rule's playbook.
type RemediationGroup struct {
	Priority         int                `json:"priority"` // 1 is the first to fix
	Owner            string             `json:"owner"`
	RuleID           string             `json:"rule_id"`
	Title            string             `json:"title"`
	Severity         Severity           `json:"severity"`
	Dimension        Dimension          `json:"dimension"`
	ResourcesTotal   int64              `json:"resources_total"`
	ProdResources    int64              `json:"prod_resources"`
	EffortHours      float64            `json:"effort_hours"`
	Resources        []AffectedResource `json:"resources"`
	ResourcesOmitted int64              `json:"resources_omitted"`
	ResourcesQuery   string             `json:"resources_query"`
}

// AffectedResource is a resource a finding is about, as a report lists it.
type AffectedResource struct {
	ResourceID string   `json:"resource_id"`
	FindingID  string   `json:"finding_id"`
	NativeID   string   `json:"native_id"` // the ARN or the provider's id
	Name       string   `json:"name"`
	Type       string   `json:"type"`
	Account    string   `json:"account"`
	Region     string   `json:"region"`
	Severity   Severity `json:"severity"`
	Prod       bool     `json:"prod"`
	// Environment is the value of the resource's environment tag
	// (ProdTagKeys); empty when it has none, which a report shows as
	// "not tagged", never as "not production".
	Environment string `json:"environment"`
	// Evidence is what the check read and judged: the attribute values of
	// the failing finding's evidence. Compliance evidence only.
	Evidence json.RawMessage `json:"evidence,omitempty"`
	// ObservedAt is when fourd last imported the resource's configuration
	// (its latest sighting when the report was built). Compliance evidence
	// only.
	ObservedAt *time.Time `json:"observed_at,omitempty"`
	// CapturedAt is when the source captured the configuration the check
	// read (AWS Config's configurationItemCaptureTime); absent when the
	// input had no time (Terraform state, NDJSON), and the report then
	// shows ObservedAt, said to be the import's. Compliance evidence only.
	CapturedAt *time.Time `json:"captured_at,omitempty"`
}

// ControlStatus is a compliance control's status as an audit judges it:
// passed, failed, insufficient_data, not_applicable, manual or
// not_assessed (issue 33 §4 names them passed, failed, manual and
// insufficient data).
type ControlStatus string

// Compliance control statuses.
const (
	ControlPass          ControlStatus = "passed"
	ControlFail          ControlStatus = "failed"
	ControlNotApplicable ControlStatus = "not_applicable"
	// ControlInsufficientData: nothing failed, but some resources could
	// not be judged because the inventory lacked what a mapped rule reads.
	ControlInsufficientData ControlStatus = "insufficient_data"
	// ControlManual: CIS marks the control Manual and no rule checks it.
	ControlManual ControlStatus = "manual"
	// ControlNotAssessed: no rule checks the control (Note says why, when
	// known).
	ControlNotAssessed ControlStatus = "not_assessed"
)

// MaxFailingResourcesPerControl bounds the failing resources a control
// lists, each once (with its most severe finding); FailingOmitted counts the
// failing findings of the resources not listed.
const MaxFailingResourcesPerControl = 25

// ComplianceEvidenceReport is the body of a compliance_evidence report.
type ComplianceEvidenceReport struct {
	Frameworks []ComplianceFramework `json:"frameworks"`
	// Checks is the evidence of every failing check (a rule with open
	// findings that some control of the selected frameworks maps to),
	// each once however many controls it fails: broad mappings (NIST
	// 800-53 maps one check to dozens of controls) would repeat the same
	// resources under each. Controls name their checks in Rules.
	Checks []ComplianceCheck `json:"checks"`
}

// ComplianceCheck is one failing check with its failing resources and what
// the check read on each, and the controls it fails.
type ComplianceCheck struct {
	RuleID    string    `json:"rule_id"`
	Title     string    `json:"title"`
	Severity  Severity  `json:"severity"` // the highest of its open findings
	Dimension Dimension `json:"dimension"`
	Findings  int64     `json:"findings"`
	Resources int64     `json:"resources"`
	// Controls are the controls of the selected frameworks it maps to.
	Controls []ControlRef `json:"controls"`
	// FailingResources lists the first MaxFailingResourcesPerControl
	// failing resources (most severe first, then by id), each with its
	// evidence; FailingOmitted counts the findings not listed, which
	// ResourcesQuery lists through the API.
	FailingResources []AffectedResource `json:"failing_resources"`
	FailingOmitted   int64              `json:"failing_omitted"`
	ResourcesQuery   string             `json:"resources_query"`
}

// ControlRef names one control of one framework.
type ControlRef struct {
	Framework string `json:"framework"`
	Control   string `json:"control"`
}

// ComplianceFramework is one framework with every control of its catalog
// (engine/compliance), in control order.
type ComplianceFramework struct {
	ID            string `json:"id"` // e.g. CIS-AWS-4.0.1
	Title         string `json:"title"`
	Passed        int    `json:"passed"`
	Failed        int    `json:"failed"`
	NotApplicable int    `json:"not_applicable"`
	// InsufficientData counts the controls with status insufficient_data.
	InsufficientData int `json:"insufficient_data"`
	Manual           int `json:"manual"`
	NotAssessed      int `json:"not_assessed"`
	// ScorePercent is the share of assessed (passed or failed) controls
	// that passed, 100 × Passed / (Passed + Failed), one decimal; null when
	// none was assessed.
	ScorePercent *float64            `json:"score_percent"`
	Controls     []ComplianceControl `json:"controls"`
}

// ComplianceControl is one control's status with its evidence. A control
// no rule checks is manual (CIS marks it Manual) or not_assessed. Else it
// fails when a mapped rule has an open finding; passes when the rules
// judged some resource; has insufficient_data when every resource they met
// lacked what they read (ResourcesNotEvaluated: unknown is not false, and
// not a pass either); and is not_applicable when no resource of the rules'
// types was audited.
type ComplianceControl struct {
	ID      string `json:"id"` // e.g. 2.1.4
	Title   string `json:"title"`
	Section string `json:"section"`
	// Level is the CIS profile level and Assessment CIS's automated or
	// manual; both empty for other frameworks.
	Level      string        `json:"level,omitempty"`
	Assessment string        `json:"assessment,omitempty"`
	Status     ControlStatus `json:"status"`
	// Note says why a CIS Automated control is not assessed, when known.
	Note             string             `json:"note,omitempty"`
	Rules            []string           `json:"rules"`
	ResourcesChecked int64              `json:"resources_checked"`
	ResourcesFailing int64              `json:"resources_failing"`
	FailingResources []AffectedResource `json:"failing_resources"`
	FailingOmitted   int64              `json:"failing_omitted"`
	// ResourcesPassing counts, over the control's rules, the resources each
	// judged and passed in the audit (passed and failed controls only);
	// PassingResources is a sample of them with what the check read (at
	// most MaxPassingResourcesPerControl, explained when the report was
	// built; only for checks that read the resource alone), PassingOmitted
	// the rest.
	ResourcesPassing int64             `json:"resources_passing"`
	PassingResources []PassingResource `json:"passing_resources"`
	PassingOmitted   int64             `json:"passing_omitted"`
	// ResourcesNotEvaluated counts, over the mapped rules, the resources
	// (or accounts) the audit could not judge for want of data.
	ResourcesNotEvaluated int64     `json:"resources_not_evaluated"`
	AuditID               string    `json:"audit_id"`
	EvaluatedAt           time.Time `json:"evaluated_at"`
}
