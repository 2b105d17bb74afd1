// Package loaders holds the per-request dataloaders of the GraphQL API: the
// resources of a page of findings are read in one batch (one store query),
// not one query per finding, and counts asked for twice are computed once.
package loaders

import (
	"context"
	"time"

	"github.com/vikstrous/dataloadgen"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/findings"
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
	// resources has one loader per combination of a resource's wide fields
	// (index fieldsIndex): a resolver asks the one its selection needs, so
	// a page that does not show tags or attributes never reads them.
	resources [16]*dataloadgen.Loader[string, *engine.Resource]
	counts    *dataloadgen.Loader[engine.FindingFilter, int]
}

// fieldsIndex is the index in Loaders.resources of the loader reading f.
func fieldsIndex(f engine.ResourceFields) int {
	i := 0
	if f.Tags {
		i |= 1
	}
	if f.Attributes {
		i |= 2
	}
	if f.LastSeen {
		i |= 4
	}
	if f.CapturedAt {
		i |= 8
	}
	return i
}

// indexFields is the inverse of fieldsIndex.
func indexFields(i int) engine.ResourceFields {
	return engine.ResourceFields{Tags: i&1 != 0, Attributes: i&2 != 0, LastSeen: i&4 != 0, CapturedAt: i&8 != 0}
}

// New returns fresh loaders for one request of caller p. Their caches live
// as long as the request, so nothing is shared between callers.
func New(svc *findings.Service, p engine.Principal) *Loaders {
	l := &Loaders{}
	for i := range l.resources {
		f := indexFields(i)
		fetch := func(ctx context.Context, ids []string) ([]*engine.Resource, []error) {
			found, err := svc.GetResourcesPartial(ctx, p, ids, f)
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
		l.resources[i] = dataloadgen.NewLoader(fetch, dataloadgen.WithBatchCapacity(maxBatch), dataloadgen.WithWait(wait))
	}
	counts := func(ctx context.Context, fs []engine.FindingFilter) ([]int, []error) {
		out, errs := make([]int, len(fs)), make([]error, len(fs))
		for i, f := range fs {
			sum, err := svc.SummarizeFindings(ctx, p, f, nil)
			out[i], errs[i] = int(sum.Total), err
		}
		return out, errs
	}
	l.counts = dataloadgen.NewLoader(counts, dataloadgen.WithBatchCapacity(maxBatch), dataloadgen.WithWait(wait))
	return l
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

// Resource returns the resource with id, or nil when it does not exist,
// with the wide fields that f names filled in (and maybe others).
func (l *Loaders) Resource(ctx context.Context, id string, f engine.ResourceFields) (*engine.Resource, error) {
	return l.resources[fieldsIndex(f)].Load(ctx, id)
}

// PrefetchResources reads the resources with ids, with the wide fields
// that f names, in one store query and caches them (nil for a missing one)
// in every loader that f covers, so that the Resource calls that follow
// are answered from the cache. A connection calls it for its whole page
// when resources are selected, with the fields all its resource selections
// need: one query however the field resolvers are scheduled.
func (l *Loaders) PrefetchResources(ctx context.Context, svc *findings.Service, p engine.Principal, ids []string, f engine.ResourceFields) error {
	found, err := svc.GetResourcesPartial(ctx, p, ids, f)
	if err != nil {
		return err
	}
	for i, id := range ids {
		var r *engine.Resource
		if found[i].ID != "" {
			r = &found[i]
		}
		for j, ld := range l.resources {
			if f.Covers(indexFields(j)) {
				ld.Prime(id, r)
			}
		}
	}
	return nil
}

// FindingCount returns how many findings match f (f.AuditID empty: the
// latest completed snapshot).
func (l *Loaders) FindingCount(ctx context.Context, f engine.FindingFilter) (int, error) {
	return l.counts.Load(ctx, f)
}

// FindingCountThunk starts FindingCount now (its batch is sent after the
// loaders' wait, while the caller goes on) and returns the function that
// waits for its answer.
func (l *Loaders) FindingCountThunk(ctx context.Context, f engine.FindingFilter) func() (int, error) {
	return l.counts.LoadThunk(ctx, f)
}
