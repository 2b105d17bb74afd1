package engine

import (
	"cmp"
	"context"
	"slices"
	"strings"
)

// complianceEvidence builds the body of a compliance_evidence report: every
// control of the selected frameworks with its status and evidence.
func (b *reportBuilder) complianceEvidence(ctx context.Context) (*ComplianceEvidenceReport, error) {
	a := b.svc.cfg.Reporting.Analytics
	totals, err := a.RuleTotals(ctx, b.scope)
	if err != nil {
		return nil, err
	}
	byRule := make(map[string]RuleTotals, len(totals))
	for _, t := range totals {
		byRule[t.RuleID] = t
	}
	types, err := a.ResourceCountsByType(ctx, b.scope.TenantID)
	if err != nil {
		return nil, err
	}
	var frameworks []CatalogFramework
	for _, fw := range b.svc.cfg.Reporting.Catalog.Frameworks() {
		if b.frameworkSelected(fw.ID) {
			frameworks = append(frameworks, fw)
		}
	}
	// The failing rules' first resources, read a bounded batch at a time.
	var failing []string
	for _, fw := range frameworks {
		for _, c := range fw.Controls {
			for _, r := range c.Rules {
				if byRule[r].Findings > 0 && !slices.Contains(failing, r) {
					failing = append(failing, r)
				}
			}
		}
	}
	resources := map[string][]AffectedResource{}
	for lo := 0; lo < len(failing); lo += MaxAffectedRules {
		got, err := a.AffectedResources(ctx, b.scope, failing[lo:min(lo+MaxAffectedRules, len(failing))], MaxFailingResourcesPerControl)
		if err != nil {
			return nil, err
		}
		for k, v := range got {
			resources[k] = v
		}
	}
	rep := &ComplianceEvidenceReport{Frameworks: make([]ComplianceFramework, 0, len(frameworks))}
	evaluated := b.audit.CompletedAt.UTC()
	for _, fw := range frameworks {
		out := ComplianceFramework{ID: fw.ID, Title: fw.Title, Controls: make([]ComplianceControl, 0, len(fw.Controls))}
		for _, c := range fw.Controls {
			ctl := ComplianceControl{ID: c.ID, Title: c.Title, Rules: slices.Clone(c.Rules), AuditID: b.audit.ID,
				EvaluatedAt: evaluated, FailingResources: []AffectedResource{}}
			for _, t := range c.ResourceTypes {
				ctl.ResourcesChecked += types[t]
			}
			var failingFindings int64
			for _, r := range c.Rules {
				if b.audit.Summary != nil {
					ctl.ResourcesNotEvaluated += b.audit.Summary.NotEvaluated[r]
				}
				ctl.ResourcesFailing += byRule[r].Resources
				failingFindings += byRule[r].Findings
				ctl.FailingResources = append(ctl.FailingResources, resources[r]...)
			}
			slices.SortStableFunc(ctl.FailingResources, func(x, y AffectedResource) int {
				return cmp.Or(cmp.Compare(y.Severity.Rank(), x.Severity.Rank()), cmp.Compare(x.ResourceID, y.ResourceID))
			})
			if len(ctl.FailingResources) > MaxFailingResourcesPerControl {
				ctl.FailingResources = ctl.FailingResources[:MaxFailingResourcesPerControl]
			}
			ctl.FailingOmitted = max(failingFindings-int64(len(ctl.FailingResources)), 0)
			// Checked counts the resources of the rules' types; a failing
			// account-level rule has none, so count what failed.
			ctl.ResourcesChecked = max(ctl.ResourcesChecked, ctl.ResourcesFailing)
			switch {
			case failingFindings > 0:
				ctl.Status = ControlFail
				out.Failed++
			case ctl.ResourcesNotEvaluated > 0:
				ctl.Status = ControlInsufficientData
				out.InsufficientData++
			case ctl.ResourcesChecked == 0:
				ctl.Status = ControlNotApplicable
				out.NotApplicable++
			default:
				ctl.Status = ControlPass
				out.Passed++
			}
			out.Controls = append(out.Controls, ctl)
		}
		rep.Frameworks = append(rep.Frameworks, out)
	}
	return rep, nil
}

// frameworkSelected reports whether the frameworks filter keeps id (a
// filter value selects frameworks by id prefix).
func (b *reportBuilder) frameworkSelected(id string) bool {
	if len(b.filters.Frameworks) == 0 {
		return true
	}
	return slices.ContainsFunc(b.filters.Frameworks, func(p string) bool { return strings.HasPrefix(id, p) })
}
