package policy

import (
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"

	"github.com/fourd-dev/fourd/engine"
)

var _ engine.MuteConditioner = (*MuteProgram)(nil)

// muteCondFields maps the CEL fields a MuteCond may compare to themselves:
// those a snapshot row holds for every finding (resource.* here are the
// finding's denormalized copies, which is what Match reads with no
// resource).
var muteCondFields = func() map[string]engine.MuteField {
	out := make(map[string]engine.MuteField, len(engine.MuteFields))
	for _, f := range engine.MuteFields {
		out[string(f)] = f
	}
	return out
}()

// Condition returns the expression as an engine.MuteCond when it is made
// only of &&, ||, !, ==, != and `in` a list literal, comparing the fields of
// engine.MuteFields with string literals (and the literals true and false);
// false otherwise. On every finding, the condition holds exactly when
// Match is true: none of these forms can fail to evaluate.
func (m *MuteProgram) Condition() (engine.MuteCond, bool) {
	if m.needsResource {
		return engine.MuteCond{}, false
	}
	return muteCond(m.prg.checked.NativeRep().Expr())
}

// muteCond translates one node of a checked expression.
func muteCond(e ast.Expr) (engine.MuteCond, bool) {
	switch e.Kind() {
	case ast.LiteralKind:
		switch e.AsLiteral() {
		case types.True:
			return engine.MuteCond{Op: engine.MuteTrue}, true
		case types.False:
			return engine.MuteCond{Op: engine.MuteFalse}, true
		}
		return engine.MuteCond{}, false
	case ast.CallKind:
	default:
		return engine.MuteCond{}, false
	}
	call := e.AsCall()
	if call.IsMemberFunction() {
		return engine.MuteCond{}, false
	}
	args := call.Args()
	switch call.FunctionName() {
	case operators.LogicalAnd, operators.LogicalOr:
		op := engine.MuteAnd
		if call.FunctionName() == operators.LogicalOr {
			op = engine.MuteOr
		}
		out := engine.MuteCond{Op: op}
		for _, a := range args {
			c, ok := muteCond(a)
			if !ok {
				return engine.MuteCond{}, false
			}
			if c.Op == op { // (a && b) && c is one conjunction
				out.Args = append(out.Args, c.Args...)
			} else {
				out.Args = append(out.Args, c)
			}
		}
		return out, len(out.Args) >= 2
	case operators.LogicalNot:
		if len(args) != 1 {
			return engine.MuteCond{}, false
		}
		c, ok := muteCond(args[0])
		return engine.MuteCond{Op: engine.MuteNot, Args: []engine.MuteCond{c}}, ok
	case operators.Equals, operators.NotEquals:
		if len(args) != 2 {
			return engine.MuteCond{}, false
		}
		f, ok := condField(args[0])
		v, okv := stringLiteral(args[1])
		if !ok || !okv {
			if f, ok = condField(args[1]); !ok {
				return engine.MuteCond{}, false
			}
			if v, okv = stringLiteral(args[0]); !okv {
				return engine.MuteCond{}, false
			}
		}
		c := engine.MuteCond{Op: engine.MuteEq, Field: f, Values: []string{v}}
		if call.FunctionName() == operators.NotEquals {
			c = engine.MuteCond{Op: engine.MuteNot, Args: []engine.MuteCond{c}}
		}
		return c, true
	case operators.In:
		if len(args) != 2 || args[1].Kind() != ast.ListKind {
			return engine.MuteCond{}, false
		}
		f, ok := condField(args[0])
		if !ok {
			return engine.MuteCond{}, false
		}
		list := args[1].AsList()
		if len(list.OptionalIndices()) > 0 {
			return engine.MuteCond{}, false
		}
		c := engine.MuteCond{Op: engine.MuteIn, Field: f, Values: []string{}}
		for _, el := range list.Elements() {
			v, ok := stringLiteral(el)
			if !ok {
				return engine.MuteCond{}, false
			}
			c.Values = append(c.Values, v)
		}
		return c, true
	}
	return engine.MuteCond{}, false
}

// condField is the MuteField a node selects (finding.rule_id, …).
func condField(e ast.Expr) (engine.MuteField, bool) {
	if e.Kind() != ast.SelectKind {
		return "", false
	}
	sel := e.AsSelect()
	if sel.IsTestOnly() || sel.Operand().Kind() != ast.IdentKind {
		return "", false
	}
	f, ok := muteCondFields[sel.Operand().AsIdent()+"."+sel.FieldName()]
	return f, ok
}

// stringLiteral is a node's value when it is a string literal.
func stringLiteral(e ast.Expr) (string, bool) {
	if e.Kind() != ast.LiteralKind {
		return "", false
	}
	s, ok := e.AsLiteral().(types.String)
	return string(s), ok
}
