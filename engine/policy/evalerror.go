package policy

import "fmt"

// EvalReason classifies a failed evaluation.
type EvalReason string

// Reasons an evaluation fails.
const (
	// ReasonCostLimit: the evaluation exceeded the cost limit.
	ReasonCostLimit EvalReason = "cost_limit_exceeded"
	// ReasonSizeLimit: the evaluation built a string or list over the
	// limits (MaxValueBytes, MaxListElements, MaxBuiltBytes).
	ReasonSizeLimit EvalReason = "size_limit_exceeded"
	// ReasonRuntime: a runtime error, e.g. a missing map key ("no such
	// key"), a division by zero or a wrongly typed attribute.
	ReasonRuntime EvalReason = "runtime_error"
	// ReasonNotBool: an expression typed dyn produced something other than
	// a bool.
	ReasonNotBool EvalReason = "not_bool"
)

// EvalError is a failed evaluation of one policy on one resource. It is not
// an *engine.Error: the audit runner counts it, skips the resource for that
// policy and records it; a dry run counts it. Its message is safe to show
// the policy's author.
type EvalError struct {
	PolicyID   string
	ResourceID string
	Reason     EvalReason
	Message    string
}

func (e *EvalError) Error() string {
	return fmt.Sprintf("policy %s on resource %s: %s: %s", e.PolicyID, e.ResourceID, e.Reason, e.Message)
}
