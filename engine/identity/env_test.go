package identity

import (
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine/internal/enginetest"
)

// testEnv is the identity services over enginetest.Tenants, with a settable clock.
type testEnv struct {
	tenants *enginetest.Tenants
	svc     *Service
	ops     *Operator
	now     time.Time
}

func newTestEnv(t *testing.T) *testEnv {
	t.Helper()
	env := &testEnv{tenants: &enginetest.Tenants{}, now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	svc, ops, err := New(Config{Tenants: env.tenants, Secret: []byte(strings.Repeat("s", 32)),
		Now: func() time.Time { return env.now }})
	if err != nil {
		t.Fatal(err)
	}
	env.svc, env.ops = svc, ops
	return env
}
