package engine

import "slices"

// Rankings are built by the dashboard (engine/dashboard) and the executive
// summary (engine/reporting) alike, from the same open counts.

// CountAccount adds n open findings of severity sev to account's rank,
// making the rank when it is the account's first.
func CountAccount(accounts map[string]*AccountRank, account string, sev Severity, n int64) {
	a := accounts[account]
	if a == nil {
		a = &AccountRank{Account: account}
		accounts[account] = a
	}
	a.Open += n
	switch sev {
	case SeverityCritical:
		a.Critical += n
	case SeverityHigh:
		a.High += n
	}
}

// CountRule adds n open findings of severity sev to the rule's rank,
// making the rank when it is the rule's first; the rank's severity is the
// highest of its findings.
func CountRule(rules map[string]*RuleRank, ruleID string, sev Severity, dim Dimension, n int64) {
	r := rules[ruleID]
	if r == nil {
		r = &RuleRank{RuleID: ruleID, Severity: sev, Dimension: dim}
		rules[ruleID] = r
	}
	r.Open += n
	if sev.Rank() > r.Severity.Rank() {
		r.Severity = sev
	}
}

// TopN returns the first n values of m in the order cmpFn gives.
func TopN[K comparable, V any](m map[K]*V, n int, cmpFn func(a, b *V) int) []V {
	all := make([]*V, 0, len(m))
	for _, v := range m {
		all = append(all, v)
	}
	slices.SortFunc(all, cmpFn)
	out := make([]V, 0, min(n, len(all)))
	for _, v := range all[:min(n, len(all))] {
		out = append(out, *v)
	}
	return out
}
