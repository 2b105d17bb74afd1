package iampolicy

import (
	"net/netip"
	"strconv"
	"strings"
)

// operator is a parsed condition operator: StringLikeIfExists is base
// StringLike with ifExists; ForAnyValue:StringEquals has set "anyvalue".
type operator struct {
	base     string // lower case, e.g. "stringlike"
	ifExists bool
	set      string // "", "anyvalue" or "allvalues"
}

func parseOperator(op string) operator {
	o := operator{}
	l := strings.ToLower(op)
	switch {
	case strings.HasPrefix(l, "foranyvalue:"):
		o.set, l = "anyvalue", strings.TrimPrefix(l, "foranyvalue:")
	case strings.HasPrefix(l, "forallvalues:"):
		o.set, l = "allvalues", strings.TrimPrefix(l, "forallvalues:")
	}
	if l != "null" && strings.HasSuffix(l, "ifexists") {
		o.ifExists, l = true, strings.TrimSuffix(l, "ifexists")
	}
	o.base = l
	return o
}

// negated reports whether the operator matches when the request value is
// none of the policy's values (StringNotEquals, ArnNotLike, NotIpAddress…).
func (o operator) negated() bool {
	return strings.Contains(o.base, "not") && o.base != "null"
}

// conditionHolds evaluates a statement's Condition block against a request
// context (keys lower-cased): every operator and every key must hold.
func conditionHolds(cond map[string]map[string][]string, ctx map[string][]string) bool {
	for op, kv := range cond {
		o := parseOperator(op)
		for key, want := range kv {
			if !o.holds(want, ctx[strings.ToLower(key)], hasKey(ctx, key)) {
				return false
			}
		}
	}
	return true
}

func hasKey(ctx map[string][]string, key string) bool {
	_, ok := ctx[strings.ToLower(key)]
	return ok
}

// holds evaluates one operator and key. AWS's rules for an absent key
// (reference_policies_condition-logic-multiple-context-keys-or-values and
// reference_policies_elements_condition_operators): IfExists makes the
// condition true, Null tests the absence itself, a negated operator is
// true, ForAllValues is true, anything else is false.
func (o operator) holds(want, got []string, present bool) bool {
	if o.base == "null" {
		wantAbsent := len(want) > 0 && strings.EqualFold(want[0], "true")
		return wantAbsent == !present
	}
	if !present {
		return o.ifExists || o.negated() || o.set == "allvalues"
	}
	switch o.set {
	case "allvalues":
		for _, g := range got {
			if !o.matchOne(want, g) {
				return false
			}
		}
		return true
	default: // single-valued and ForAnyValue: some request value matches
		for _, g := range got {
			if o.matchOne(want, g) {
				return true
			}
		}
		return false
	}
}

// matchOne applies the operator to one request value: a positive operator
// matches when some policy value matches, a negated one when none does.
func (o operator) matchOne(want []string, got string) bool {
	base := strings.Replace(o.base, "not", "", 1)
	matched := false
	for _, w := range want {
		if matchValue(base, w, got) {
			matched = true
			break
		}
	}
	if o.negated() {
		return !matched
	}
	return matched
}

func matchValue(base, want, got string) bool {
	switch base {
	case "stringequals", "arnequals", "binaryequals":
		return want == got
	case "stringequalsignorecase":
		return strings.EqualFold(want, got)
	case "stringlike", "arnlike":
		return Glob(want, got, false)
	case "bool":
		return strings.EqualFold(want, got)
	case "ipaddress":
		pfx, err := netip.ParsePrefix(want)
		if err != nil {
			a, aerr := netip.ParseAddr(want)
			if aerr != nil {
				return false
			}
			pfx = netip.PrefixFrom(a, a.BitLen())
		}
		a, err := netip.ParseAddr(got)
		return err == nil && pfx.Contains(a)
	}
	if strings.HasPrefix(base, "numeric") {
		w, err1 := strconv.ParseFloat(want, 64)
		g, err2 := strconv.ParseFloat(got, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		switch strings.TrimPrefix(base, "numeric") {
		case "equals":
			return g == w
		case "lessthan":
			return g < w
		case "lessthanequals":
			return g <= w
		case "greaterthan":
			return g > w
		case "greaterthanequals":
			return g >= w
		}
	}
	return false // an operator this evaluator does not know never matches
}

// restrictingKeys are the global condition keys that, tested with a
// positive operator against concrete values, limit who can use a
// statement whose principal is everyone: the keys IAM Access Analyzer
// treats as narrowing access
// (https://docs.aws.amazon.com/IAM/latest/UserGuide/access-analyzer-concepts.html#access-analyzer-policy-generation-conditions
// and the reference_policies_condition-keys pages for each key).
var restrictingKeys = map[string]bool{
	"aws:sourcearn": true, "aws:sourceaccount": true, "aws:sourceowner": true,
	"aws:sourceorgid": true, "aws:sourceorgpaths": true,
	"aws:principalorgid": true, "aws:principalorgpaths": true, "aws:principalaccount": true,
	"aws:principalarn": true, "aws:userid": true, "aws:username": true,
	"aws:principalservicename": true, "aws:principalisawsservice": true,
	"aws:sourcevpce": true, "aws:sourcevpc": true, "aws:sourceip": true,
	"kms:calleraccount": true,
}

// Restriction returns the first condition of a statement that limits its
// principals to a known set ("aws:SourceAccount", "aws:PrincipalOrgID", …),
// "" when none does. A negated operator, an IfExists operator, ForAllValues
// (all true for an absent key), a value that is only wildcards, an
// aws:SourceIp of 0.0.0.0/0 or ::/0, and aws:PrincipalIsAWSService false do
// not restrict. aws:SecureTransport does not either: it says how a request
// travels, not who sends it.
func (s *Statement) Restriction() string {
	for op, kv := range s.Condition {
		o := parseOperator(op)
		if o.negated() || o.ifExists || o.set == "allvalues" || o.base == "null" {
			continue
		}
		for key, vals := range kv {
			k := strings.ToLower(key)
			if !restrictingKeys[k] || len(vals) == 0 || !concrete(vals) {
				continue
			}
			switch k {
			case "aws:sourceip":
				if o.base != "ipaddress" || anyOf(vals, "0.0.0.0/0", "::/0") {
					continue
				}
			case "aws:principalisawsservice":
				if o.base != "bool" || !anyOf(vals, "true") {
					continue
				}
			}
			return key
		}
	}
	return ""
}

// concrete reports whether no value is only wildcards.
func concrete(vals []string) bool {
	for _, v := range vals {
		if strings.Trim(v, "*?") == "" {
			return false
		}
	}
	return true
}

func anyOf(vals []string, targets ...string) bool {
	for _, v := range vals {
		for _, t := range targets {
			if strings.EqualFold(v, t) {
				return true
			}
		}
	}
	return false
}
