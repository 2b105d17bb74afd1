package engine

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// reportTopActions is how many actions an executive summary ranks.
const reportTopActions = 5

// KeyMessage is one sentence of an executive summary's first page, written
// from the report's own figures.
type KeyMessage struct {
	// Kind is biggest_risk, biggest_change or biggest_saving.
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// TopAction is a rule whose open findings to fix first: actions are ranked
// by the posture weight they remove per hour of remediation effort
// (RemediationEffortHours over the rule's open findings).
type TopAction struct {
	RuleID      string    `json:"rule_id"`
	Title       string    `json:"title"`
	Severity    Severity  `json:"severity"`
	Dimension   Dimension `json:"dimension"`
	Open        int64     `json:"open"`
	RiskRemoved float64   `json:"risk_removed"` // PostureWeights summed over the open findings
	EffortHours float64   `json:"effort_hours"`
	RiskPerHour float64   `json:"risk_per_hour"`
	// bySeverity counts the open findings by severity: a rule's findings
	// need not share one (policies raise or lower it per finding), and a
	// key message says how many are of the severity it names.
	bySeverity map[Severity]int64
}

// FrameworkPosture is one compliance framework as the compliance evidence
// report judges it: of the controls assessed (passed or failed), how many
// passed. Controls not applicable (nothing of their types), with
// insufficient data, manual or not assessed are left out of the share.
type FrameworkPosture struct {
	Framework string `json:"framework"`
	Title     string `json:"title"`
	Controls  int    `json:"controls"`
	// Checked is the controls assessed: passed or failed.
	Checked int `json:"checked"`
	Failing int `json:"failing"`
	// PassingPercent is 100 × (Checked − Failing) / Checked, one decimal
	// (the compliance evidence report's score); 0 when no control is
	// assessed.
	PassingPercent float64 `json:"passing_percent"`
}

// ResourceExposure is the posture in terms a CFO reads: the share of the
// resources scanned with no open critical or high finding.
type ResourceExposure struct {
	ResourcesScanned   int64 `json:"resources_scanned"`
	WithCriticalOrHigh int64 `json:"with_critical_or_high"`
	// ClearPercent is 100 × (ResourcesScanned − WithCriticalOrHigh) /
	// ResourcesScanned, one decimal; 0 when no resource was scanned.
	ClearPercent float64 `json:"clear_percent"`
}

// exposure counts the resources with an open critical or high finding.
func (b *reportBuilder) exposure(ctx context.Context, scanned int64) (ResourceExposure, error) {
	n, err := b.svc.cfg.Reporting.Analytics.SevereResources(ctx, b.scope)
	if err != nil {
		return ResourceExposure{}, err
	}
	e := ResourceExposure{ResourcesScanned: scanned, WithCriticalOrHigh: n}
	if scanned > 0 {
		e.ClearPercent = math.Round(1000*float64(max(scanned-n, 0))/float64(scanned)) / 10
	}
	return e, nil
}

// rankActions ranks every rule with weighted open findings by risk removed
// per hour.
func (b *reportBuilder) rankActions(rules map[string]*RuleRank) []TopAction {
	weight := map[string]float64{}
	bySev := map[string]map[Severity]int64{}
	for _, c := range b.counts {
		weight[c.RuleID] += PostureWeights[c.Severity] * float64(c.Count)
		if bySev[c.RuleID] == nil {
			bySev[c.RuleID] = map[Severity]int64{}
		}
		bySev[c.RuleID][c.Severity] += c.Count
	}
	all := make([]TopAction, 0, len(rules))
	for _, r := range rules {
		risk := weight[r.RuleID]
		if risk == 0 {
			continue
		}
		effort := RemediationEffortHours(r.Severity, r.Open)
		all = append(all, TopAction{RuleID: r.RuleID, Title: b.ruleTitle(r.RuleID, ""), Severity: r.Severity, Dimension: r.Dimension,
			Open: r.Open, RiskRemoved: risk, EffortHours: effort, RiskPerHour: math.Round(risk/effort*10) / 10, bySeverity: bySev[r.RuleID]})
	}
	slices.SortFunc(all, func(a, b TopAction) int {
		return cmp.Or(cmp.Compare(b.RiskPerHour, a.RiskPerHour), cmp.Compare(b.RiskRemoved, a.RiskRemoved), cmp.Compare(a.RuleID, b.RuleID))
	})
	return all
}

// compliancePosture rates every framework with the compliance judge
// (compliance_judge.go), as the compliance evidence report and the posture
// API do.
func (b *reportBuilder) compliancePosture(ctx context.Context) ([]FrameworkPosture, error) {
	facts, err := b.svc.postureFacts(ctx, b.scope.TenantID, b.audit, b.counts)
	if err != nil {
		return nil, err
	}
	out := []FrameworkPosture{}
	for _, fw := range b.svc.cfg.Reporting.Catalog.Frameworks() {
		p, _ := facts.judgeFramework(fw)
		fp := FrameworkPosture{Framework: fw.ID, Title: fw.Title, Controls: p.Controls,
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
func keyMessages(rep *ExecutiveSummaryReport, actions []TopAction, hasPrevious bool) []KeyMessage {
	risk := "No open findings of weight: nothing stands out."
	if len(actions) > 0 {
		top := slices.MaxFunc(actions, func(a, b TopAction) int {
			return cmp.Or(cmp.Compare(a.RiskRemoved, b.RiskRemoved), cmp.Compare(b.RuleID, a.RuleID))
		})
		risk = fmt.Sprintf("The biggest risk is %q (%s): %s, %.0f%% of the weighted risk.",
			top.Title, top.RuleID, top.openText(), 100*top.RiskRemoved/max(rep.Posture.WeightedOpen, 1))
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
	if i := slices.IndexFunc(rep.CostWaste.ByRule, func(r CostWasteRule) bool { return r.Estimated > 0 }); i >= 0 {
		r := rep.CostWaste.ByRule[i]
		saving = fmt.Sprintf("The biggest saving is %q (%s): about $%.2f a month at list prices over %s findings.",
			r.Title, r.RuleID, r.MonthlyUSD, groupDigits(r.Estimated))
	} else if rep.CostWaste.NotEstimated > 0 {
		saving = fmt.Sprintf("%s open cost findings, none with a known price: not estimated.", groupDigits(rep.CostWaste.NotEstimated))
	}
	return []KeyMessage{{"biggest_risk", risk}, {"biggest_change", change}, {"biggest_saving", saving}}
}

// openText says how many open findings an action has and of what
// severity: "3 open critical findings" when they share the action's
// severity, else "1,000,000 open findings, 69,906 of them critical".
func (a TopAction) openText() string {
	n, ok := a.bySeverity[a.Severity]
	if a.bySeverity == nil || (ok && n == a.Open) {
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
