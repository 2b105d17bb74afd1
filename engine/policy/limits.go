package policy

import (
	"fmt"
	"math"

	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/overloads"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
)

// Limits on the values an expression builds. The cost limit counts loop
// iterations; these bound memory, which a few iterations can exhaust when
// each one doubles a string: `[[resource.name].map(a, a + a)[0]]…` nested
// 24 times is 479 bytes of expression and 16 million times the name.
const (
	// MaxValueBytes bounds a string or bytes value an expression builds
	// (by concatenation or a string function), in bytes.
	MaxValueBytes = 1 << 20
	// MaxListElements bounds a list an expression builds by concatenation
	// (a view over its operands: the limit bounds the time of `in` and
	// `==` on it, which no loop meters).
	MaxListElements = 1 << 17
	// MaxBuiltBytes bounds the bytes of every string and bytes value one
	// evaluation builds, summed.
	MaxBuiltBytes = 16 << 20
)

// building are the functions whose result is a new value at least as
// large as an input: their results are measured at run time.
var building = map[string]bool{
	"_+_": true, "lowerAscii": true, "upperAscii": true, "trim": true, "reverse": true,
	"quote": true, "substring": true, "charAt": true, "string": true, "bytes": true,
}

// meterVar is the name under which an evaluation's activation hands its
// meter to the size guard, through whatever activations comprehensions
// stack on top of it.
const meterVar = "#fourd.meter"

// sizeGuard is a cel-go decorator: it wraps every call to a building
// function so that its result is measured against the limits above.
func sizeGuard(i interpreter.Interpretable) (interpreter.Interpretable, error) {
	call, ok := i.(interpreter.InterpretableCall)
	if !ok || !building[call.Function()] {
		return i, nil
	}
	return &guardedCall{InterpretableCall: call}, nil
}

// guardedCall is a building call whose result is measured.
type guardedCall struct {
	interpreter.InterpretableCall
}

// Eval evaluates the call, then refuses a result over MaxValueBytes or
// MaxListElements, or one that takes the evaluation over MaxBuiltBytes. The
// refusal is recorded on the evaluation's activation too, since `||` and
// `&&` may swallow an error value.
func (g *guardedCall) Eval(vars interpreter.Activation) ref.Val {
	v := g.InterpretableCall.Eval(vars)
	var n int
	switch x := v.(type) {
	case types.String:
		n = len(x)
	case types.Bytes:
		n = len(x)
	case traits.Lister:
		if g.Function() != "_+_" {
			return v
		}
		if size, ok := x.Size().(types.Int); ok && size > MaxListElements {
			return refuse(vars, fmt.Sprintf("a list built by the expression exceeds %d elements", MaxListElements))
		}
		return v
	default:
		return v
	}
	if n > MaxValueBytes {
		return refuse(vars, fmt.Sprintf("a string built by the expression exceeds %d bytes", MaxValueBytes))
	}
	if m := meterOf(vars); m != nil {
		m.built += uint64(n)
		if m.built > MaxBuiltBytes {
			return refuse(vars, fmt.Sprintf("the strings built by the expression exceed %d bytes in all", MaxBuiltBytes))
		}
	}
	return v
}

// meterOf finds the evaluation's activation, or nil outside an evaluation
// (cel-go folds constant calls while planning).
func meterOf(vars interpreter.Activation) *activation {
	if vars == nil {
		return nil
	}
	m, ok := vars.ResolveName(meterVar)
	if !ok {
		return nil
	}
	a, _ := m.(*activation)
	return a
}

// refuse records a size refusal and returns it as an error value.
func refuse(vars interpreter.Activation, msg string) ref.Val {
	if m := meterOf(vars); m != nil && m.oversize == "" {
		m.oversize = msg
	}
	return types.NewErr("%s", msg)
}

// sizeEstimator gives cel-go's cost estimator the largest size of every
// value of an expression's input, and watches the sizes it derives for the
// values the expression builds: an expression that could build a value
// over the limits (or one whose size cannot be bounded) is refused when it
// is written, before any audit runs it.
type sizeEstimator struct {
	problem string
}

var _ checker.CostEstimator = (*sizeEstimator)(nil)

// inputSizes are the largest sizes of the resource's fields, as an import
// accepts them (engine/inventory's limits). CEL sizes are characters for
// strings and entries for lists and maps; each is at most the bytes.
var inputSizes = map[string]uint64{
	"id": 64, "type": 128, "provider": 32, "account": 128, "region": 64,
	"name": 1024, "native_id": 2048,
	"tags":       256,       // 128 tags; keys 128 bytes, values 256
	"attributes": 512 << 10, // any value inside the attributes too
}

// derivedSize stands for a value whose size cel-go cannot derive (the
// element of a split, a conversion): it comes from the input, so it is no
// larger than the largest input value, the attributes.
const derivedSize = 512 << 10

// inputSize is the largest size of an input value, by its path from the
// variable: a resource field, or a finding's (whose strings are rule
// titles and identifiers, under 64 KiB).
func inputSize(path []string) *checker.SizeEstimate {
	if len(path) < 2 {
		return nil
	}
	switch path[0] {
	case "resource":
		if max, ok := inputSizes[path[1]]; ok {
			return &checker.SizeEstimate{Min: 0, Max: max}
		}
	case "finding":
		return &checker.SizeEstimate{Min: 0, Max: 64 << 10}
	}
	return nil
}

// preserving are the string functions whose result is no longer than
// their target; cel-go gives them no result size.
var preserving = map[string]bool{
	"lowerAscii": true, "upperAscii": true, "trim": true, "reverse": true, "substring": true, "charAt": true,
}

// EstimateSize implements checker.CostEstimator.
func (e *sizeEstimator) EstimateSize(node checker.AstNode) *checker.SizeEstimate {
	return inputSize(node.Path())
}

// EstimateCallCost implements checker.CostEstimator: it leaves the cost to
// cel-go and checks the size of what building calls return.
func (e *sizeEstimator) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	if e.problem != "" {
		return nil
	}
	if preserving[function] && target != nil {
		sz := sizeOf(*target)
		return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(0.1), ResultSize: &sz}
	}
	switch overloadID {
	case overloads.AddString, overloads.AddBytes, overloads.AddList:
	default:
		return nil
	}
	var total uint64
	for _, a := range args {
		if overloadID == overloads.AddList && a.Type().Kind() != types.ListKind {
			// dyn + dyn is a string concatenation as often as a list
			// one; the run-time limit covers it.
			return nil
		}
		sz := sizeOf(a)
		total += sz.Max
		if total < sz.Max { // overflow
			total = math.MaxUint64
		}
	}
	switch {
	case overloadID == overloads.AddList && total > MaxListElements:
		e.problem = fmt.Sprintf("it can build a list of %s, over the limit of %d", amount(total, "elements"), MaxListElements)
	case overloadID != overloads.AddList && total > MaxValueBytes:
		e.problem = fmt.Sprintf("it can build a string of %s, over the limit of %d bytes", amount(total, "characters"), MaxValueBytes)
	}
	if overloadID == overloads.AddList {
		return nil // cel-go's estimate tracks the elements' sizes too
	}
	// The string's size, from the sizes above: cel-go's own would be
	// unbounded as soon as one operand's is unknown.
	result := checker.SizeEstimate{Min: 0, Max: total}
	return &checker.CallEstimate{CostEstimate: result.MultiplyByCostFactor(0.1), ResultSize: &result}
}

// sizeOf is the size cel-go derived for a node, or derivedSize.
func sizeOf(n checker.AstNode) checker.SizeEstimate {
	if sz := n.ComputedSize(); sz != nil && sz.Max != math.MaxUint64 {
		return *sz
	}
	return checker.SizeEstimate{Min: 0, Max: derivedSize}
}

// amount renders an estimated size for a message.
func amount(n uint64, unit string) string {
	if n == math.MaxUint64 {
		return "unbounded size"
	}
	return fmt.Sprintf("up to %d %s", n, unit)
}
