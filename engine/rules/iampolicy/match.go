package iampolicy

import (
	"strings"
)

// Glob reports whether s matches pattern, where * matches any run of
// characters (none included) and ? exactly one, as IAM matches actions
// and resource ARNs. fold makes the match case-insensitive (actions are;
// resource ARNs are not).
func Glob(pattern, s string, fold bool) bool {
	if fold && (!ascii(pattern) || !ascii(s)) {
		// Unicode case mapping may change lengths: lower both first.
		return glob(strings.ToLower(pattern), strings.ToLower(s), false)
	}
	// ASCII folds byte by byte, without lowering copies of both strings:
	// the privilege-escalation checks match every action of a principal's
	// policies against ~40 action sets (actions are written in camel case).
	return glob(pattern, s, fold)
}

// glob is Glob on bytes, folding ASCII letters when fold is set.
func glob(pattern, s string, fold bool) bool {
	// Iterative matching with backtracking to the last star.
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && (pattern[p] == '?' || pattern[p] == s[i] || fold && lowerASCII(pattern[p]) == lowerASCII(s[i])):
			p++
			i++
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case star >= 0:
			p = star + 1
			mark++
			i = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// matchesAction reports whether any pattern matches action
// (case-insensitive, as IAM compares actions).
func matchesAction(patterns []string, action string) bool {
	for _, p := range patterns {
		if Glob(p, action, true) {
			return true
		}
	}
	return false
}

func matchesResource(patterns []string, resource string) bool {
	for _, p := range patterns {
		if Glob(p, resource, false) {
			return true
		}
	}
	return false
}

// coversAction reports whether the statement's Action or NotAction
// includes action.
func (s *Statement) coversAction(action string) bool {
	if s.NotAction != nil {
		return !matchesAction(s.NotAction, action)
	}
	return matchesAction(s.Action, action)
}

// coversResource reports whether the statement's Resource or NotResource
// includes resource; a statement with neither (trust and most resource
// policies' implicit resource) covers every resource.
func (s *Statement) coversResource(resource string) bool {
	switch {
	case s.NotResource != nil:
		return !matchesResource(s.NotResource, resource)
	case s.Resource != nil:
		return matchesResource(s.Resource, resource)
	}
	return true
}

// coversPrincipal reports whether the statement applies to the requesting
// principal. Identity policies (no Principal, no NotPrincipal) apply to
// whoever holds them.
func (s *Statement) coversPrincipal(r *Request) bool {
	switch {
	case s.NotPrincipal != nil:
		return !s.NotPrincipal.includes(r)
	case s.Principal != nil:
		return s.Principal.includes(r)
	}
	return true
}

// includes reports whether the principal element names the requester. An
// account id or account root ARN names every principal of that account,
// as it does in resource policies.
func (p *Principal) includes(r *Request) bool {
	if p.Wildcard {
		return true
	}
	if r.PrincipalService != "" {
		for _, s := range p.Service {
			if s == "*" || strings.EqualFold(s, r.PrincipalService) {
				return true
			}
		}
		return false
	}
	for _, a := range p.AWS {
		switch {
		case a == "*":
			return true
		case r.Principal == "":
		case a == r.Principal:
			return true
		case AccountOf(a) != "" && isAccountWide(a) && AccountOf(a) == AccountOf(r.Principal):
			return true
		}
	}
	return false
}

// isAccountWide reports whether an AWS principal names a whole account:
// a bare 12-digit id or arn:aws:iam::<id>:root.
func isAccountWide(a string) bool {
	return isAccountID(a) || strings.HasPrefix(a, "arn:") && strings.HasSuffix(a, ":root")
}

// AccountOf returns the account id of an AWS principal (a 12-digit id or
// an ARN holding one), "" when it names none.
func AccountOf(a string) string {
	if isAccountID(a) {
		return a
	}
	if !strings.HasPrefix(a, "arn:") {
		return ""
	}
	parts := strings.SplitN(a, ":", 6)
	if len(parts) < 6 || !isAccountID(parts[4]) {
		return ""
	}
	return parts[4]
}

func isAccountID(s string) bool {
	if len(s) != 12 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
