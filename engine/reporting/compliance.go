package reporting

import (
	"cmp"
	"context"
	"net/url"
	"slices"
	"strings"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/posture"
	"golang.org/x/sync/errgroup"
)

// complianceEvidence builds the body of a compliance_evidence report: every
// control of the selected frameworks with its status (the compliance judge,
// engine/posture, as the posture API answers) and evidence.
func (b *reportBuilder) complianceEvidence(ctx context.Context) (*engine.ComplianceEvidenceReport, error) {
	facts, err := posture.Gather(ctx, b.svc.cfg.Analytics, b.svc.cfg.Catalog, b.scope.TenantID, b.audit, b.counts)
	if err != nil {
		return nil, err
	}
	var frameworks []engine.CatalogFramework
	for _, fw := range b.svc.cfg.Catalog.Frameworks() {
		if b.frameworkSelected(fw.ID) {
			frameworks = append(frameworks, fw)
		}
	}
	// The passing sample of every rule of a judged (passed or failed)
	// control, read while the failing evidence is.
	var judgedRules []string
	for _, fw := range frameworks {
		_, judged := facts.JudgeFramework(fw)
		for i, c := range fw.Controls {
			if s := judged[i].Status; s == engine.ControlPass || s == engine.ControlFail {
				for _, r := range c.Rules {
					if !slices.Contains(judgedRules, r) {
						judgedRules = append(judgedRules, r)
					}
				}
			}
		}
	}
	var passing map[string][]engine.PassingResource
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) { passing, err = b.passingEvidence(gctx, judgedRules); return err })
	var (
		byRule    map[string]engine.RuleTotals
		failing   []string
		resources = map[string][]engine.AffectedResource{}
	)
	g.Go(func() error {
		// The failing checks' titles, severities and distinct resources,
		// for the list of failing checks; which checks fail is the judge's.
		totals, err := b.svc.cfg.Analytics.RuleTotals(gctx, b.scope)
		if err != nil {
			return err
		}
		byRule = make(map[string]engine.RuleTotals, len(totals))
		for _, t := range totals {
			byRule[t.RuleID] = t
		}
		// The failing rules' first resources, read a bounded batch at a time.
		for _, fw := range frameworks {
			for _, c := range fw.Controls {
				for _, r := range c.Rules {
					if facts.Failing(r) > 0 && !slices.Contains(failing, r) {
						failing = append(failing, r)
					}
				}
			}
		}
		a := b.svc.cfg.Analytics
		for lo := 0; lo < len(failing); lo += engine.MaxAffectedRules {
			got, err := a.AffectedResources(gctx, b.scope, failing[lo:min(lo+engine.MaxAffectedRules, len(failing))], engine.MaxFailingResourcesPerControl)
			if err != nil {
				return err
			}
			for k, v := range got {
				resources[k] = v
			}
		}
		return b.failingEvidence(gctx, failing, resources)
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	refs := map[string][]engine.ControlRef{}
	rep := &engine.ComplianceEvidenceReport{Frameworks: make([]engine.ComplianceFramework, 0, len(frameworks))}
	evaluated := b.audit.CompletedAt.UTC()
	for _, fw := range frameworks {
		posture, judged := facts.JudgeFramework(fw)
		out := engine.ComplianceFramework{ID: fw.ID, Title: fw.Title, Passed: posture.Counts.Passed, Failed: posture.Counts.Failed,
			NotApplicable: posture.Counts.NotApplicable, InsufficientData: posture.Counts.InsufficientData,
			Manual: posture.Counts.Manual, NotAssessed: posture.Counts.NotAssessed, ScorePercent: posture.ScorePercent,
			Controls: make([]engine.ComplianceControl, 0, len(fw.Controls))}
		for i, c := range fw.Controls {
			j := judged[i]
			ctl := engine.ComplianceControl{ID: c.ID, Title: c.Title, Section: c.Section, Level: c.Level, Assessment: c.Assessment,
				Status: j.Status, Rules: j.Checks, AuditID: b.audit.ID, EvaluatedAt: evaluated, FailingResources: []engine.AffectedResource{},
				ResourcesChecked: j.ResourcesChecked, ResourcesFailing: j.FailingResources, ResourcesNotEvaluated: j.ResourcesNotEvaluated}
			if j.Status == engine.ControlNotAssessed {
				ctl.Note = c.Gap
			}
			ctl.PassingResources = []engine.PassingResource{}
			if j.Status == engine.ControlPass || j.Status == engine.ControlFail {
				ctl.ResourcesPassing = facts.PassingCount(c.Rules)
				ctl.PassingResources = controlPassing(c.Rules, passing)
				ctl.PassingOmitted = max(ctl.ResourcesPassing-int64(len(ctl.PassingResources)), 0)
			}
			for _, r := range c.Rules {
				if facts.Failing(r) > 0 {
					refs[r] = append(refs[r], engine.ControlRef{Framework: fw.ID, Control: c.ID})
				}
				ctl.FailingResources = append(ctl.FailingResources, resources[r]...)
			}
			slices.SortStableFunc(ctl.FailingResources, func(x, y engine.AffectedResource) int {
				return cmp.Or(cmp.Compare(y.Severity.Rank(), x.Severity.Rank()), cmp.Compare(x.ResourceID, y.ResourceID))
			})
			var covered int64
			ctl.FailingResources, covered = distinctResources(ctl.FailingResources, engine.MaxFailingResourcesPerControl)
			ctl.FailingOmitted = max(j.FailingFindings-covered, 0)
			out.Controls = append(out.Controls, ctl)
		}
		rep.Frameworks = append(rep.Frameworks, out)
	}
	rep.Checks = b.complianceChecks(failing, byRule, refs, resources)
	return rep, nil
}

// failingEvidence fills in what the checks read on the failing resources
// and when the resources were observed, in one batched read.
func (b *reportBuilder) failingEvidence(ctx context.Context, failing []string, resources map[string][]engine.AffectedResource) error {
	var all []engine.AffectedResource
	for _, r := range failing {
		all = append(all, resources[r]...)
	}
	if err := b.svc.cfg.Analytics.AffectedEvidence(ctx, b.scope, all); err != nil {
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
func (b *reportBuilder) complianceChecks(failing []string, byRule map[string]engine.RuleTotals, refs map[string][]engine.ControlRef,
	resources map[string][]engine.AffectedResource) []engine.ComplianceCheck {
	out := make([]engine.ComplianceCheck, 0, len(failing))
	for _, r := range failing {
		t := byRule[r]
		c := engine.ComplianceCheck{RuleID: r, Title: b.ruleTitle(r, t.Title), Severity: t.Severity, Dimension: t.Dimension,
			Findings: t.Findings, Resources: t.Resources, Controls: refs[r], FailingResources: slices.Clone(resources[r])}
		if c.Controls == nil {
			c.Controls = []engine.ControlRef{}
		}
		if c.FailingResources == nil {
			c.FailingResources = []engine.AffectedResource{}
		}
		c.FailingOmitted = max(t.Findings-int64(len(c.FailingResources)), 0)
		q := url.Values{"audit_id": {b.audit.ID}, "rule_id": {r}, "status": {"open"}}
		c.ResourcesQuery = "/v1/findings?" + q.Encode()
		out = append(out, c)
	}
	slices.SortStableFunc(out, func(x, y engine.ComplianceCheck) int {
		return cmp.Or(cmp.Compare(y.Severity.Rank(), x.Severity.Rank()), cmp.Compare(y.Findings, x.Findings), cmp.Compare(x.RuleID, y.RuleID))
	})
	return out
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
func distinctResources(rs []engine.AffectedResource, limit int) (kept []engine.AffectedResource, covered int64) {
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
