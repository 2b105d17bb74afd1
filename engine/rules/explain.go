package rules

import (
	"slices"
	"time"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// The outcomes of a check on a resource.
const (
	OutcomePassed       = "passed"
	OutcomeFailed       = "failed"
	OutcomeNotEvaluated = "not_evaluated"
)

// The scopes of a check, as Explain reports them.
const (
	ScopeResource = "resource" // reads the resource alone
	ScopeJoin     = "join"     // also reads facts of other resources of the account
	ScopeAccount  = "account"  // judges the whole account, attached to its aws_iam_account
)

// Check is what one rule made of one resource: the outcome, what the check
// read (Evidence, for a pass as for a failure), and for a failure the
// severity and why it differs from the rule's default; for a check not
// evaluated, the attributes the source did not record.
type Check struct {
	Rule     *Rule
	Scope    string
	Outcome  string
	Severity engine.Severity // the finding's severity; set when failed
	Reason   string
	Evidence map[string]any
	Missing  []string
}

// ExplainNeeds names what Explain needs of the resource's account for a
// resource of type resourceType: the types of the other resources whose
// facts its checks join, or all when its checks judge the whole account
// (the regions in use need every resource).
func ExplainNeeds(resourceType string) (types []string, all bool) {
	if resourceType == inv.TypeIAMAccount {
		return nil, true
	}
	for _, r := range ByType(resourceType) {
		for _, j := range r.Joins {
			if !slices.Contains(types, j) {
				types = append(types, j)
			}
		}
	}
	return types, false
}

// Explain runs, at time now, every check of the pack that applies to res:
// the rules of its type, those joining facts of its account, and for an
// account's aws_iam_account resource the account-wide rules. account holds
// the resources of res's account that ExplainNeeds names (res may be among
// them); the checks see their facts as an audit's Finish does. Checks come
// in the order of All.
func Explain(res engine.Resource, account []engine.Resource, now time.Time) []Check {
	a := NewAuditor(now)
	for _, r := range account {
		if r.Account == res.Account && !(r.Type == res.Type && r.NativeID == res.NativeID) {
			a.Observe(r)
		}
	}
	a.Observe(res)
	facts := a.accounts[res.Account]
	s := NewSubject(&res, now)
	s.account = facts
	s.explain = true
	synthesized := false
	if acct, ok := s.attrs.(*inv.IAMAccount); ok && acct.Synthesized {
		synthesized = true
	}
	var out []Check
	for _, r := range All() {
		r := r
		if !slices.Contains(r.ResourceTypes, res.Type) {
			continue
		}
		rule, _ := ByID(r.ID) // the shared rule, not the copy
		c := Check{Rule: rule, Scope: ScopeResource}
		var result Result
		switch {
		case rule.Account:
			c.Scope = ScopeAccount
			if facts == nil {
				result = notEvaluated("account")
			} else {
				result = rule.accountCheck(facts)
			}
		case s.bad:
			result = notEvaluated("attributes")
			c.Reason = "the resource's attributes do not parse as " + res.Type
		case synthesized:
			result = notEvaluated("account")
			c.Reason = "no source described this account: it stands in for the account's findings"
		default:
			if len(rule.Joins) > 0 {
				c.Scope = ScopeJoin
			}
			result = judged(s, rule, rule.Check(s))
		}
		c.Evidence, c.Missing = result.Evidence, result.Missing
		switch {
		case result.NotEvaluated:
			c.Outcome = OutcomeNotEvaluated
		case result.Failed:
			v, _ := violation(rule, result)
			c.Outcome, c.Severity, c.Evidence = OutcomeFailed, v.Severity, v.Evidence
			if c.Reason == "" {
				c.Reason = v.SeverityReason
			}
		default:
			c.Outcome = OutcomePassed
		}
		if c.Evidence == nil {
			c.Evidence = map[string]any{}
		}
		out = append(out, c)
	}
	return out
}
