package engine

// PolicyInput is a policy as a caller writes it. On update, nil fields are
// left as they are.
type PolicyInput struct {
	Name          *string
	Description   *string
	Expression    *string
	Effect        *PolicyEffect
	Dimension     *Dimension
	Severity      *Severity
	ResourceTypes *[]string
	Title         *string
	Remediation   *string
	Enabled       *bool
}

// DefaultDryRunLimit is how many matches a dry run returns by default.
const DefaultDryRunLimit = 50
