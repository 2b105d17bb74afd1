package ingest

import (
	"log/slog"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine/internal/enginetest"
)

// The ingest service over engine/internal/enginetest's fakes; the stores
// themselves are tested against real servers.

type testEnv struct {
	svc       *Service
	resources *enginetest.Resources
	events    *enginetest.Events
	now       time.Time
}

func newTestEnv(t *testing.T) *testEnv {
	t.Helper()
	env := &testEnv{resources: &enginetest.Resources{}, events: &enginetest.Events{}, now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	env.svc = &Service{cfg: Config{Resources: env.resources, Events: env.events}, log: slog.New(slog.DiscardHandler),
		now: func() time.Time { return env.now }}
	return env
}
