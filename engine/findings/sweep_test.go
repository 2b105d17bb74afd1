package findings

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// sweepRecorder is an ExpiredSweeper that records the cutoffs it is asked
// to purge with.
type sweepRecorder struct {
	got []engine.SweepCutoffs
}

func (r *sweepRecorder) PurgeExpired(_ context.Context, c engine.SweepCutoffs) (int64, error) {
	r.got = append(r.got, c)
	return 3, nil
}

func TestSweepExpiredCutoffs(t *testing.T) {
	env := newTestEnv(t)
	rec := &sweepRecorder{}
	_, ops, err := New(Config{Findings: env.findings, Resources: env.resources, Tenants: env.control,
		Audits: env.control, Sweeper: rec,
		Secret: []byte(strings.Repeat("s", 32)), Now: func() time.Time { return env.now }})
	if err != nil {
		t.Fatal(err)
	}
	n, err := ops.SweepExpired(context.Background())
	if err != nil || n != 3 || len(rec.got) != 1 {
		t.Fatalf("SweepExpired: %d (%v), %d calls", n, err, len(rec.got))
	}
	want := engine.SweepCutoffs{OAuthCodes: env.now.Add(-time.Hour), OAuthTokens: env.now.Add(-7 * 24 * time.Hour), IdempotencyKeys: env.now, SignInAttempts: env.now}
	if rec.got[0] != want {
		t.Errorf("cutoffs %+v, want %+v", rec.got[0], want)
	}
	// Without a store that can sweep, nothing happens.
	if n, err := env.ops.SweepExpired(context.Background()); n != 0 || err != nil {
		t.Errorf("without a sweeper: %d, %v", n, err)
	}
}
