package graph

import (
	"context"
	"fmt"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/ulule/limiter/v3"
	"github.com/ulule/limiter/v3/drivers/store/memory"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/fourd-dev/fourd/engine"
)

// DefaultCostPerMinute is each token's query-cost budget per minute when
// the handler makes its own in-memory budget.
const DefaultCostPerMinute = 200_000

// CostBudget is the query-cost budget, separate from the request rate
// limit: each operation's cost (its complexity) is charged to its caller.
type CostBudget interface {
	// Spend charges cost to p's budget and returns what is left;
	// rate_limited when the budget does not cover it.
	Spend(ctx context.Context, p engine.Principal, cost int) (remaining int64, err error)
}

// NewCostBudget returns an in-memory CostBudget of perMinute cost points a
// minute per token (several replicas each keep their own; pass a budget
// over a shared store, e.g. ulule/limiter's Redis store, to share it).
func NewCostBudget(perMinute int64) CostBudget {
	rate := limiter.Rate{Period: 60_000_000_000, Limit: perMinute}
	return &limiterBudget{l: limiter.New(memory.NewStore(), rate)}
}

type limiterBudget struct{ l *limiter.Limiter }

func (b *limiterBudget) Spend(ctx context.Context, p engine.Principal, cost int) (int64, error) {
	lc, err := b.l.Increment(ctx, "graphql-cost:"+p.TokenID, int64(cost))
	if err != nil {
		return 0, fmt.Errorf("cost budget: %w", err)
	}
	if lc.Reached {
		// lc.Reset is the Unix time the window ends, not a wait.
		wait := max(time.Until(time.Unix(lc.Reset, 0)).Round(time.Second), time.Second)
		return 0, engine.Errorf(engine.CodeRateLimited,
			"this token's GraphQL query-cost budget (%d a minute) is spent; retry in %s (at %s)",
			lc.Limit, wait, time.Unix(lc.Reset, 0).UTC().Format(time.RFC3339))
	}
	return lc.Remaining, nil
}

// costCharge charges an operation's complexity, computed by gqlgen's
// ComplexityLimit extension just before, to the caller's budget, and
// reports cost, limit and what is left in extensions.cost.
type costCharge struct{ budget CostBudget }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
	graphql.ResponseInterceptor
} = costCharge{}

func (costCharge) ExtensionName() string                          { return "CostBudget" }
func (costCharge) Validate(schema graphql.ExecutableSchema) error { return nil }

type costInfo struct {
	Requested int   `json:"requested"`
	Limit     int   `json:"limit"`
	Remaining int64 `json:"budgetRemaining"`
}

func (c costCharge) MutateOperationContext(ctx context.Context, opCtx *graphql.OperationContext) *gqlerror.Error {
	stats, ok := opCtx.Stats.GetExtension("ComplexityLimit").(*extension.ComplexityStats)
	if !ok || c.budget == nil {
		return nil
	}
	cost := max(stats.Complexity, 1)
	remaining, err := c.budget.Spend(ctx, engine.PrincipalFromContext(ctx), cost)
	if err != nil {
		gerr := gqlerror.Errorf("%s", engine.ErrorMessage(err))
		gerr.Extensions = map[string]any{"code": engine.ErrorCode(err)}
		return gerr
	}
	opCtx.Stats.SetExtension("CostBudget", &costInfo{Requested: cost, Limit: stats.ComplexityLimit, Remaining: remaining})
	return nil
}

func (costCharge) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	if resp == nil || !graphql.HasOperationContext(ctx) {
		return resp
	}
	if info, ok := graphql.GetOperationContext(ctx).Stats.GetExtension("CostBudget").(*costInfo); ok {
		if resp.Extensions == nil {
			resp.Extensions = map[string]any{}
		}
		resp.Extensions["cost"] = info
	}
	return resp
}
