package engine

import (
	"cmp"
	"context"
	"math"
	"net/url"
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
	if err := b.failingEvidence(ctx, failing, resources); err != nil {
		return nil, err
	}
	refs := map[string][]ControlRef{}
	rep := &ComplianceEvidenceReport{Frameworks: make([]ComplianceFramework, 0, len(frameworks))}
	evaluated := b.audit.CompletedAt.UTC()
	for _, fw := range frameworks {
		out := ComplianceFramework{ID: fw.ID, Title: fw.Title, Controls: make([]ComplianceControl, 0, len(fw.Controls))}
		for _, c := range fw.Controls {
			ctl := ComplianceControl{ID: c.ID, Title: c.Title, Section: c.Section, Level: c.Level, Assessment: c.Assessment,
				Rules: slices.Clone(c.Rules), AuditID: b.audit.ID, EvaluatedAt: evaluated, FailingResources: []AffectedResource{}}
			if ctl.Rules == nil {
				ctl.Rules = []string{}
			}
			if len(c.Rules) == 0 {
				if c.Assessment == AssessmentManual {
					ctl.Status = ControlManual
					out.Manual++
				} else {
					ctl.Status, ctl.Note = ControlNotAssessed, c.Gap
					out.NotAssessed++
				}
				out.Controls = append(out.Controls, ctl)
				continue
			}
			var failingFindings int64
			for _, r := range c.Rules {
				if byRule[r].Findings > 0 {
					refs[r] = append(refs[r], ControlRef{Framework: fw.ID, Control: c.ID})
				}
				ctl.ResourcesFailing += byRule[r].Resources
				failingFindings += byRule[r].Findings
				ctl.FailingResources = append(ctl.FailingResources, resources[r]...)
			}
			j := b.judgeControl(c, func(r string) int64 { return byRule[r].Findings }, types)
			ctl.ResourcesChecked, ctl.ResourcesNotEvaluated = j.checked, j.notEvaluated
			slices.SortStableFunc(ctl.FailingResources, func(x, y AffectedResource) int {
				return cmp.Or(cmp.Compare(y.Severity.Rank(), x.Severity.Rank()), cmp.Compare(x.ResourceID, y.ResourceID))
			})
			var covered int64
			ctl.FailingResources, covered = distinctResources(ctl.FailingResources, MaxFailingResourcesPerControl)
			ctl.FailingOmitted = max(failingFindings-covered, 0)
			// Checked counts the resources of the rules' types; a failing
			// account-level rule has none, so count what failed.
			ctl.ResourcesChecked = max(ctl.ResourcesChecked, ctl.ResourcesFailing)
			ctl.Status = j.status
			switch ctl.Status {
			case ControlFail:
				out.Failed++
			case ControlInsufficientData:
				out.InsufficientData++
			case ControlNotApplicable:
				out.NotApplicable++
			default:
				out.Passed++
			}
			out.Controls = append(out.Controls, ctl)
		}
		if assessed := out.Passed + out.Failed; assessed > 0 {
			score := math.Round(1000*float64(out.Passed)/float64(assessed)) / 10
			out.ScorePercent = &score
		}
		rep.Frameworks = append(rep.Frameworks, out)
	}
	rep.Checks = b.complianceChecks(failing, byRule, refs, resources)
	return rep, nil
}

// failingEvidence fills in what the checks read on the failing resources
// and when the resources were observed, in one batched read.
func (b *reportBuilder) failingEvidence(ctx context.Context, failing []string, resources map[string][]AffectedResource) error {
	var all []AffectedResource
	for _, r := range failing {
		all = append(all, resources[r]...)
	}
	if err := b.svc.cfg.Reporting.Analytics.AffectedEvidence(ctx, b.scope, all); err != nil {
		return err
	}
	off := 0
	for _, r := range failing {
		n := len(resources[r])
		resources[r] = all[off : off+n : off+n]
		off += n
	}
	return nil
}

// complianceChecks lists the failing checks once each, with their
// resources and the controls they fail: the most severe first, then by
// open findings, then by rule id.
func (b *reportBuilder) complianceChecks(failing []string, byRule map[string]RuleTotals, refs map[string][]ControlRef,
	resources map[string][]AffectedResource) []ComplianceCheck {
	out := make([]ComplianceCheck, 0, len(failing))
	for _, r := range failing {
		t := byRule[r]
		c := ComplianceCheck{RuleID: r, Title: b.ruleTitle(r, t.Title), Severity: t.Severity, Dimension: t.Dimension,
			Findings: t.Findings, Resources: t.Resources, Controls: refs[r], FailingResources: slices.Clone(resources[r])}
		if c.Controls == nil {
			c.Controls = []ControlRef{}
		}
		if c.FailingResources == nil {
			c.FailingResources = []AffectedResource{}
		}
		c.FailingOmitted = max(t.Findings-int64(len(c.FailingResources)), 0)
		q := url.Values{"audit_id": {b.audit.ID}, "rule_id": {r}, "status": {"open"}}
		c.ResourcesQuery = "/v1/findings?" + q.Encode()
		out = append(out, c)
	}
	slices.SortStableFunc(out, func(x, y ComplianceCheck) int {
		return cmp.Or(cmp.Compare(y.Severity.Rank(), x.Severity.Rank()), cmp.Compare(y.Findings, x.Findings), cmp.Compare(x.RuleID, y.RuleID))
	})
	return out
}

// controlJudgement is what an audit says of one control some rules check.
type controlJudgement struct {
	status       string
	checked      int64 // resources of the control's types
	notEvaluated int64 // resources its rules could not judge
}

// judgeControl judges a control some rules check from its rules' open
// findings (findings), the tenant's resources by type and the audit's
// not-evaluated counts. The compliance evidence report and the executive
// summary's compliance posture both judge controls with it, so that they
// agree.
func (b *reportBuilder) judgeControl(c CatalogControl, findings func(rule string) int64, types map[string]int64) controlJudgement {
	var j controlJudgement
	for _, t := range c.ResourceTypes {
		j.checked += types[t]
	}
	var failing int64
	judged := false
	for _, r := range c.Rules {
		var notEvaluated, ofTypes int64
		if b.audit.Summary != nil {
			notEvaluated = b.audit.Summary.NotEvaluated[r]
		}
		if info, ok := b.svc.cfg.Reporting.Catalog.Rule(r); ok {
			for _, t := range info.ResourceTypes {
				ofTypes += types[t]
			}
		}
		judged = judged || ofTypes > notEvaluated
		j.notEvaluated += notEvaluated
		failing += findings(r)
	}
	j.status = controlStatus(failing, judged, j.checked, j.notEvaluated)
	return j
}

// controlStatus judges a control some rules check: failed on a finding;
// insufficient data when no rule judged any resource (judged: some rule
// met more resources of its types than it left not evaluated) but some
// were left not evaluated; not applicable when there was nothing to
// check; passed otherwise.
func controlStatus(failingFindings int64, judged bool, checked, notEvaluated int64) string {
	switch {
	case failingFindings > 0:
		return ControlFail
	case !judged && notEvaluated > 0:
		return ControlInsufficientData
	case checked == 0:
		return ControlNotApplicable
	}
	return ControlPass
}

// frameworkSelected reports whether the frameworks filter keeps id (a
// filter value selects frameworks by id prefix).
func (b *reportBuilder) frameworkSelected(id string) bool {
	if len(b.filters.Frameworks) == 0 {
		return true
	}
	return slices.ContainsFunc(b.filters.Frameworks, func(p string) bool { return strings.HasPrefix(id, p) })
}

// distinctResources keeps the first finding of each resource of rs (sorted
// most severe first), at most limit of them: a resource failing several of
// a control's rules is listed once. covered counts the findings of rs whose
// resource is kept.
func distinctResources(rs []AffectedResource, limit int) (kept []AffectedResource, covered int64) {
	seen := map[string]bool{}
	kept = rs[:0]
	for _, r := range rs {
		switch {
		case seen[r.ResourceID]:
			covered++
		case len(kept) < limit:
			seen[r.ResourceID] = true
			kept = append(kept, r)
			covered++
		}
	}
	return kept, covered
}
