package policy

import (
	"fmt"
	"sync"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/ext"
)

// Limits of the evaluation.
const (
	// DefaultCostLimit is the evaluation budget of one policy on one
	// resource, in cost units: one per comprehension iteration (exists,
	// all, exists_one, map, filter), nested ones included. Everything else
	// an expression does is bounded by its length. A check over a few
	// thousand list elements fits; nested loops over large lists do not.
	DefaultCostLimit uint64 = 10_000
	// MaxCostLimit bounds Config.CostLimit.
	MaxCostLimit uint64 = 1_000_000
	// interruptCheckFrequency is how many comprehension iterations run
	// between checks of the context's Done channel.
	interruptCheckFrequency = 64
)

// Config configures a Compiler.
type Config struct {
	// CostLimit is the evaluation budget per policy and resource; zero
	// means DefaultCostLimit.
	CostLimit uint64
}

// Validate reports whether the configuration is usable.
func (c Config) Validate() error {
	if c.CostLimit > MaxCostLimit {
		return fmt.Errorf("policy: cost limit %d is above the maximum %d", c.CostLimit, MaxCostLimit)
	}
	return nil
}

// Compiler holds the CEL environments policies compile in. It is safe for
// concurrent use; build one per process (NewCompiler costs about a
// millisecond) and compile each policy once per audit.
type Compiler struct {
	costLimit uint64
	// resourceEnv declares `resource` (raise policies); findingEnv also
	// declares `finding` (severity policies).
	resourceEnv *cel.Env
	findingEnv  *cel.Env
}

// NewCompiler returns a compiler with the given configuration.
func NewCompiler(cfg Config) (*Compiler, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.CostLimit == 0 {
		cfg.CostLimit = DefaultCostLimit
	}
	res, fnd := resourceObject(), findingObject()
	base := []cel.EnvOption{
		ext.Strings(),
		cel.OptionalTypes(),
		// After the options above: they register types with the base
		// provider, which this one wraps.
		withObjects(res, fnd),
		cel.Variable("resource", res.celType),
		cel.CrossTypeNumericComparisons(true),
		cel.DefaultUTCTimeZone(true),
		cel.ParserExpressionSizeLimit(MaxExpressionLength),
		severityRank(),
	}
	resourceEnv, err := cel.NewEnv(base...)
	if err != nil {
		return nil, fmt.Errorf("policy: resource environment: %w", err)
	}
	findingEnv, err := resourceEnv.Extend(cel.Variable("finding", fnd.celType))
	if err != nil {
		return nil, fmt.Errorf("policy: finding environment: %w", err)
	}
	return &Compiler{costLimit: cfg.CostLimit, resourceEnv: resourceEnv, findingEnv: findingEnv}, nil
}

// CostLimit is the evaluation budget per policy and resource.
func (c *Compiler) CostLimit() uint64 { return c.costLimit }

// env is the environment of a policy with the given effect.
func (c *Compiler) env(effect engine.PolicyEffect) *cel.Env {
	if effect == engine.PolicySeverityAtLeast || effect == engine.PolicySeverityAtMost {
		return c.findingEnv
	}
	return c.resourceEnv
}

// severityRank declares severity_rank(string) int: 1 (info) to 5
// (critical), so that expressions can compare severities; an unknown
// severity is an evaluation error.
func severityRank() cel.EnvOption {
	return cel.Function("severity_rank",
		cel.Overload("severity_rank_string", []*cel.Type{cel.StringType}, cel.IntType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				s, ok := v.(types.String)
				if !ok {
					return types.MaybeNoSuchOverloadErr(v)
				}
				r := engine.Severity(s).Rank()
				if r == 0 {
					return types.NewErr("severity_rank: unknown severity %q", string(s))
				}
				return types.Int(r)
			})))
}

// defaultCompiler is built on first use and shared: it is immutable, and
// building cel-go environments per call would cost a millisecond each.
var defaultCompiler = sync.OnceValues(func() (*Compiler, error) { return NewCompiler(Config{}) })

// Default returns the shared compiler with the default configuration.
func Default() *Compiler {
	c, err := defaultCompiler()
	if err != nil {
		// The default environment is fixed at build time; failing to build
		// it is a programming error caught by every test of this package.
		panic(err)
	}
	return c
}

// Validate validates p with the default compiler; see Compiler.Validate.
func Validate(p engine.Policy) error { return Default().Validate(p) }

// Compile compiles p with the default compiler; see Compiler.Compile.
func Compile(p engine.Policy) (*Program, error) { return Default().Compile(p) }
