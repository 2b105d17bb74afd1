package engine

import (
	"encoding/json"
	"time"
)

// The outcomes of a check in a ResourceExplanation.
const (
	CheckPassed       = "passed"
	CheckFailed       = "failed"
	CheckNotEvaluated = "not_evaluated"
)

// ResourceExplanation is what the built-in rule pack makes of one resource
// of the tenant's inventory now: every check that applies to it, what each
// read and its outcome. It is what a user reaches for when a finding looks
// wrong, or a missing one.
type ResourceExplanation struct {
	Resource    Resource           `json:"resource"`
	EvaluatedAt time.Time          `json:"evaluated_at"`
	Checks      []CheckExplanation `json:"checks"`
	// Passed, Failed and NotEvaluated count Checks by outcome.
	Passed       int `json:"passed"`
	Failed       int `json:"failed"`
	NotEvaluated int `json:"not_evaluated"`
}

// CheckExplanation is one check on one resource.
type CheckExplanation struct {
	RuleID    string    `json:"rule_id"`
	Title     string    `json:"title"`
	Dimension Dimension `json:"dimension"`
	// Scope is resource (the check reads the resource alone), join (it also
	// reads facts of other resources of the account, e.g. the account's S3
	// public access block) or account (an account-wide rule, judged on the
	// account's aws_iam_account resource).
	Scope   string `json:"scope"`
	Outcome string `json:"outcome"` // passed, failed or not_evaluated
	// Severity is the finding's severity when failed (null otherwise);
	// DefaultSeverity the rule's, and Reason why they differ (or, for a
	// check not evaluated, why when it is not only missing attributes).
	Severity        *Severity `json:"severity"`
	DefaultSeverity Severity  `json:"default_severity"`
	Reason          string    `json:"reason,omitempty"`
	// Evidence is what the check read: the attribute values it judged,
	// for a pass as for a failure.
	Evidence json.RawMessage `json:"evidence"`
	// Missing names the attributes a check not evaluated lacked; empty
	// otherwise.
	Missing []string `json:"missing"`
}

// Explainer runs the built-in checks on one resource. engine/audit's
// Evaluators implements it; a Service whose Evaluators does not cannot
// explain.
type Explainer interface {
	// ExplainNeeds names what Explain needs of the resource's account for
	// a resource of the type: the types of other resources its checks
	// join, or all of the account's resources.
	ExplainNeeds(resourceType string) (types []string, all bool)
	// Explain runs every check that applies to res, given the resources
	// of its account that ExplainNeeds named.
	Explain(res Resource, account []Resource, now time.Time) []CheckExplanation
}

// ResourceIDOf is the id of a resource of the tenant named by ref: ref
// itself when it is a resource id, else the id of the AWS resource whose
// native id (an ARN, an instance id…) ref is.
func ResourceIDOf(tenantID, ref string) string {
	if ValidID(PrefixResource, ref) {
		return ref
	}
	return ResourceID(tenantID, "aws", ref) // the importers' only provider
}
