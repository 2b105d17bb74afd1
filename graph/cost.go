package graph

import (
	"context"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/fourd-dev/fourd/graph/generated"
	"github.com/fourd-dev/fourd/graph/model"
)

// Query cost. Every field costs 1 plus its children; a connection costs
// 1 + first × (its children), so nested connections multiply; a lookup by
// several ids costs per id; analytics and dry runs cost a fixed amount for
// their server-side work. An operation over MaxComplexity is rejected
// before anything runs.
const (
	// DefaultMaxComplexity admits a full page of 200 findings with their
	// resources and a few fields each, but not a page of resources each with
	// a page of findings.
	DefaultMaxComplexity = 10_000
	// DefaultMaxDepth bounds how deeply selections nest (introspection
	// fields aside).
	DefaultMaxDepth = 12
	// analyticsCost is the fixed cost of an aggregation on the server.
	analyticsCost = 50
	// dryRunCost is the fixed cost of evaluating a policy on the inventory.
	dryRunCost = 500
	// complianceFrameworksBound bounds the frameworks the catalog lists
	// (five today), for the cost of complianceFrameworks.
	complianceFrameworksBound = 10
)

// connectionCost is the cost of a connection field: its page size times
// its children.
func connectionCost(child int, first *int) int {
	n := engine.DefaultLimit
	if first != nil && *first > 0 {
		n = *first
	}
	return 1 + n*child
}

// complexity returns the cost functions of the schema's expensive fields.
func complexity() generated.ComplexityRoot {
	var c generated.ComplexityRoot
	findingsCost := func(child int, first *int, _ *string, _ *int, _ *string, _ *engine.FindingFilter) int {
		return connectionCost(child, first)
	}
	list := func(child int, first *int, _ *string, _ *int, _ *string) int { return connectionCost(child, first) }
	c.Query.Findings = findingsCost
	c.Resource.Findings = findingsCost
	c.Audit.Findings = findingsCost
	c.Query.Resources = func(child int, first *int, _ *string, _ *int, _ *string, _ *engine.ResourceFilter) int {
		return connectionCost(child, first)
	}
	c.Query.Audits = list
	c.Query.Policies = list
	c.Query.Reports = list
	// Explaining a resource runs the pack over it and reads the facts of
	// its account: priced like an aggregation, so a page of resources
	// cannot explain them all.
	c.Resource.Explain = func(child int) int { return analyticsCost + child }
	c.Query.Nodes = func(child int, ids []string) int { return 1 + len(ids)*child }
	c.Query.FindingStats = func(child int, _ []engine.GroupBy, _ *engine.FindingFilter) int { return analyticsCost + child }
	c.Query.FindingTrend = func(child int, _, _ time.Time, _ []engine.GroupBy, _ *engine.FindingFilter) int {
		return analyticsCost + findings.MaxTrendPoints*child
	}
	ranking := func(child int, first *int, _ *string, _ *engine.Dimension) int {
		n := engine.DefaultDashboardLimit
		if first != nil && *first > 0 {
			n = *first
		}
		return analyticsCost + n*child
	}
	c.Query.TopRules, c.Query.TopResources, c.Query.TopAccounts = ranking, ranking, ranking
	c.Query.MeanTimeToResolve = func(child int, _ *string, _ *engine.Dimension) int {
		return analyticsCost + len(engine.Severities)*child
	}
	// A posture judges a snapshot (an aggregation); its controls judge it
	// again, a page at a time; its trend reads recorded rows.
	c.Query.ComplianceFrameworks = func(child int, _ *string) int { return analyticsCost + complianceFrameworksBound*child }
	c.Query.ComplianceFramework = func(child int, _ string, _ *string) int { return analyticsCost + child }
	c.CompliancePosture.Controls = func(child int, _ *engine.ControlStatus, first *int, _ *string) int {
		return analyticsCost + connectionCost(child, first)
	}
	c.CompliancePosture.Trend = func(child int, first *int, _ *string) int { return connectionCost(child, first) }
	c.Mutation.DryRunPolicy = func(child int, _ engine.PolicyInput, _ *int) int { return dryRunCost + child }
	c.Mutation.TestPolicy = func(child int, _ string, _ *int) int { return dryRunCost + child }
	// A finding's activity reads PostgreSQL and the tenant's snapshots: an
	// aggregation per finding, on top of its page.
	c.Finding.Activity = func(child int, first *int, _ *string) int { return analyticsCost + connectionCost(child, first) }
	// Up to 1,000 writes: as heavy as a dry run.
	c.Mutation.BulkUpdateFindings = func(child int, _ model.BulkUpdateFindingsInput) int { return dryRunCost + child }
	return c
}

// depthLimit rejects operations whose selections nest deeper than max,
// before they run. Introspection (__schema, __type) is not counted: its
// standard query is deep but cheap.
type depthLimit struct{ limit int }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = depthLimit{}

func (depthLimit) ExtensionName() string                          { return "DepthLimit" }
func (depthLimit) Validate(schema graphql.ExecutableSchema) error { return nil }

func (d depthLimit) MutateOperationContext(ctx context.Context, opCtx *graphql.OperationContext) *gqlerror.Error {
	op := opCtx.Doc.Operations.ForName(opCtx.OperationName)
	if op == nil {
		return nil
	}
	if depth := selectionDepth(op.SelectionSet, 0, d.limit); depth > d.limit {
		err := gqlerror.Errorf("operation nests %d levels deep or more, over the limit of %d", depth, d.limit)
		err.Extensions = map[string]any{"code": codeTooDeep}
		return err
	}
	return nil
}

// selectionDepth returns the depth of a selection set, counting from
// depth; it stops descending past limit.
func selectionDepth(set ast.SelectionSet, depth, limit int) int {
	if depth > limit {
		return depth
	}
	deepest := depth
	for _, sel := range set {
		var d int
		switch s := sel.(type) {
		case *ast.Field:
			if len(s.Name) > 1 && s.Name[:2] == "__" {
				continue
			}
			d = depth + 1
			if len(s.SelectionSet) > 0 {
				d = selectionDepth(s.SelectionSet, depth+1, limit)
			}
		case *ast.InlineFragment:
			d = selectionDepth(s.SelectionSet, depth, limit)
		case *ast.FragmentSpread:
			if s.Definition != nil {
				d = selectionDepth(s.Definition.SelectionSet, depth, limit)
			}
		}
		deepest = max(deepest, d)
	}
	return deepest
}
