package policy

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
)

// Limits on a policy's fields.
const (
	MaxNameLength         = 200  // characters
	MaxDescriptionLength  = 4000 // characters
	MaxExpressionLength   = 4096 // bytes
	MaxTitleLength        = 200  // characters of the template
	MaxRemediationLength  = 4000 // characters of the template
	MaxResourceTypes      = 50
	MaxResourceTypeLength = 100
	// maxReportedIssues caps how many CEL errors one message lists.
	maxReportedIssues = 3
)

var resourceTypePattern = regexp.MustCompile(`^[a-z0-9_]+$`)

// Normalize fills the defaults of a policy being written: the effect is
// raise when empty, the name is trimmed, and duplicate resource types are
// dropped (order kept). It does not validate.
func Normalize(p engine.Policy) engine.Policy {
	p.Name = strings.TrimSpace(p.Name)
	if p.Effect == "" {
		p.Effect = engine.PolicyRaise
	}
	if len(p.ResourceTypes) > 1 {
		seen := make(map[string]bool, len(p.ResourceTypes))
		types := make([]string, 0, len(p.ResourceTypes))
		for _, t := range p.ResourceTypes {
			if !seen[t] {
				seen[t] = true
				types = append(types, t)
			}
		}
		p.ResourceTypes = types
	}
	return p
}

// Validate checks every field of a policy being written (after Normalize)
// and compiles and type-checks its expression. It returns nil or a
// validation_failed *engine.Error whose Field names the first bad field and
// whose message, for the expression, carries the CEL errors with their
// positions, e.g. `expression: ERROR: <input>:1:1: undeclared reference to
// 'resorce'`. It plans the program too (as Compile does), so that a policy that
// validates always compiles.
//
// Validate also refuses, unlike Compile, an expression that could build a
// string or list over the size limits (cel-go's cost estimator, given the
// largest size of every input value): such a policy cannot be written,
// while one already stored still compiles and fails, resource by resource,
// when evaluated.
func (c *Compiler) Validate(p engine.Policy) error {
	prg, err := c.Compile(p)
	if err != nil {
		return err
	}
	return c.checkSize(prg)
}

// checkSize refuses a compiled policy whose expression could build a value
// over the size limits, naming why.
func (c *Compiler) checkSize(prg *Program) error {
	est := &sizeEstimator{}
	if _, err := c.env(prg.policy.Effect).EstimateCost(prg.checked, est); err != nil {
		return engine.FieldErrorf("expression", "expression: its cost cannot be estimated: %v", err)
	}
	if est.problem != "" {
		return engine.FieldErrorf("expression", "expression: too large to evaluate: %s", est.problem)
	}
	return nil
}

// validateFields checks everything but the expression's meaning.
func validateFields(p engine.Policy) error {
	if n := utf8.RuneCountInString(p.Name); strings.TrimSpace(p.Name) == "" || n > MaxNameLength {
		return engine.FieldErrorf("name", "name must be 1 to %d characters; got %d", MaxNameLength, n)
	}
	if !utf8.ValidString(p.Name) {
		return engine.FieldErrorf("name", "name must be valid UTF-8")
	}
	if n := utf8.RuneCountInString(p.Description); n > MaxDescriptionLength {
		return engine.FieldErrorf("description", "description must be at most %d characters; got %d", MaxDescriptionLength, n)
	}
	if !slices.Contains(engine.PolicyEffects, p.Effect) {
		return engine.FieldErrorf("effect", "effect must be one of raise, severity_at_least, severity_at_most; got %s", quote(string(p.Effect)))
	}
	switch {
	case p.Effect == engine.PolicyRaise && !p.Dimension.Valid():
		return engine.FieldErrorf("dimension", "dimension must be one of security, cost, architecture, compliance; got %s", quote(string(p.Dimension)))
	case p.Effect != engine.PolicyRaise && p.Dimension != "" && !p.Dimension.Valid():
		return engine.FieldErrorf("dimension", "dimension must be empty (findings of every dimension) or one of security, cost, architecture, compliance; got %s", quote(string(p.Dimension)))
	}
	if !p.Severity.Valid() {
		return engine.FieldErrorf("severity", "severity must be one of info, low, medium, high, critical; got %s", quote(string(p.Severity)))
	}
	if len(p.ResourceTypes) > MaxResourceTypes {
		return engine.FieldErrorf("resource_types", "resource_types must list at most %d types; got %d", MaxResourceTypes, len(p.ResourceTypes))
	}
	for i, t := range p.ResourceTypes {
		if len(t) > MaxResourceTypeLength || !resourceTypePattern.MatchString(t) {
			return engine.FieldErrorf("resource_types", "resource_types[%d] must match ^[a-z0-9_]+$ and be at most %d bytes, e.g. aws_s3_bucket; got %s", i, MaxResourceTypeLength, quote(t))
		}
	}
	if n := utf8.RuneCountInString(p.Title); n > MaxTitleLength {
		return engine.FieldErrorf("title", "title must be at most %d characters; got %d", MaxTitleLength, n)
	}
	if _, err := parseTemplate("title", p.Title); err != nil {
		return err
	}
	if n := utf8.RuneCountInString(p.Remediation); n > MaxRemediationLength {
		return engine.FieldErrorf("remediation", "remediation must be at most %d characters; got %d", MaxRemediationLength, n)
	}
	if _, err := parseTemplate("remediation", p.Remediation); err != nil {
		return err
	}
	return nil
}

// checkExpression compiles and type-checks the expression in env.
func checkExpression(env *cel.Env, expr string) (*cel.Ast, error) {
	if strings.TrimSpace(expr) == "" {
		return nil, engine.FieldErrorf("expression", "expression must not be empty")
	}
	if len(expr) > MaxExpressionLength {
		return nil, engine.FieldErrorf("expression", "expression must be at most %d bytes; got %d", MaxExpressionLength, len(expr))
	}
	if !utf8.ValidString(expr) {
		return nil, engine.FieldErrorf("expression", "expression must be valid UTF-8")
	}
	checked, iss := env.Compile(expr)
	if iss != nil && iss.Err() != nil {
		return nil, engine.FieldErrorf("expression", "expression: %s", formatIssues(iss))
	}
	if err := checkFunctions(checked); err != nil {
		return nil, err
	}
	switch out := checked.OutputType(); {
	case out.IsExactType(cel.BoolType), out.IsExactType(cel.DynType):
		// A dyn result (e.g. resource.attributes.public) is checked when
		// evaluated: anything but a bool is an evaluation error.
	default:
		return nil, engine.FieldErrorf("expression", "expression: must evaluate to bool, got %s", out.String())
	}
	return checked, nil
}

// amplifying are the functions of cel-go's string extension whose output
// can be the product of their inputs' sizes (s.replace("", s) squares s;
// nesting such calls grows memory exponentially without any loop for the
// cost limit to see). Policies decide, they do not build strings.
var amplifying = map[string]bool{"replace": true, "join": true, "format": true}

// checkFunctions rejects calls to amplifying functions and constant
// regular expressions that do not compile, naming the first one's position.
func checkFunctions(checked *cel.Ast) error {
	rep := checked.NativeRep()
	var (
		bad ast.Expr
		msg string
	)
	ast.PreOrderVisit(rep.Expr(), ast.NewExprVisitor(func(e ast.Expr) {
		if bad != nil || e.Kind() != ast.CallKind {
			return
		}
		call := e.AsCall()
		switch name := call.FunctionName(); {
		case amplifying[name]:
			bad, msg = e, fmt.Sprintf("function '%s' is not available in policies", name)
		case name == "matches":
			args := call.Args()
			pattern := args[len(args)-1] // s.matches(re) or matches(s, re)
			if pattern.Kind() != ast.LiteralKind {
				return
			}
			if re, ok := pattern.AsLiteral().(types.String); ok {
				if _, err := regexp.Compile(string(re)); err != nil {
					bad, msg = pattern, "invalid regular expression: "+err.Error()
				}
			}
		}
	}))
	if bad == nil {
		return nil
	}
	loc := rep.SourceInfo().GetStartLocation(bad.ID())
	return engine.FieldErrorf("expression", "expression: ERROR: <input>:%d:%d: %s", loc.Line(), loc.Column()+1, msg)
}

// formatIssues renders CEL errors one line each, without cel-go's source
// snippets (the position is in the line:column) and without the noise of
// the empty container name.
func formatIssues(iss *cel.Issues) string {
	errs := iss.Errors()
	var b strings.Builder
	for i, e := range errs {
		if i == maxReportedIssues {
			fmt.Fprintf(&b, "; and %d more", len(errs)-i)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		msg := strings.TrimSuffix(e.Message, " (in container '')")
		fmt.Fprintf(&b, "ERROR: <input>:%d:%d: %s", e.Location.Line(), e.Location.Column()+1, msg)
	}
	return b.String()
}

func quote(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return "\"" + strings.ToValidUTF8(s, "?") + "\""
}
