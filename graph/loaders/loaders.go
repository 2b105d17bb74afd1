// Package loaders holds the per-request dataloaders of the GraphQL API: the
// resources of a page of findings are read in one batch (one store query),
// not one query per finding, and counts asked for twice are computed once.
package loaders

import (
	"context"
	"time"

	"github.com/vikstrous/dataloadgen"

	"github.com/fourd-dev/fourd/engine"
)

// Batching: a batch is sent when it holds maxBatch keys or wait after its
// first key, whichever comes first. gqlgen resolves a list's fields
// concurrently, so a page's keys arrive within microseconds of each other.
const (
	maxBatch = 500
	wait     = 2 * time.Millisecond
)

// Loaders are one request's dataloaders, acting as its caller.
type Loaders struct {
	resources *dataloadgen.Loader[string, *engine.Resource]
	counts    *dataloadgen.Loader[engine.FindingFilter, int]
}

// New returns fresh loaders for one request of caller p. Their caches live
// as long as the request, so nothing is shared between callers.
func New(svc *engine.Service, p engine.Principal) *Loaders {
	resources := func(ctx context.Context, ids []string) ([]*engine.Resource, []error) {
		found, err := svc.GetResources(ctx, p, ids)
		if err != nil {
			return nil, repeat(err, len(ids))
		}
		out := make([]*engine.Resource, len(ids))
		for i := range found {
			if found[i].ID != "" {
				out[i] = &found[i]
			}
		}
		return out, nil
	}
	counts := func(ctx context.Context, fs []engine.FindingFilter) ([]int, []error) {
		out, errs := make([]int, len(fs)), make([]error, len(fs))
		for i, f := range fs {
			sum, err := svc.SummarizeFindings(ctx, p, f, nil)
			out[i], errs[i] = int(sum.Total), err
		}
		return out, errs
	}
	return &Loaders{
		resources: dataloadgen.NewLoader(resources, dataloadgen.WithBatchCapacity(maxBatch), dataloadgen.WithWait(wait)),
		counts:    dataloadgen.NewLoader(counts, dataloadgen.WithBatchCapacity(maxBatch), dataloadgen.WithWait(wait)),
	}
}

func repeat(err error, n int) []error {
	errs := make([]error, n)
	for i := range errs {
		errs[i] = err
	}
	return errs
}

type ctxKey struct{}

// With returns ctx carrying l.
func With(ctx context.Context, l *Loaders) context.Context {
	return context.WithValue(ctx, ctxKey{}, l)
}

// For returns the request's loaders; the GraphQL handler installs them on
// every operation, so a resolver always finds them.
func For(ctx context.Context) *Loaders {
	l, _ := ctx.Value(ctxKey{}).(*Loaders)
	return l
}

// Resource returns the resource with id, or nil when it does not exist.
func (l *Loaders) Resource(ctx context.Context, id string) (*engine.Resource, error) {
	return l.resources.Load(ctx, id)
}

// PrefetchResources reads the resources with ids that are not cached yet
// in one store query and caches them (nil for a missing one), so that the
// Resource calls that follow are answered from the cache. A connection
// calls it for its whole page when resources are selected: one query
// however the field resolvers are scheduled.
func (l *Loaders) PrefetchResources(ctx context.Context, svc *engine.Service, p engine.Principal, ids []string) error {
	found, err := svc.GetResources(ctx, p, ids)
	if err != nil {
		return err
	}
	for i, id := range ids {
		if found[i].ID != "" {
			r := found[i]
			l.resources.Prime(id, &r)
		} else {
			l.resources.Prime(id, nil)
		}
	}
	return nil
}

// FindingCount returns how many findings match f (f.AuditID empty: the
// latest completed snapshot).
func (l *Loaders) FindingCount(ctx context.Context, f engine.FindingFilter) (int, error) {
	return l.counts.Load(ctx, f)
}
