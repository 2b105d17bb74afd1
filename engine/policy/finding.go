package policy

import (
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Finding is the finding a raise policy produces on a resource it matched:
// the stable id of (tenant, policy, resource), the policy's id as the rule
// id, its dimension and severity, title and remediation rendered for the
// resource (the title defaults to the policy's name), evidence naming the
// policy version and expression, the resource's denormalized fields, status
// open, and first/last seen at now. The audit runner sets AuditID and keeps
// FirstSeenAt from an earlier snapshot. The evidence bytes are shared by
// every finding of the program: treat them as read-only.
func (p *Program) Finding(res engine.Resource, now time.Time) engine.Finding {
	return engine.Finding{
		ID:           engine.FindingID(p.policy.TenantID, p.policy.ID, res.ID),
		TenantID:     p.policy.TenantID,
		ResourceID:   res.ID,
		RuleID:       p.policy.ID,
		Dimension:    p.policy.Dimension,
		Severity:     p.policy.Severity,
		Status:       engine.StatusOpen,
		Title:        p.title.render(&res),
		Description:  p.policy.Description,
		Remediation:  p.remediation.render(&res),
		Evidence:     p.evidence,
		Compliance:   []string{},
		ResourceType: res.Type,
		Provider:     res.Provider,
		Account:      res.Account,
		Region:       res.Region,
		FirstSeenAt:  now,
		LastSeenAt:   now,
	}
}

// AdjustSeverity is the severity a severity policy gives a finding it
// matched, and whether that differs from the finding's: at least the
// policy's severity for severity_at_least, at most for severity_at_most. A
// raise policy leaves every finding as it is. When several severity policies
// match one finding, the runner applies every severity_at_least first and
// then every severity_at_most, so that lowering wins deterministically.
func (p *Program) AdjustSeverity(f engine.Finding) (engine.Severity, bool) {
	have, want := f.Severity.Rank(), p.policy.Severity.Rank()
	switch p.policy.Effect {
	case engine.PolicySeverityAtLeast:
		if have < want {
			return p.policy.Severity, true
		}
	case engine.PolicySeverityAtMost:
		if have > want {
			return p.policy.Severity, true
		}
	}
	return f.Severity, false
}
