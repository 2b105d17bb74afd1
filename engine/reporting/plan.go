package reporting

import (
	"cmp"
	"context"
	"io"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// remediationBatch is how many groups a remediation plan reads resources
// for at a time: memory holds one batch of groups, not the plan.
const remediationBatch = 200

// remediationChecklist is how to work through any group of a plan.
var remediationChecklist = []string{
	"Confirm who acts for the group's owner; a group owned by an account (no owner tag) needs someone named, and the resources an owner tag",
	"For production resources, schedule a change window and try the fix outside production first",
	"Apply the rule's playbook steps to every resource of the group",
	"Run an audit and confirm that no finding of the rule is open for the owner",
}

// writeRemediationPlan streams a remediation plan: the summary and the
// playbooks first, then the groups owner by owner, a batch at a time, to
// both formats.
func (b *reportBuilder) writeRemediationPlan(ctx context.Context, jsonW, pdfW io.Writer) error {
	start := time.Now()
	totals, err := b.svc.cfg.Analytics.OwnerRuleTotals(ctx, b.scope)
	b.timings.Queries += time.Since(start)
	if err != nil {
		return err
	}
	sum := engine.RemediationSummary{BySeverity: severityMatrix(b.counts), Checklist: remediationChecklist}
	for _, c := range b.counts {
		sum.Findings += c.Count
	}
	totals = orderByOwner(totals)
	if len(totals) > engine.MaxRemediationGroups {
		sum.GroupsOmitted = int64(len(totals) - engine.MaxRemediationGroups)
		totals = totals[:engine.MaxRemediationGroups]
	}
	sum.Groups = int64(len(totals))
	for _, t := range totals {
		h := engine.RemediationEffortHours(t.Severity, t.Resources)
		sum.EffortHours += h
		if n := len(sum.Owners); n == 0 || sum.Owners[n-1].Owner != t.Owner {
			src := "account"
			if t.ByTag {
				src = "tag"
			}
			sum.Owners = append(sum.Owners, engine.OwnerWork{Owner: t.Owner, OwnerSource: src})
		}
		o := &sum.Owners[len(sum.Owners)-1]
		o.Groups++
		o.Findings += t.Findings
		o.Resources += t.Resources
		o.ProdResources += t.Prod
		o.EffortHours = roundTenth(o.EffortHours + h)
	}
	sum.EffortHours = roundTenth(sum.EffortHours)
	doc := b.document()
	doc.RemediationPlan = &engine.RemediationPlanReport{Summary: sum, Playbooks: b.playbooks(totals), Groups: []engine.RemediationGroup{}}
	start = time.Now()
	w, err := b.svc.cfg.Renderer.NewRemediationWriter(jsonW, pdfW, doc)
	b.timings.Rendering += time.Since(start)
	if err != nil {
		return err
	}
	for lo := 0; lo < len(totals); lo += remediationBatch {
		batch := totals[lo:min(lo+remediationBatch, len(totals))]
		pairs := make([]engine.OwnerRule, len(batch))
		for i, t := range batch {
			pairs[i] = engine.OwnerRule{Owner: t.Owner, RuleID: t.RuleID}
		}
		start = time.Now()
		res, err := b.svc.cfg.Analytics.OwnerAffectedResources(ctx, b.scope, pairs, engine.RemediationResourcesPerGroup)
		b.timings.Queries += time.Since(start)
		if err != nil {
			return err
		}
		start = time.Now()
		for i, t := range batch {
			if err := w.WriteGroup(b.remediationGroup(lo+i+1, t, res[pairs[i]])); err != nil {
				return err
			}
		}
		b.timings.Rendering += time.Since(start)
	}
	start = time.Now()
	defer func() { b.timings.Rendering += time.Since(start) }()
	return w.Close()
}

// orderByOwner puts the owners with the most urgent work first (their most
// severe open finding, then production resources, then findings, then the
// name) and keeps each owner's groups in rule priority order.
func orderByOwner(totals []engine.OwnerRuleTotals) []engine.OwnerRuleTotals {
	type rank struct {
		sev       int
		prod, n   int64
		firstSeen int
	}
	ranks := map[string]*rank{}
	for i, t := range totals {
		r, ok := ranks[t.Owner]
		if !ok {
			r = &rank{firstSeen: i}
			ranks[t.Owner] = r
		}
		r.sev = max(r.sev, slices.Index(engine.Severities, t.Severity))
		r.prod += t.Prod
		r.n += t.Findings
	}
	out := slices.Clone(totals)
	slices.SortStableFunc(out, func(a, b engine.OwnerRuleTotals) int {
		ra, rb := ranks[a.Owner], ranks[b.Owner]
		if c := cmp.Or(cmp.Compare(rb.sev, ra.sev), cmp.Compare(rb.prod, ra.prod), cmp.Compare(rb.n, ra.n),
			strings.Compare(a.Owner, b.Owner)); c != 0 {
			return c
		}
		return rulePriority(a.RuleTotals, b.RuleTotals)
	})
	return out
}

// rulePriority orders a plan's rules: severity (critical first), then
// production resources, then resources, then the rule id.
func rulePriority(a, b engine.RuleTotals) int {
	return cmp.Or(cmp.Compare(slices.Index(engine.Severities, b.Severity), slices.Index(engine.Severities, a.Severity)),
		cmp.Compare(b.Prod, a.Prod), cmp.Compare(b.Resources, a.Resources), strings.Compare(a.RuleID, b.RuleID))
}

// playbooks says once per rule of the plan how to fix it, in priority order.
func (b *reportBuilder) playbooks(totals []engine.OwnerRuleTotals) []engine.RemediationPlaybook {
	byRule := map[string]*engine.RuleTotals{}
	owners := map[string]int64{}
	var order []*engine.RuleTotals
	for _, t := range totals {
		r, ok := byRule[t.RuleID]
		if !ok {
			c := t.RuleTotals
			c.Findings, c.Resources, c.Prod = 0, 0, 0
			r = &c
			byRule[t.RuleID] = r
			order = append(order, r)
		}
		if slices.Index(engine.Severities, t.Severity) > slices.Index(engine.Severities, r.Severity) {
			r.Severity = t.Severity
		}
		r.Findings += t.Findings
		r.Resources += t.Resources
		r.Prod += t.Prod
		owners[t.RuleID]++
	}
	slices.SortFunc(order, func(a, b *engine.RuleTotals) int { return rulePriority(*a, *b) })
	out := make([]engine.RemediationPlaybook, 0, len(order))
	for _, r := range order {
		title := b.ruleTitle(r.RuleID, r.Title)
		remediation := r.Remediation
		if c, ok := b.svc.cfg.Catalog.Rule(r.RuleID); ok && c.Remediation != "" {
			remediation = c.Remediation
		}
		out = append(out, engine.RemediationPlaybook{RuleID: r.RuleID, Title: title, Severity: r.Severity, Dimension: r.Dimension,
			Steps: remediationSteps(remediation, title), Findings: r.Findings, Resources: r.Resources, Owners: owners[r.RuleID]})
	}
	return out
}

// remediationGroup describes one owner's open findings of one rule.
func (b *reportBuilder) remediationGroup(priority int, t engine.OwnerRuleTotals, res []engine.AffectedResource) engine.RemediationGroup {
	g := engine.RemediationGroup{Priority: priority, Owner: t.Owner, RuleID: t.RuleID, Title: b.ruleTitle(t.RuleID, t.Title),
		Severity: t.Severity, Dimension: t.Dimension, ResourcesTotal: t.Resources, ProdResources: t.Prod,
		EffortHours: engine.RemediationEffortHours(t.Severity, t.Resources), Resources: res}
	if g.Resources == nil {
		g.Resources = []engine.AffectedResource{}
	}
	g.ResourcesOmitted = max(t.Findings-int64(len(g.Resources)), 0)
	q := url.Values{"audit_id": {b.audit.ID}, "rule_id": {t.RuleID}, "status": {"open"}}
	if !t.ByTag {
		q.Set("account", t.Owner)
	}
	g.ResourcesQuery = "/v1/findings?" + q.Encode()
	return g
}

// roundTenth rounds hours to one decimal.
func roundTenth(h float64) float64 { return float64(int64(h*10+0.5)) / 10 }

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
