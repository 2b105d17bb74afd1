package iampolicy

import "strings"

// Request is what a policy is asked about: one action on one resource by
// one principal, in a request context.
type Request struct {
	// Action is service:Action, e.g. s3:GetObject.
	Action string
	// Resource is an ARN; "*" asks about every resource (only a statement
	// whose Resource is "*", or a NotResource, covers it).
	Resource string
	// Principal is the requester's ARN or account id, "" when anonymous or
	// when the policy is an identity policy. PrincipalService is set
	// instead for an AWS service principal (ec2.amazonaws.com).
	Principal        string
	PrincipalService string
	// Context holds the request's condition keys and values. A nil Context
	// means the context is unknown: statements with a Condition then match
	// nothing, neither to allow nor to deny. That is what a finding needs
	// ("allowed whatever the context"); an empty non-nil map is a request
	// that carries no keys, against which Conditions are evaluated.
	Context map[string][]string
}

// Decision is the outcome of evaluating a request.
type Decision int

// The three outcomes, as AWS names them.
const (
	ImplicitDeny Decision = iota // no statement allows the request
	Allowed                      // an Allow matches and no Deny does
	ExplicitDeny                 // a Deny matches
)

func (d Decision) String() string {
	switch d {
	case Allowed:
		return "Allow"
	case ExplicitDeny:
		return "ExplicitDeny"
	}
	return "ImplicitDeny"
}

// Decide evaluates one request against the document: any matching Deny
// wins, otherwise any matching Allow allows, otherwise the request is
// implicitly denied. It also returns the index of the deciding statement
// (-1 for an implicit deny).
func (d *Document) Decide(r Request) (Decision, int) {
	if d == nil {
		return ImplicitDeny, -1
	}
	ctx := r.Context
	if ctx != nil {
		ctx = make(map[string][]string, len(r.Context))
		for k, v := range r.Context {
			ctx[strings.ToLower(k)] = v
		}
	}
	allow := -1
	for i := range d.Statements {
		s := &d.Statements[i]
		if !s.matches(&r, ctx) {
			continue
		}
		if s.Effect == Deny {
			return ExplicitDeny, i
		}
		if allow < 0 {
			allow = i
		}
	}
	if allow >= 0 {
		return Allowed, allow
	}
	return ImplicitDeny, -1
}

func (s *Statement) matches(r *Request, ctx map[string][]string) bool {
	if !s.coversAction(r.Action) || !s.coversResource(r.Resource) || !s.coversPrincipal(r) {
		return false
	}
	if len(s.Condition) == 0 {
		return true
	}
	if ctx == nil {
		return false
	}
	return conditionHolds(s.Condition, ctx)
}

// AllowsOnAll reports whether the document, as an identity policy, allows
// action on every resource ("*") whatever the request context: an
// unconditional Allow covers it and no unconditional Deny does.
func (d *Document) AllowsOnAll(action string) bool {
	dec, _ := d.Decide(Request{Action: action, Resource: "*"})
	return dec == Allowed
}

// Name returns a statement's Sid, or "statement N" (0-based) without one.
func (d *Document) Name(i int) string {
	if s := d.Statements[i].Sid; s != "" {
		return s
	}
	return "statement " + itoa(i)
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	return string(b[n:])
}
