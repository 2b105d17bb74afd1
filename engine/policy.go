package engine

import "time"

// PolicyEffect says what a policy does when its expression is true.
type PolicyEffect string

// Policy effects.
const (
	// PolicyRaise raises a finding on each resource the expression matches,
	// with the policy's dimension, severity, title and remediation. The
	// expression sees `resource`.
	PolicyRaise PolicyEffect = "raise"
	// PolicySeverityAtLeast raises the severity of every built-in finding
	// the expression matches to at least the policy's severity, e.g. "any
	// finding on a resource tagged env=prod is at least high". The
	// expression sees `resource` and `finding`.
	PolicySeverityAtLeast PolicyEffect = "severity_at_least"
	// PolicySeverityAtMost lowers matched findings to at most the policy's
	// severity (e.g. sandboxes).
	PolicySeverityAtMost PolicyEffect = "severity_at_most"
)

// PolicyEffects lists the policy effects.
var PolicyEffects = []PolicyEffect{PolicyRaise, PolicySeverityAtLeast, PolicySeverityAtMost}

// Policy is a tenant's custom rule layered on the 4D framework: a CEL
// expression over a resource that, when true, raises a finding.
type Policy struct {
	ID            string       `json:"id"`
	TenantID      string       `json:"-"`
	Name          string       `json:"name"`
	Description   string       `json:"description"`
	Expression    string       `json:"expression"`
	Effect        PolicyEffect `json:"effect"`
	Dimension     Dimension    `json:"dimension"`
	Severity      Severity     `json:"severity"`
	ResourceTypes []string     `json:"resource_types"`
	Title         string       `json:"title"`
	Remediation   string       `json:"remediation"`
	Enabled       bool         `json:"enabled"`
	Version       int          `json:"version"`
	CreatedAt     time.Time    `json:"created_at"`
	UpdatedAt     time.Time    `json:"updated_at"`
}

// PolicyQuery is one page of a tenant's policies, newest first.
type PolicyQuery struct {
	TenantID string
	BeforeID string
	Limit    int
}
