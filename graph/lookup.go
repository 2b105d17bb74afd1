package graph

import (
	"context"
	"strings"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/graph/model"
)

// node dispatches a global id on its prefix.
func (r *Resolver) node(ctx context.Context, id string) (model.Node, error) {
	p := caller(ctx)
	prefix, _, _ := strings.Cut(id, "_")
	var (
		n   model.Node
		err error
	)
	switch prefix {
	case engine.PrefixFinding:
		n, err = orNil(r.svc.GetFinding(ctx, p, id))
	case engine.PrefixResource:
		n, err = orNil(r.svc.GetResource(ctx, p, id))
	case engine.PrefixAudit:
		n, err = orNil(r.svc.GetAudit(ctx, p, id))
	case engine.PrefixPolicy:
		n, err = orNil(r.policies.GetPolicy(ctx, p, id))
	case engine.PrefixReport:
		n, err = orNil(r.reports.GetReport(ctx, p, id))
	default:
		return nil, engine.Errorf(engine.CodeNotFound, "no object with id %q", truncate(id, 64))
	}
	if err != nil {
		return nil, err
	}
	return n, nil
}

// truncate bounds an echoed input.
func truncate(s string, n int) string {
	if len(s) > n {
		s = s[:n] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}

// keyOf returns a group's value of field g, or nil when not grouped by it.
func keyOf[T ~string](c *engine.FindingCount, g engine.GroupBy) *T {
	v, ok := c.Key[g]
	if !ok {
		return nil
	}
	t := T(v)
	return &t
}
