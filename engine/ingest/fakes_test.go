package ingest

import (
	"bytes"
	"context"
	"iter"
	"log/slog"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Fakes of the store interfaces for the unit tests only; the stores
// themselves are tested against real servers.

type fakeResources struct{ rows map[string]engine.Resource }

func (f *fakeResources) GetResource(_ context.Context, tenant, id string) (engine.Resource, error) {
	if r, ok := f.rows[id]; ok && r.TenantID == tenant {
		return r, nil
	}
	return engine.Resource{}, engine.ErrNotFound("resource", id)
}

func (f *fakeResources) GetResources(_ context.Context, tenant string, ids []string) ([]engine.Resource, error) {
	var out []engine.Resource
	for _, id := range ids {
		if r, ok := f.rows[id]; ok && r.TenantID == tenant {
			out = append(out, r)
		}
	}
	return out, nil
}

func (f *fakeResources) WriteResources(_ context.Context, tenant string, src iter.Seq2[engine.Resource, error]) (engine.WriteResourcesResult, error) {
	if f.rows == nil {
		f.rows = map[string]engine.Resource{}
	}
	var res engine.WriteResourcesResult
	for r, err := range src {
		if err != nil {
			return res, err
		}
		if _, ok := f.rows[r.ID]; !ok {
			res.NewIDs = append(res.NewIDs, r.ID)
		}
		r.TenantID = tenant
		f.rows[r.ID] = r
		res.Written++
	}
	return res, nil
}

type fakeEvents struct {
	events []engine.Event
	fail   error // when set, every append fails with it
}

func (f *fakeEvents) AppendEvents(ctx context.Context, evs []engine.Event) error {
	if err := ctx.Err(); err != nil { // as a database would
		return err
	}
	if f.fail != nil {
		return f.fail
	}
	for _, e := range evs { // as a store, keeping nothing of the caller's
		e.Data = bytes.Clone(e.Data)
		f.events = append(f.events, e)
	}
	return nil
}

type testEnv struct {
	svc       *Service
	resources *fakeResources
	events    *fakeEvents
	now       time.Time
}

func newTestEnv(t *testing.T) *testEnv {
	t.Helper()
	env := &testEnv{resources: &fakeResources{}, events: &fakeEvents{}, now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	env.svc = &Service{cfg: Config{Resources: env.resources, Events: env.events}, log: slog.New(slog.DiscardHandler),
		now: func() time.Time { return env.now }}
	return env
}
