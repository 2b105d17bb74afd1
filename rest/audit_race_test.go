package rest

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// TestOneAuditAtATime (issue 28 §4): many concurrent POST /v1/audits for
// one tenant queue exactly one audit; every other answer is 409 conflict.
// Repeated, because a check-then-insert passes most single trials.
func TestOneAuditAtATime(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 2, findingsB: 2})
	const trials, racers = 6, 10
	for trial := range trials {
		var wg sync.WaitGroup
		got := make([]response, racers)
		for i := range racers {
			wg.Go(func() { got[i] = do(t, e.client, http.MethodPost, e.url+"/v1/audits", e.tokA, nil, nil) })
		}
		wg.Wait()
		var queued []string
		for _, r := range got {
			switch {
			case r.status == http.StatusAccepted:
				var a engine.Audit
				if err := json.Unmarshal(r.body, &a); err != nil {
					t.Fatal(err)
				}
				queued = append(queued, a.ID)
			case r.status != http.StatusConflict || errCode(r.body) != engine.CodeConflict:
				t.Errorf("trial %d: %d %s, want 202 or 409 conflict", trial, r.status, r.body)
			}
		}
		if len(queued) != 1 {
			t.Fatalf("trial %d: %d audits queued by %d concurrent starts, want exactly 1: %v", trial, len(queued), racers, queued)
		}
		// The other tenant is not held up by this one's audit.
		if trial == 0 {
			if r := do(t, e.client, http.MethodPost, e.url+"/v1/audits", e.tokB, nil, nil); r.status != http.StatusAccepted {
				t.Errorf("another tenant's start: %d %s", r.status, r.body)
			}
		}
		if r := do(t, e.client, http.MethodPost, e.url+"/v1/audits/"+queued[0]+"/cancel", e.tokA, nil, nil); r.status != http.StatusOK {
			t.Fatalf("cancel %s: %d %s", queued[0], r.status, r.body)
		}
	}
}
