package policy

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// Program is a compiled policy, ready to be evaluated against many
// resources. It is immutable and safe for concurrent use.
type Program struct {
	policy      engine.Policy
	prg         cel.Program
	checked     *cel.Ast
	costLimit   uint64
	scope       map[string]struct{} // nil: every resource type
	title       template
	remediation template
	evidence    json.RawMessage
}

// Input is what a policy is evaluated against. Attributes are the
// resource's attributes parsed by ParseAttributes, once per resource, and
// shared (read-only) by every policy evaluated on it. Finding is the
// built-in finding under consideration; severity policies need it and raise
// policies ignore it.
type Input struct {
	Resource   engine.Resource
	Attributes map[string]any
	// Tags are the resource's tags as a map, as expressions read them
	// (made from Resource.Tags at each read when nil): callers evaluating
	// several programs on a resource make it once (engine.Tags.Map).
	Tags    map[string]string
	Finding *engine.Finding
}

// Compile validates p (see Validate) and compiles it. The error is the
// validation_failed *engine.Error that Validate returns, or an internal
// error if the evidence cannot be encoded.
func (c *Compiler) Compile(p engine.Policy) (*Program, error) {
	checked, err := c.compile(p)
	if err != nil {
		return nil, err
	}
	p.ResourceTypes = slices.Clone(p.ResourceTypes) // immutable from here on
	// Any non-zero frequency makes folds poll #interrupted on every
	// iteration; the activation decides what to do with it.
	prg, err := c.env(p.Effect).Program(checked,
		cel.InterruptCheckFrequency(interruptCheckFrequency),
		// Measures what concatenations and string functions build.
		cel.CustomDecorator(sizeGuard),
		// Folds constants and compiles constant regular expressions once.
		cel.EvalOptions(cel.OptOptimize))
	if err != nil {
		// Planning evaluates constant parts (OptOptimize); checkFunctions
		// catches the known failures with a position, this the rest.
		return nil, engine.FieldErrorf("expression", "expression: %v", err)
	}
	// The templates parsed in validateFields; parsing again is cheaper
	// than threading them through.
	title, _ := parseTemplate("title", p.Title)
	if p.Title == "" {
		title = template{parts: []part{{text: p.Name}}}
	}
	remediation, _ := parseTemplate("remediation", p.Remediation)
	evidence, err := json.Marshal(struct {
		PolicyID      string              `json:"policy_id"`
		PolicyVersion int                 `json:"policy_version"`
		PolicyName    string              `json:"policy_name"`
		Effect        engine.PolicyEffect `json:"effect"`
		Expression    string              `json:"expression"`
	}{p.ID, p.Version, p.Name, p.Effect, p.Expression})
	if err != nil {
		return nil, fmt.Errorf("policy %s: evidence: %w", p.ID, err)
	}
	prog := &Program{policy: p, prg: prg, checked: checked, costLimit: c.costLimit, title: title, remediation: remediation, evidence: evidence}
	if len(p.ResourceTypes) > 0 {
		prog.scope = make(map[string]struct{}, len(p.ResourceTypes))
		for _, t := range p.ResourceTypes {
			prog.scope[t] = struct{}{}
		}
	}
	return prog, nil
}

// compile validates the fields and type-checks the expression.
func (c *Compiler) compile(p engine.Policy) (*cel.Ast, error) {
	if err := validateFields(p); err != nil {
		return nil, err
	}
	return checkExpression(c.env(p.Effect), p.Expression)
}

// Policy returns the policy the program was compiled from.
func (p *Program) Policy() engine.Policy { return p.policy }

// Applies reports whether the policy's resource-type scope includes
// resourceType. Callers check it before parsing attributes for the policy.
func (p *Program) Applies(resourceType string) bool {
	if p.scope == nil {
		return true
	}
	_, ok := p.scope[resourceType]
	return ok
}

// activation resolves the two variables of an evaluation and meters it.
// cel-go's interruptible folds ask every comprehension iteration for the
// variable #interrupted: that is where the cost budget is charged and the
// context is checked. (cel-go's own cost tracker observes every node and
// grows quadratically with comprehension length; this meter costs an
// increment.) Activations are pooled: Match allocates nothing of its own.
type activation struct {
	in        Input
	steps     uint64
	limit     uint64
	done      <-chan struct{}
	exceeded  bool
	cancelled bool
	// built sums the bytes of the strings the evaluation built; oversize
	// is why the size guard refused one (empty: it did not).
	built    uint64
	oversize string
}

// interruptVar is the variable cel-go's interruptible folds poll.
const interruptVar = "#interrupted"

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case "resource":
		return &a.in, true
	case "finding":
		if a.in.Finding != nil {
			return a.in.Finding, true
		}
	case meterVar:
		return a, true
	case interruptVar:
		a.steps++
		if a.steps > a.limit {
			a.exceeded = true
			return true, true
		}
		if a.done != nil && a.steps%interruptCheckFrequency == 0 {
			select {
			case <-a.done:
				a.cancelled = true
				return true, true
			default:
			}
		}
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }

var activations = sync.Pool{New: func() any { return new(activation) }}

// Match evaluates the policy against in. It is false without evaluating
// when the resource type is out of scope or, for a severity policy with a
// dimension, when the finding is of another dimension. It returns an
// *EvalError when the evaluation fails (cost limit exceeded, runtime error
// such as a missing map key, a result that is not a bool, or a severity
// policy given no finding), and ctx.Err() when ctx ends first.
func (p *Program) Match(ctx context.Context, in Input) (bool, error) {
	if !p.Applies(in.Resource.Type) {
		return false, nil
	}
	if p.policy.Effect != engine.PolicyRaise {
		if in.Finding == nil {
			return false, p.evalError(in, ReasonRuntime, "severity policies are evaluated against a finding; none given")
		}
		if p.policy.Dimension != "" && in.Finding.Dimension != p.policy.Dimension {
			return false, nil
		}
	}
	act := activations.Get().(*activation)
	*act = activation{in: in, limit: p.costLimit, done: ctx.Done()}
	val, _, err := p.prg.Eval(act)
	exceeded, cancelled, oversize := act.exceeded, act.cancelled, act.oversize
	*act = activation{}
	activations.Put(act)
	switch {
	case cancelled || ctx.Err() != nil:
		return false, ctx.Err()
	case exceeded:
		// Checked before the result: `true || <interrupted loop>` is true
		// but the budget was still spent.
		return false, p.evalError(in, ReasonCostLimit, fmt.Sprintf("cost limit of %d exceeded", p.costLimit))
	case oversize != "":
		// Also before the result, for the same reason.
		return false, p.evalError(in, ReasonSizeLimit, oversize)
	case err != nil:
		return false, p.evalError(in, ReasonRuntime, err.Error())
	}
	b, ok := val.(types.Bool)
	if !ok {
		return false, p.evalError(in, ReasonNotBool, fmt.Sprintf("expression evaluated to %s, not a bool", typeOf(val)))
	}
	return bool(b), nil
}

func typeOf(v any) string {
	if rv, ok := v.(ref.Val); ok {
		return rv.Type().TypeName()
	}
	return fmt.Sprintf("%T", v)
}

func (p *Program) evalError(in Input, reason EvalReason, msg string) *EvalError {
	return &EvalError{PolicyID: p.policy.ID, ResourceID: in.Resource.ID, Reason: reason, Message: msg}
}
