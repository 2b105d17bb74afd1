package reporting

import (
	"context"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// The stores reporting calls, each only the methods it needs;
// store/clickhouse and store/postgres implement them (cmd/fourd asserts
// it at compile time).

// Analytics answers the analytic queries reports are built from
// (store/clickhouse). Every method reads only scope's snapshot; an audit
// whose snapshot is missing simply has no rows.
type Analytics interface {
	// TopResources returns the limit resources whose open findings weigh
	// most (PostureWeights), heaviest first.
	TopResources(ctx context.Context, scope engine.ReportScope, limit int) ([]engine.ResourceRank, error)
	// CostByRule sums the open cost findings' monthly figures
	// (evidence estimated_monthly_usd, else estimated_monthly_saving_usd)
	// per rule.
	CostByRule(ctx context.Context, scope engine.ReportScope) ([]engine.RuleCost, error)
	// RuleTotals returns every rule with open findings in remediation
	// priority order: severity, production resources, resources, rule id.
	RuleTotals(ctx context.Context, scope engine.ReportScope) ([]engine.RuleTotals, error)
	// AffectedResources returns, for each of ruleIDs, the first perRule of
	// its open findings (most severe first, then by resource id) with their
	// resources. validation_failed for more than MaxAffectedRules rules.
	AffectedResources(ctx context.Context, scope engine.ReportScope, ruleIDs []string, perRule int) (map[string][]engine.AffectedResource, error)
	// OwnerRuleTotals returns every (owner, rule) pair with open findings,
	// by owner then in the rule's remediation priority order. A resource's
	// owner is its tag whose key is OwnerTagKey (any case), else its
	// account (ResourceOwner).
	OwnerRuleTotals(ctx context.Context, scope engine.ReportScope) ([]engine.OwnerRuleTotals, error)
	// OwnerAffectedResources returns, for each pair, the first perGroup of
	// its open findings (most severe first, then by resource id) with their
	// resources. validation_failed for more than MaxAffectedRules pairs.
	OwnerAffectedResources(ctx context.Context, scope engine.ReportScope, pairs []engine.OwnerRule, perGroup int) (map[engine.OwnerRule][]engine.AffectedResource, error)
	// AffectedEvidence fills in rows' Evidence (their findings' evidence
	// in scope's snapshot: what the check read), ObservedAt (their
	// resources' latest sighting) and CapturedAt (when the source captured
	// their stored configuration, when known), in place.
	AffectedEvidence(ctx context.Context, scope engine.ReportScope, rows []engine.AffectedResource) error
	// SevereResources counts the distinct resources with at least one
	// open critical or high finding in scope (decisions applied).
	SevereResources(ctx context.Context, scope engine.ReportScope) (int64, error)
	// ResourceCountsByType counts the tenant's resources by type.
	ResourceCountsByType(ctx context.Context, tenantID string) (map[string]int64, error)
	// SampleResourceIDs returns, per type, the ids of the tenant's first
	// perType resources of that type (lowest ids first); types it has none
	// of are absent.
	SampleResourceIDs(ctx context.Context, tenantID string, types []string, perType int) (map[string][]string, error)
}

// Store reads report jobs and their documents (store/postgres).
type Store interface {
	GetReport(ctx context.Context, tenantID, id string) (engine.Report, error)
	// ListReports returns up to q.Limit reports, newest first, strictly
	// before q.BeforeID.
	ListReports(ctx context.Context, q engine.ReportQuery) ([]engine.Report, error)
}

// Jobs is the write side of reports: the job queue and the stored
// content (store/postgres).
type Jobs interface {
	// CreateReport stores a new pending report; conflict when the id exists,
	// validation_failed for an audit that is not the tenant's.
	CreateReport(ctx context.Context, r engine.Report) error
	// ReportContent returns a ready report's content in format "json" or
	// "pdf"; not_found when the report is missing, another tenant's or not
	// ready; validation_failed for another format.
	ReportContent(ctx context.Context, tenantID, id, format string) ([]byte, error)
}

// Queue is the job side of reports a worker uses (store/postgres).
type Queue interface {
	// ClaimReportJob gives worker the oldest pending report for lease; a
	// report whose worker's lease expired is claimed again. not_found when
	// nothing is pending.
	ClaimReportJob(ctx context.Context, worker string, lease time.Duration) (engine.ReportJob, error)
	// CompleteReport stores a claimed report's outcome: ready with its
	// content, or failed with a reason. not_found when the report is no
	// longer pending (it is finished once).
	CompleteReport(ctx context.Context, out engine.ReportOutcome) error
}
