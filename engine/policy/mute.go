package policy

import (
	"context"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/cel-go/common/ast"
)

// MuteProgram is a compiled mute rule expression: a severity policy's
// environment (`finding` and `resource`) and limits, deciding whether an
// open finding is muted.
type MuteProgram struct {
	prg           *Program
	needsResource bool
}

// resourceOnlyFields are the fields of `resource` that a finding does not
// carry denormalized: reading one needs the resource itself.
var resourceOnlyFields = map[string]bool{"name": true, "native_id": true, "tags": true, "attributes": true}

// CompileMute compiles and type-checks a mute rule expression, refusing
// what Validate refuses of a policy's expression (validation_failed on
// field expression, with the CEL error position).
func (c *Compiler) CompileMute(expr string) (*MuteProgram, error) {
	p := engine.Policy{ID: "mute", Name: "mute rule", Effect: engine.PolicySeverityAtMost,
		Severity: engine.SeverityInfo, Expression: expr}
	prg, err := c.Compile(p)
	if err != nil {
		return nil, err
	}
	if err := c.checkSize(prg); err != nil {
		return nil, err
	}
	m := &MuteProgram{prg: prg}
	ast.PreOrderVisit(prg.checked.NativeRep().Expr(), ast.NewExprVisitor(func(e ast.Expr) {
		if e.Kind() != ast.SelectKind {
			return
		}
		sel := e.AsSelect()
		if op := sel.Operand(); op.Kind() == ast.IdentKind && op.AsIdent() == "resource" && resourceOnlyFields[sel.FieldName()] {
			m.needsResource = true
		}
	}))
	return m, nil
}

// NeedsResource reports whether the expression reads a field of `resource`
// that the finding does not carry (name, native_id, tags, attributes).
func (m *MuteProgram) NeedsResource() bool { return m.needsResource }

// Match evaluates the expression on f and its resource r; with r nil, the
// resource is the one the finding describes (id, type, provider, account,
// region). An evaluation error (a missing attribute, the cost limit) is
// returned and does not mute.
func (m *MuteProgram) Match(ctx context.Context, f *engine.Finding, r *engine.Resource) (bool, error) {
	in := Input{Finding: f}
	if r != nil {
		in.Resource = *r
		attrs, err := ParseAttributes(r.Attributes)
		if err != nil {
			return false, err
		}
		in.Attributes = attrs
	} else {
		in.Resource = engine.Resource{ID: f.ResourceID, Type: f.ResourceType, Provider: f.Provider,
			Account: f.Account, Region: f.Region}
	}
	return m.prg.Match(ctx, in)
}
