package audit

import (
	"encoding/json"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/rules"
)

var _ engine.Explainer = (*Evaluators)(nil)

// ExplainNeeds names what the rule pack needs of a resource's account to
// explain it (rules.ExplainNeeds).
func (e *Evaluators) ExplainNeeds(resourceType string) ([]string, bool) {
	return rules.ExplainNeeds(resourceType)
}

// Explain runs every built-in check that applies to res (rules.Explain).
func (e *Evaluators) Explain(res engine.Resource, account []engine.Resource, now time.Time) []engine.CheckExplanation {
	checks := rules.Explain(res, account, now)
	out := make([]engine.CheckExplanation, 0, len(checks))
	for _, c := range checks {
		ev, err := json.Marshal(c.Evidence)
		if err != nil {
			ev = json.RawMessage(`{}`)
		}
		x := engine.CheckExplanation{RuleID: c.Rule.ID, Title: c.Rule.Title, Dimension: c.Rule.Dimension, Scope: c.Scope,
			Outcome: c.Outcome, DefaultSeverity: c.Rule.Severity, Reason: c.Reason, Evidence: ev, Missing: c.Missing}
		if c.Outcome == rules.OutcomeFailed {
			sev := c.Severity
			x.Severity = &sev
		}
		if x.Missing == nil {
			x.Missing = []string{}
		}
		out = append(out, x)
	}
	return out
}
