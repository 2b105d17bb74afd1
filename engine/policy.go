package engine

import "time"

// Policy is a tenant's custom rule layered on the 4D framework: a CEL
// expression over a resource that, when true, raises a finding.
type Policy struct {
	ID            string    `json:"id"`
	TenantID      string    `json:"-"`
	Name          string    `json:"name"`
	Description   string    `json:"description"`
	Expression    string    `json:"expression"`
	Dimension     Dimension `json:"dimension"`
	Severity      Severity  `json:"severity"`
	ResourceTypes []string  `json:"resource_types"`
	Title         string    `json:"title"`
	Remediation   string    `json:"remediation"`
	Enabled       bool      `json:"enabled"`
	Version       int       `json:"version"`
	CreatedAt     time.Time `json:"created_at"`
	UpdatedAt     time.Time `json:"updated_at"`
}

// PolicyQuery is one page of a tenant's policies, newest first.
type PolicyQuery struct {
	TenantID string
	BeforeID string
	Limit    int
}
