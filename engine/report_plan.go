package engine

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"
)

// remediationBatch is how many groups a remediation plan reads resources
// for at a time: memory holds one batch of groups, not the plan.
const remediationBatch = 200

// writeRemediationPlan streams a remediation plan: the summary first, then
// the groups in priority order, a batch at a time, to both formats.
func (b *reportBuilder) writeRemediationPlan(ctx context.Context, jsonW, pdfW io.Writer) error {
	start := time.Now()
	totals, err := b.svc.cfg.Reporting.Analytics.RuleTotals(ctx, b.scope)
	b.timings.Queries += time.Since(start)
	if err != nil {
		return err
	}
	sum := RemediationSummary{BySeverity: severityMatrix(b.counts)}
	for _, c := range b.counts {
		sum.Findings += c.Count
	}
	if len(totals) > MaxRemediationGroups {
		sum.GroupsOmitted = int64(len(totals) - MaxRemediationGroups)
		totals = totals[:MaxRemediationGroups]
	}
	sum.Groups = int64(len(totals))
	for _, t := range totals {
		sum.EffortHours += RemediationEffortHours(t.Severity, t.Resources)
	}
	sum.EffortHours = float64(int64(sum.EffortHours*10+0.5)) / 10
	doc := b.document()
	doc.RemediationPlan = &RemediationPlanReport{Summary: sum, Groups: []RemediationGroup{}}
	start = time.Now()
	w, err := b.svc.cfg.Reporting.Renderer.NewRemediationWriter(jsonW, pdfW, doc)
	b.timings.Rendering += time.Since(start)
	if err != nil {
		return err
	}
	for lo := 0; lo < len(totals); lo += remediationBatch {
		batch := totals[lo:min(lo+remediationBatch, len(totals))]
		ids := make([]string, len(batch))
		for i, t := range batch {
			ids[i] = t.RuleID
		}
		start = time.Now()
		res, err := b.svc.cfg.Reporting.Analytics.AffectedResources(ctx, b.scope, ids, RemediationResourcesPerGroup)
		b.timings.Queries += time.Since(start)
		if err != nil {
			return err
		}
		start = time.Now()
		for i, t := range batch {
			if err := w.WriteGroup(b.remediationGroup(lo+i+1, t, res[t.RuleID])); err != nil {
				return err
			}
		}
		b.timings.Rendering += time.Since(start)
	}
	start = time.Now()
	defer func() { b.timings.Rendering += time.Since(start) }()
	return w.Close()
}

// remediationGroup describes one rule's open findings as a plan's group.
func (b *reportBuilder) remediationGroup(priority int, t RuleTotals, res []AffectedResource) RemediationGroup {
	g := RemediationGroup{Priority: priority, RuleID: t.RuleID, Title: b.ruleTitle(t.RuleID, t.Title),
		Severity: t.Severity, Dimension: t.Dimension, ResourcesTotal: t.Resources, ProdResources: t.Prod,
		EffortHours: RemediationEffortHours(t.Severity, t.Resources), Resources: res}
	remediation := t.Remediation
	if r, ok := b.svc.cfg.Reporting.Catalog.Rule(t.RuleID); ok && r.Remediation != "" {
		remediation = r.Remediation
	}
	g.Steps = remediationSteps(remediation, g.Title)
	if g.Resources == nil {
		g.Resources = []AffectedResource{}
	}
	g.ResourcesOmitted = max(t.Findings-int64(len(g.Resources)), 0)
	q := url.Values{"audit_id": {b.audit.ID}, "rule_id": {t.RuleID}, "status": {"open"}}
	g.ResourcesQuery = "/v1/findings?" + q.Encode()
	g.Checklist = []string{fmt.Sprintf("Confirm an owner for each of the %d affected resources", t.Resources)}
	if t.Prod > 0 {
		g.Checklist = append(g.Checklist, fmt.Sprintf("Schedule a change window for the %d production resources and try the fix outside production first", t.Prod))
	}
	g.Checklist = append(g.Checklist, "Apply the remediation steps to every affected resource",
		"Run an audit and confirm that no finding of "+t.RuleID+" is open")
	return g
}

// remediationSteps splits a remediation text into its sentences.
func remediationSteps(text, title string) []string {
	var steps []string
	for _, s := range strings.SplitAfter(strings.TrimSpace(text), ". ") {
		if s = strings.TrimSpace(s); s != "" {
			steps = append(steps, s)
		}
	}
	if len(steps) == 0 {
		steps = []string{"Review each affected resource and correct what the finding describes: " + title + "."}
	}
	return steps
}
