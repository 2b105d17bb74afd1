package reporting

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/posture"
)

// reportTopActions is how many actions an executive summary ranks.
const reportTopActions = 5

// exposure counts the resources with an open critical or high finding.
func (b *reportBuilder) exposure(ctx context.Context, scanned int64) (engine.ResourceExposure, error) {
	n, err := b.svc.cfg.Analytics.SevereResources(ctx, b.scope)
	if err != nil {
		return engine.ResourceExposure{}, err
	}
	e := engine.ResourceExposure{ResourcesScanned: scanned, WithCriticalOrHigh: n}
	if scanned > 0 {
		e.ClearPercent = math.Round(1000*float64(max(scanned-n, 0))/float64(scanned)) / 10
	}
	return e, nil
}

// rankActions ranks every rule with weighted open findings by risk removed
// per hour.
func (b *reportBuilder) rankActions(rules map[string]*engine.RuleRank) []engine.TopAction {
	weight := map[string]float64{}
	bySev := map[string]map[engine.Severity]int64{}
	for _, c := range b.counts {
		weight[c.RuleID] += engine.PostureWeights[c.Severity] * float64(c.Count)
		if bySev[c.RuleID] == nil {
			bySev[c.RuleID] = map[engine.Severity]int64{}
		}
		bySev[c.RuleID][c.Severity] += c.Count
	}
	all := make([]engine.TopAction, 0, len(rules))
	for _, r := range rules {
		risk := weight[r.RuleID]
		if risk == 0 {
			continue
		}
		effort := engine.RemediationEffortHours(r.Severity, r.Open)
		all = append(all, engine.TopAction{RuleID: r.RuleID, Title: b.ruleTitle(r.RuleID, ""), Severity: r.Severity, Dimension: r.Dimension,
			Open: r.Open, RiskRemoved: risk, EffortHours: effort, RiskPerHour: math.Round(risk/effort*10) / 10, BySeverity: bySev[r.RuleID]})
	}
	slices.SortFunc(all, func(a, b engine.TopAction) int {
		return cmp.Or(cmp.Compare(b.RiskPerHour, a.RiskPerHour), cmp.Compare(b.RiskRemoved, a.RiskRemoved), cmp.Compare(a.RuleID, b.RuleID))
	})
	return all
}

// compliancePosture rates every framework with the compliance judge
// (engine/posture), as the compliance evidence report and the posture
// API do.
func (b *reportBuilder) compliancePosture(ctx context.Context) ([]engine.FrameworkPosture, error) {
	facts, err := posture.Gather(ctx, b.svc.cfg.Analytics, b.svc.cfg.Catalog, b.scope.TenantID, b.audit, b.counts)
	if err != nil {
		return nil, err
	}
	out := []engine.FrameworkPosture{}
	for _, fw := range b.svc.cfg.Catalog.Frameworks() {
		p, _ := facts.JudgeFramework(fw)
		fp := engine.FrameworkPosture{Framework: fw.ID, Title: fw.Title, Controls: p.Controls,
			Checked: p.Counts.Passed + p.Counts.Failed, Failing: p.Counts.Failed}
		if p.ScorePercent != nil {
			fp.PassingPercent = *p.ScorePercent
		}
		out = append(out, fp)
	}
	return out, nil
}

// keyMessages writes the three sentences of the first page: the biggest
// risk, the biggest change since the previous audit, the biggest saving.
// actions are all the ranked actions, not only the top ones.
func keyMessages(rep *engine.ExecutiveSummaryReport, actions []engine.TopAction, hasPrevious bool) []engine.KeyMessage {
	risk := "No open findings of weight: nothing stands out."
	if len(actions) > 0 {
		top := slices.MaxFunc(actions, func(a, b engine.TopAction) int {
			return cmp.Or(cmp.Compare(a.RiskRemoved, b.RiskRemoved), cmp.Compare(b.RuleID, a.RuleID))
		})
		risk = fmt.Sprintf("The biggest risk is %q (%s): %s, %.0f%% of the weighted risk.",
			top.Title, top.RuleID, openText(top), 100*top.RiskRemoved/max(rep.Posture.WeightedOpen, 1))
	}
	change := "This is the first audit: there is no earlier one to compare with."
	if hasPrevious {
		change = fmt.Sprintf("Since the previous audit: %s new findings, %s resolved", groupDigits(rep.Changes.New), groupDigits(rep.Changes.Resolved))
		if rep.Posture.PreviousScore != nil {
			change += fmt.Sprintf("; the posture score moved from %.1f to %.1f", *rep.Posture.PreviousScore, rep.Posture.Score)
		}
		change += "."
	}
	saving := "No open cost findings."
	if i := slices.IndexFunc(rep.CostWaste.ByRule, func(r engine.CostWasteRule) bool { return r.Estimated > 0 }); i >= 0 {
		r := rep.CostWaste.ByRule[i]
		saving = fmt.Sprintf("The biggest saving is %q (%s): about $%.2f a month at list prices over %s findings.",
			r.Title, r.RuleID, r.MonthlyUSD, groupDigits(r.Estimated))
	} else if rep.CostWaste.NotEstimated > 0 {
		saving = fmt.Sprintf("%s open cost findings, none with a known price: not estimated.", groupDigits(rep.CostWaste.NotEstimated))
	}
	return []engine.KeyMessage{{Kind: "biggest_risk", Text: risk}, {Kind: "biggest_change", Text: change}, {Kind: "biggest_saving", Text: saving}}
}

// openText says how many open findings an action has and of what
// severity: "3 open critical findings" when they share the action's
// severity, else "1,000,000 open findings, 69,906 of them critical".
func openText(a engine.TopAction) string {
	n, ok := a.BySeverity[a.Severity]
	if a.BySeverity == nil || (ok && n == a.Open) {
		return fmt.Sprintf("%s open %s findings", groupDigits(a.Open), a.Severity)
	}
	return fmt.Sprintf("%s open findings, %s of them %s", groupDigits(a.Open), groupDigits(n), a.Severity)
}

// groupDigits writes n with thousands separators, as the reports show
// figures: 1,234,567.
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	start := 0
	if n < 0 {
		start = 1
	}
	var b strings.Builder
	for i := range len(s) {
		if i > start && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
