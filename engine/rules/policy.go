package rules

import (
	"strings"

	inv "github.com/fourd-dev/fourd/engine/inventory"
	"github.com/fourd-dev/fourd/engine/rules/iampolicy"
)

// adminPolicySuffix ends the ARN of AWS's managed AdministratorAccess
// policy ("*" on "*") in every partition.
const adminPolicySuffix = ":iam::aws:policy/AdministratorAccess"

// policyOf hands a canonical policy document to the evaluator; nil when
// there is none or it does not parse (the check then has nothing to judge).
// The statements are converted as they are, without encoding the document
// to JSON again.
func policyOf(d *inv.PolicyDocument) *iampolicy.Document {
	if d == nil {
		return nil
	}
	out := &iampolicy.Document{Version: d.Version, ID: d.ID, Statements: make([]iampolicy.Statement, 0, len(d.Statement))}
	for i := range d.Statement {
		st := &d.Statement[i]
		raw := iampolicy.RawStatement{Sid: st.Sid, Effect: st.Effect, Action: st.Action, NotAction: st.NotAction,
			Resource: st.Resource, NotResource: st.NotResource, Principal: st.Principal, NotPrincipal: st.NotPrincipal,
			Condition: st.Condition}
		s, err := raw.Statement()
		if err != nil {
			return nil
		}
		out.Statements = append(out.Statements, s)
	}
	return out
}

// policy is policyOf for the subject's documents, parsed once per subject.
func (s *Subject) policy(d *inv.PolicyDocument) *iampolicy.Document {
	if d == nil {
		return nil
	}
	if s.polSrc != d {
		s.polSrc, s.polDoc = d, policyOf(d)
	}
	return s.polDoc
}

// inlinePolicy merges a principal's inline policies into one document:
// permissions are their union, and a Deny in one overrides an Allow in
// another. Statements are renamed "<policy>/<Sid or index>" so evidence
// says which policy holds them. It returns nil when there are no documents.
func inlinePolicy(ps []inv.NamedPolicy) *iampolicy.Document {
	var merged *iampolicy.Document
	for _, p := range ps {
		d := policyOf(p.Document)
		if d == nil {
			continue
		}
		if merged == nil {
			merged = &iampolicy.Document{}
		}
		for i, st := range d.Statements {
			st.Sid = p.Name + "/" + d.Name(i)
			merged.Statements = append(merged.Statements, st)
		}
	}
	return merged
}

// adminAttached returns the AdministratorAccess ARN among attached
// policies, "" when it is not attached.
func adminAttached(arns []string) string {
	for _, a := range arns {
		if strings.HasSuffix(a, adminPolicySuffix) {
			return a
		}
	}
	return ""
}

// fullAdminResult fails when an IAM principal holds "*" on "*": through
// AWS's AdministratorAccess or through its inline policies.
func fullAdminResult(s *Subject, kind, name string, attached []string, inline []inv.NamedPolicy) Result {
	if a := adminAttached(attached); a != "" {
		return fail(map[string]any{kind: name, "policy_arn": a})
	}
	if d := inlinePolicy(inline); d != nil {
		if st, ok := d.FullAdmin(); ok {
			return fail(map[string]any{kind: name, "inline_statement": st})
		}
	}
	return passed(s, func() map[string]any {
		return map[string]any{kind: name, "attached_policy_arns": attached, "inline_policies": len(inline), "full_admin": false}
	})
}

// attachedAdminResult judges the customer managed policies attached to an
// IAM principal by the facts of its account: it fails when one grants "*"
// on "*", waits while the account's policies are being gathered, and is
// not evaluated when an attached policy's document is not in the
// inventory.
func attachedAdminResult(s *Subject, kind, name string, attached []string) Result {
	var customer []string
	for _, a := range attached {
		if !strings.Contains(a, ":iam::aws:policy/") {
			customer = append(customer, a)
		}
	}
	switch {
	case len(customer) == 0:
		return passed(s, func() map[string]any { return map[string]any{kind: name, "customer_managed_policies": []string{}} })
	case s.pending:
		return Result{deferred: true}
	case s.account == nil:
		return notEvaluated("aws_iam_policy.document")
	}
	var admin []map[string]any
	unknown := false
	for _, a := range customer {
		f, ok := s.account.policies[a]
		switch {
		case !ok || !f.known:
			unknown = true
		case f.admin != "":
			admin = append(admin, map[string]any{"policy_arn": a, "statement": f.admin})
		}
	}
	switch {
	case len(admin) > 0:
		return fail(map[string]any{kind: name, "admin_policies": admin})
	case unknown:
		return notEvaluated("aws_iam_policy.document")
	}
	return passed(s, func() map[string]any {
		return map[string]any{kind: name, "customer_managed_policies": customer, "admin_policies": []string{}}
	})
}

// escalationResult fails when a document allows a privilege escalation.
func escalationResult(d *iampolicy.Document, evidence map[string]any) Result {
	if d == nil {
		evidence["has_policy_document"] = false
		return Result{Evidence: evidence} // no policy document: nothing to escalate with
	}
	paths := d.PrivilegeEscalations()
	if len(paths) == 0 {
		evidence["escalation_paths"] = []string{}
		return Result{Evidence: evidence}
	}
	evidence["escalation_paths"] = paths
	return fail(evidence)
}

// s3ObjectsARN is the ARN pattern of every object of a bucket, the
// resource a bucket-wide deny must cover.
func s3ObjectsARN(s *Subject, bucket string) string {
	arn := s.Resource.NativeID
	if !strings.HasPrefix(arn, "arn:") || !strings.Contains(arn, ":s3:::") {
		arn = "arn:aws:s3:::" + bucket
	}
	return arn + "/*"
}

// publicPolicyResult fails when a resource policy shares the resource with
// everyone; the evidence names the statements.
func publicPolicyResult(s *Subject, d *inv.PolicyDocument, key, name string) Result {
	st := s.policy(d).PublicStatements()
	if len(st) == 0 {
		return passed(s, func() map[string]any {
			return map[string]any{key: name, "has_policy": d != nil, "public_statements": []string{}}
		})
	}
	return escalateIfSensitive(fail(map[string]any{key: name, "public_statements": st}), s, critical)
}
