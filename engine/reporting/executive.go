package reporting

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/fourd-dev/fourd/engine"
	"golang.org/x/sync/errgroup"
)

// Sizes of an executive summary's rankings.
const (
	reportTopAccounts  = 10
	reportTopResources = 10
	reportTopRules     = 10
	reportChangeSample = 10
)

// executiveSummary builds the body of an executive_summary report.
func (b *reportBuilder) executiveSummary(ctx context.Context) (*engine.ExecutiveSummaryReport, error) {
	rep := &engine.ExecutiveSummaryReport{Matrix: severityMatrix(b.counts)}
	bySev := map[engine.Severity]int64{}
	accounts := map[string]*engine.AccountRank{}
	rules := map[string]*engine.RuleRank{}
	for _, c := range b.counts {
		rep.OpenFindings += c.Count
		bySev[c.Severity] += c.Count
		engine.CountAccount(accounts, c.Account, c.Severity, c.Count)
		engine.CountRule(rules, c.RuleID, c.Severity, c.Dimension, c.Count)
	}
	resources := b.resourcesScanned(b.audit)
	score, weighted := engine.ComputePostureScore(bySev, resources)
	rep.Posture = engine.PostureScore{Score: score, WeightedOpen: weighted, ResourcesScanned: resources}
	rep.TopAccounts = engine.TopN(accounts, reportTopAccounts, func(a, b *engine.AccountRank) int {
		return cmp.Or(cmp.Compare(b.Critical, a.Critical), cmp.Compare(b.High, a.High), cmp.Compare(b.Open, a.Open),
			cmp.Compare(a.Account, b.Account))
	})
	rep.TopRules = engine.TopN(rules, reportTopRules, func(a, b *engine.RuleRank) int {
		return cmp.Or(cmp.Compare(b.Severity.Rank(), a.Severity.Rank()), cmp.Compare(b.Open, a.Open), cmp.Compare(a.RuleID, b.RuleID))
	})
	for i := range rep.TopRules {
		rep.TopRules[i].Title = b.ruleTitle(rep.TopRules[i].RuleID, "")
	}
	// The analytic reads are independent of each other: run them at once,
	// so the summary takes about as long as its slowest read (at 1M open
	// findings, the top resources' aggregation) instead of their sum.
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		rep.TopResources, err = b.svc.cfg.Analytics.TopResources(gctx, b.scope, reportTopResources)
		return err
	})
	g.Go(func() (err error) { rep.CostWaste, err = b.costWaste(gctx); return err })
	g.Go(func() (err error) { rep.Trend, err = b.trend(gctx, score, rep.OpenFindings, bySev); return err })
	g.Go(func() (err error) { rep.Changes, err = b.changes(gctx); return err })
	g.Go(func() (err error) { rep.Exposure, err = b.exposure(gctx, resources); return err })
	g.Go(func() (err error) { rep.Compliance, err = b.compliancePosture(gctx); return err })
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if rep.TopResources == nil {
		rep.TopResources = []engine.ResourceRank{}
	}
	if n := len(rep.Trend); n >= 2 {
		prev := rep.Trend[n-2].Score
		delta := math.Round((score-prev)*10) / 10
		rep.Posture.PreviousScore, rep.Posture.Delta = &prev, &delta
	}
	actions := b.rankActions(rules)
	rep.TopActions = actions[:min(reportTopActions, len(actions))]
	rep.KeyMessages = keyMessages(rep, actions, len(b.prev) > 0)
	return rep, nil
}

// resourcesScanned is how many resources an audit evaluated.
func (b *reportBuilder) resourcesScanned(a engine.Audit) int64 {
	if a.Summary != nil {
		return a.Summary.ResourcesScanned
	}
	return a.Progress.ResourcesScanned
}

// costWaste estimates the monthly waste of the open cost findings.
func (b *reportBuilder) costWaste(ctx context.Context) (engine.CostWaste, error) {
	w := engine.CostWaste{ByRule: []engine.CostWasteRule{}}
	if len(b.filters.Dimensions) > 0 && !slices.Contains(b.filters.Dimensions, engine.DimensionCost) {
		return w, nil
	}
	costs, err := b.svc.cfg.Analytics.CostByRule(ctx, b.scope)
	if err != nil {
		return w, err
	}
	for _, c := range costs {
		r := engine.CostWasteRule{RuleID: c.RuleID, Title: b.ruleTitle(c.RuleID, c.Title), Findings: c.Findings,
			MonthlyUSD: math.Round(c.PricedUSD*100) / 100, Estimated: c.Priced}
		switch {
		case c.Priced == c.Findings:
			r.Basis = "evidence"
		case c.Priced == 0:
			r.Basis = "not_estimated"
		default:
			r.Basis = "mixed"
		}
		w.Estimated += c.Priced
		w.NotEstimated += c.Findings - c.Priced
		w.ByRule = append(w.ByRule, r)
		w.MonthlyUSD += r.MonthlyUSD
	}
	slices.SortFunc(w.ByRule, func(a, b engine.CostWasteRule) int {
		return cmp.Or(cmp.Compare(b.MonthlyUSD, a.MonthlyUSD), cmp.Compare(a.RuleID, b.RuleID))
	})
	w.MonthlyUSD = math.Round(w.MonthlyUSD*100) / 100
	return w, nil
}

// trend is the open findings of the last completed audits, oldest first,
// ending with this report's (whose counts include people's decisions;
// past snapshots are counted as their audits wrote them, less the matches
// of the active mute rules applied to them, as findingTrend counts them).
func (b *reportBuilder) trend(ctx context.Context, score float64, open int64, bySev map[engine.Severity]int64) ([]engine.ReportTrendPoint, error) {
	points := make([]engine.ReportTrendPoint, 0, len(b.prev)+1)
	if len(b.prev) > 0 && b.svc.cfg.Trends != nil {
		ids := make([]string, len(b.prev))
		for i, a := range b.prev {
			ids[i] = a.ID
		}
		open := engine.TrendQuery{Filter: engine.FindingFilter{Status: engine.StatusOpen}, GroupBy: []engine.GroupBy{engine.GroupBySeverity, engine.GroupByDimension, engine.GroupByAccount}}
		counts, err := b.svc.cfg.Trends.CountsByAudit(ctx, b.scope.TenantID, ids, open.Filter, open.GroupBy)
		if err != nil {
			return nil, err
		}
		if err := b.svc.cfg.Reads.MuteTrend(ctx, b.scope.TenantID, ids, open, counts); err != nil {
			return nil, err
		}
		for i := len(b.prev) - 1; i >= 0; i-- {
			a := b.prev[i]
			p := engine.ReportTrendPoint{AuditID: a.ID}
			if a.CompletedAt != nil {
				p.CompletedAt = a.CompletedAt.UTC()
			}
			sev := map[engine.Severity]int64{}
			for _, g := range counts[a.ID] {
				s := engine.Severity(g.Key[engine.GroupBySeverity])
				if !b.filters.Match(engine.Finding{Severity: s, Dimension: engine.Dimension(g.Key[engine.GroupByDimension]), Account: g.Key[engine.GroupByAccount]}) {
					continue
				}
				sev[s] += g.Count
				p.OpenFindings += g.Count
			}
			p.Critical, p.High = sev[engine.SeverityCritical], sev[engine.SeverityHigh]
			p.Score, _ = engine.ComputePostureScore(sev, b.resourcesScanned(a))
			points = append(points, p)
		}
	}
	return append(points, engine.ReportTrendPoint{AuditID: b.audit.ID, CompletedAt: b.audit.CompletedAt.UTC(), OpenFindings: open,
		Critical: bySev[engine.SeverityCritical], High: bySev[engine.SeverityHigh], Score: score}), nil
}

// changes counts what changed since the previous audit, with a few
// examples, from the snapshots' difference.
func (b *reportBuilder) changes(ctx context.Context) (engine.AuditChanges, error) {
	ch := engine.AuditChanges{Examples: []engine.ChangeExample{}}
	if len(b.prev) == 0 || b.svc.cfg.Snapshots == nil {
		return ch, nil
	}
	mutes, err := b.diffMutes(ctx)
	if err != nil {
		return ch, err
	}
	for c, err := range b.svc.cfg.Snapshots.DiffSnapshots(ctx, b.scope.TenantID, b.prev[0].ID, b.audit.ID, mutes) {
		if err != nil {
			return ch, err
		}
		if !b.filters.Match(c.Finding) {
			continue
		}
		ex := engine.ChangeExample{FindingID: c.Finding.ID, RuleID: c.Finding.RuleID, Title: b.ruleTitle(c.Finding.RuleID, c.Finding.Title),
			ResourceID: c.Finding.ResourceID, Severity: c.Finding.Severity}
		switch c.Kind {
		case engine.EventFindingCreated:
			ch.New++
			ex.Change = "new"
		case engine.EventFindingResolved:
			ch.Resolved++
			ex.Change = "resolved"
		case engine.EventFindingSeverityChanged:
			ch.SeverityChanged++
			ex.Change, ex.PreviousSeverity = "severity_changed", c.Previous
		default:
			continue
		}
		if len(ch.Examples) < reportChangeSample {
			ch.Examples = append(ch.Examples, ex)
		}
	}
	return ch, b.nameChangedResources(ctx, ch.Examples)
}

// diffMutes are the active mute rules applied to the previous and the
// report's snapshot: what they mute changed for nobody who reads counts of
// open findings, so the diff leaves it out as every other count does.
func (b *reportBuilder) diffMutes(ctx context.Context) (engine.DiffMutes, error) {
	return b.svc.cfg.Reads.DiffMutes(ctx, b.scope.TenantID, b.prev[0].ID, b.audit.ID)
}

// nameChangedResources sets the examples' resource names and native ids
// (ARNs), in one narrow read: a reader recognizes "prod-db" or finds an
// ARN in the console, where a res_… id says nothing.
func (b *reportBuilder) nameChangedResources(ctx context.Context, examples []engine.ChangeExample) error {
	if len(examples) == 0 {
		return nil
	}
	ids := make([]string, 0, len(examples))
	for _, e := range examples {
		ids = append(ids, e.ResourceID)
	}
	rs, err := b.svc.cfg.Resources.GetResourcesPartial(ctx, b.scope.TenantID, ids, engine.ResourceFields{})
	if err != nil {
		return err
	}
	byID := make(map[string]engine.Resource, len(rs))
	for _, r := range rs {
		byID[r.ID] = r
	}
	for i := range examples {
		r := byID[examples[i].ResourceID]
		examples[i].ResourceName, examples[i].NativeID = r.Name, r.NativeID
	}
	return nil
}
