package iampolicy

import (
	"slices"
	"strings"
)

// FullAdmin reports whether the document grants every action on every
// resource ("*" on "*", CIS AWS Foundations 1.16): an Allow statement
// without a Condition whose Action matches every action and whose
// Resource is "*", with no unconditional Deny on every resource carving
// anything out. It returns the granting statement's name.
func (d *Document) FullAdmin() (string, bool) {
	if d == nil {
		return "", false
	}
	grant := -1
	for i := range d.Statements {
		s := &d.Statements[i]
		if len(s.Condition) > 0 || !s.coversResource("*") {
			continue
		}
		if s.Effect == Deny && s.coversPrincipal(&Request{}) {
			return "", false
		}
		if s.Effect == Allow && grant < 0 && s.NotAction == nil && allActions(s.Action) {
			grant = i
		}
	}
	if grant < 0 {
		return "", false
	}
	return d.Name(grant), true
}

// allActions reports whether some pattern matches every action: "*" or
// "*:*".
func allActions(patterns []string) bool {
	for _, p := range patterns {
		if p != "" && strings.Trim(p, "*:") == "" && strings.HasPrefix(p, "*") {
			return true
		}
	}
	return false
}

// escalations are the permission sets that let a principal give itself
// more permissions, each sufficient on its own when allowed on every
// resource (Rhino Security Labs' catalogue of IAM privilege escalation
// methods, which Prowler's iam_policy_allows_privilege_escalation and
// Pacu's iam__privesc_scan also use).
var escalations = [][]string{
	{"iam:CreatePolicyVersion"},
	{"iam:SetDefaultPolicyVersion"},
	{"iam:CreateAccessKey"},
	{"iam:CreateLoginProfile"},
	{"iam:UpdateLoginProfile"},
	{"iam:AttachUserPolicy"},
	{"iam:AttachGroupPolicy"},
	{"iam:AttachRolePolicy"},
	{"iam:PutUserPolicy"},
	{"iam:PutGroupPolicy"},
	{"iam:PutRolePolicy"},
	{"iam:AddUserToGroup"},
	{"iam:UpdateAssumeRolePolicy", "sts:AssumeRole"},
	{"iam:PassRole", "ec2:RunInstances"},
	{"iam:PassRole", "lambda:CreateFunction"},
	{"iam:PassRole", "glue:CreateDevEndpoint"},
	{"iam:PassRole", "cloudformation:CreateStack"},
	{"iam:PassRole", "datapipeline:CreatePipeline"},
	{"lambda:UpdateFunctionCode"},
	{"glue:UpdateDevEndpoint"},
}

// PrivilegeEscalations returns the escalation permission sets the document
// allows on every resource whatever the context, each written as its
// actions joined by " + ". A full-admin document returns none: it needs no
// escalation, and FullAdmin reports it.
func (d *Document) PrivilegeEscalations() []string {
	if d == nil {
		return nil
	}
	if _, ok := d.FullAdmin(); ok {
		return nil
	}
	var out []string
	for _, set := range escalations {
		all := true
		for _, a := range set {
			if !d.AllowsOnAll(a) {
				all = false
				break
			}
		}
		if all {
			out = append(out, strings.Join(set, " + "))
		}
	}
	return out
}

// publicPrincipal reports whether a statement's principal element admits
// everyone: "*", {"AWS": "*"}, or a NotPrincipal (everyone but a few).
func (s *Statement) publicPrincipal() bool {
	if s.NotPrincipal != nil {
		return true
	}
	if s.Principal == nil {
		return false
	}
	if s.Principal.Wildcard {
		return true
	}
	for _, a := range s.Principal.AWS {
		if a == "*" {
			return true
		}
	}
	return false
}

// PublicStatements returns the names of the Allow statements that share
// the resource with everyone: a principal of "*" (or a NotPrincipal) and
// no condition restricting who may call (see Statement.Restriction), and
// not cancelled by an unconditional Deny for everyone. Only statements
// whose Action covers one of actions count when actions is not empty.
func (d *Document) PublicStatements(actions ...string) []string {
	if d == nil {
		return nil
	}
	var out []string
	for i := range d.Statements {
		s := &d.Statements[i]
		if s.Effect != Allow || !s.publicPrincipal() || s.Restriction() != "" {
			continue
		}
		if len(actions) > 0 && !s.coversAnyAction(actions) {
			continue
		}
		if d.deniedToEveryone(s) {
			continue
		}
		out = append(out, d.Name(i))
	}
	return out
}

func (s *Statement) coversAnyAction(actions []string) bool {
	for _, a := range actions {
		if s.coversAction(a) {
			return true
		}
	}
	return false
}

// deniedToEveryone reports whether an unconditional Deny for every
// principal covers the first action and resource of the Allow statement s.
func (d *Document) deniedToEveryone(s *Statement) bool {
	r := Request{Action: first(s.Action, "*"), Resource: first(s.Resource, "*")}
	for i := range d.Statements {
		x := &d.Statements[i]
		if x.Effect == Deny && len(x.Condition) == 0 && x.publicPrincipal() &&
			x.coversAction(r.Action) && x.coversResource(r.Resource) {
			return true
		}
	}
	return false
}

func first(ss []string, def string) string {
	if len(ss) == 0 {
		return def
	}
	return ss[0]
}

// assumeActions are the STS actions a trust policy grants.
var assumeActions = []string{"sts:AssumeRole", "sts:AssumeRoleWithWebIdentity", "sts:AssumeRoleWithSAML"}

// TrustsAnyone returns the names of a trust policy's statements that let
// any AWS principal assume the role (see PublicStatements).
func (d *Document) TrustsAnyone() []string {
	return d.PublicStatements(assumeActions...)
}

// ExternalTrust returns the accounts other than own that a trust policy
// lets assume the role without a condition on sts:ExternalId (the
// confused-deputy guard AWS documents for third parties), on the caller's
// organization (aws:PrincipalOrgID, aws:PrincipalOrgPaths) or on MFA
// (aws:MultiFactorAuthPresent true).
func (d *Document) ExternalTrust(own string) []string {
	if d == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for i := range d.Statements {
		s := &d.Statements[i]
		if s.Effect != Allow || s.Principal == nil || !s.coversAction("sts:AssumeRole") || guardsCrossAccount(s) {
			continue
		}
		for _, a := range s.Principal.AWS {
			acct := AccountOf(a)
			if acct == "" || acct == own || seen[acct] {
				continue
			}
			seen[acct] = true
			out = append(out, acct)
		}
	}
	return out
}

func guardsCrossAccount(s *Statement) bool {
	for op, kv := range s.Condition {
		o := parseOperator(op)
		if o.negated() || o.ifExists || o.base == "null" {
			continue
		}
		for key, vals := range kv {
			switch strings.ToLower(key) {
			case "sts:externalid", "aws:principalorgid", "aws:principalorgpaths":
				if concrete(vals) {
					return true
				}
			case "aws:multifactorauthpresent":
				if o.base == "bool" && anyOf(vals, "true") {
					return true
				}
			}
		}
	}
	return false
}

// DeniesInsecureTransport reports whether the document explicitly denies
// action on resource, for everyone, to a request made without TLS
// (aws:SecureTransport false).
func (d *Document) DeniesInsecureTransport(action, resource string) bool {
	dec, i := d.Decide(Request{Action: action, Resource: resource,
		Context: map[string][]string{"aws:SecureTransport": {"false"}}})
	return dec == ExplicitDeny && d.Statements[i].publicPrincipal()
}

// OpenWebIdentity returns the OIDC providers a trust policy lets assume
// the role (sts:AssumeRoleWithWebIdentity) without pinning the token's
// subject: no positive condition on "<provider>:sub" whose values name
// something narrower than a bare prefix ("repo:*" for GitHub Actions,
// "system:serviceaccount:*" for EKS). Without one, every GitHub
// repository, or every service account of the cluster, can take the role
// (https://docs.github.com/en/actions/security-for-github-actions/security-hardening-your-deployments/configuring-openid-connect-in-amazon-web-services
// and the IAM guide's "Configuring a role for GitHub OIDC identity provider").
func (d *Document) OpenWebIdentity() []string {
	if d == nil {
		return nil
	}
	var out []string
	for i := range d.Statements {
		s := &d.Statements[i]
		if s.Effect != Allow || s.Principal == nil || !s.coversAction("sts:AssumeRoleWithWebIdentity") {
			continue
		}
		for _, f := range s.Principal.Federated {
			j := strings.Index(f, ":oidc-provider/")
			if j < 0 {
				continue
			}
			host := f[j+len(":oidc-provider/"):]
			if !pinsSubject(s, host) && !slices.Contains(out, host) {
				out = append(out, host)
			}
		}
	}
	return out
}

// broadSubjects are subject prefixes that, followed only by wildcards,
// admit every identity of the provider.
var broadSubjects = []string{"", "repo:", "system:serviceaccount:"}

func pinsSubject(s *Statement, host string) bool {
	key := strings.ToLower(host + ":sub")
	for op, kv := range s.Condition {
		o := parseOperator(op)
		if o.negated() || o.ifExists || o.base == "null" || o.set == "allvalues" {
			continue
		}
		for k, vals := range kv {
			if strings.ToLower(k) != key || len(vals) == 0 {
				continue
			}
			narrow := true
			for _, v := range vals {
				if slices.Contains(broadSubjects, strings.TrimRight(v, "*?")) {
					narrow = false
				}
			}
			if narrow {
				return true
			}
		}
	}
	return false
}
