package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
	"github.com/fourd-dev/fourd/store/postgres"
)

// TestSeveralReplicas runs two `fourd serve` processes over the same
// PostgreSQL, ClickHouse and Redis (issue 31): an audit requested once
// runs once; webhook events are delivered once each while both run, and
// at least once when the replica sending one is killed -9 mid-delivery
// (the other takes it over when its lease ends, a minute); rate limits
// are shared; a rolling restart with `fourd migrate` in between loses no
// request that a client retries as docs/scaling.md says. It builds the
// binary and waits out a webhook lease, so it runs only when asked:
// FOURD_TEST_REPLICAS=1 (make test-replicas).
func TestSeveralReplicas(t *testing.T) {
	if os.Getenv("FOURD_TEST_REPLICAS") != "1" {
		t.Skip("builds fourd and runs several serve processes for minutes: FOURD_TEST_REPLICAS=1 (make test-replicas)")
	}
	ctx := context.Background()
	rig := newReplicaRig(t)
	a, b := rig.start(t, "a", ""), rig.start(t, "b", "")
	pg, err := postgres.Open(ctx, postgres.Config{URL: rig.pgURL})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()

	rv := newReceiver()
	hook := httptest.NewServer(rv)
	defer hook.Close()
	var ep struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(mustCall(t, http.StatusCreated, "POST", a.url+"/v1/webhook_endpoints", rig.token,
		map[string]any{"url": hook.URL + "/hook", "event_types": []string{"*"}}), &ep)

	t.Run("an audit requested once runs once", func(t *testing.T) {
		var au struct {
			ID     string             `json:"id"`
			Status engine.AuditStatus `json:"status"`
		}
		_ = json.Unmarshal(mustCall(t, http.StatusAccepted, "POST", a.url+"/v1/audits", rig.token, nil), &au)
		deadline := time.Now().Add(90 * time.Second)
		for au.Status != engine.AuditCompleted {
			if au.Status == engine.AuditFailed || time.Now().After(deadline) {
				t.Fatalf("audit %s: %s", au.ID, au.Status)
			}
			time.Sleep(200 * time.Millisecond)
			_ = json.Unmarshal(mustCall(t, http.StatusOK, "GET", b.url+"/v1/audits/"+au.ID, rig.token, nil), &au)
		}
		tenant, err := pg.GetTenantBySlug(ctx, "demo")
		if err != nil {
			t.Fatal(err)
		}
		got, err := pg.GetAudit(ctx, tenant.ID, au.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Attempts != 1 {
			t.Errorf("audit %s was claimed %d times, want once", au.ID, got.Attempts)
		}
		waitFor(t, "audit.completed delivered", func() bool { return len(rv.ids("audit.completed")) > 0 })
		if n := len(rv.ids("audit.started")); n != 1 {
			t.Errorf("%d audit.started events, want 1", n)
		}
	})

	t.Run("each event delivered once", func(t *testing.T) {
		var ids []string
		for i := range 20 {
			p := []*replica{a, b}[i%2]
			var d struct {
				EventID string `json:"event_id"`
			}
			_ = json.Unmarshal(mustCall(t, http.StatusAccepted, "POST", p.url+"/v1/webhook_endpoints/"+ep.ID+"/test", rig.token, nil), &d)
			ids = append(ids, d.EventID)
		}
		waitFor(t, "20 test events delivered", func() bool {
			for _, id := range ids {
				if rv.count(id) == 0 {
					return false
				}
			}
			return true
		})
		time.Sleep(2 * time.Second) // a second delivery would come within the dispatchers' poll
		for id, n := range rv.snapshot() {
			if n != 1 {
				t.Errorf("event %s delivered %d times while both replicas ran, want once", id, n)
			}
		}
	})

	t.Run("a replica killed mid-delivery", func(t *testing.T) {
		hold := rv.holdNext()
		var d struct {
			EventID string `json:"event_id"`
		}
		_ = json.Unmarshal(mustCall(t, http.StatusAccepted, "POST", a.url+"/v1/webhook_endpoints/"+ep.ID+"/test", rig.token, nil), &d)
		var h held
		select {
		case h = <-hold:
		case <-time.After(30 * time.Second):
			t.Fatal("the test event was not delivered in 30 s")
		}
		_, port, _ := net.SplitHostPort(h.remote)
		pn, _ := strconv.Atoi(port)
		victim := socketOwner(t, pn, a, b)
		victim.signal(syscall.SIGKILL)
		close(h.release)
		// The other replica delivers it again once the lease (a minute)
		// has passed.
		deadline := time.Now().Add(150 * time.Second)
		for rv.count(h.eventID) < 2 {
			if time.Now().After(deadline) {
				t.Fatalf("event %s not delivered again within 150 s of %s being killed", h.eventID, victim.name)
			}
			time.Sleep(500 * time.Millisecond)
		}
		if victim == a {
			a = rig.start(t, "a", a.addr)
		} else {
			b = rig.start(t, "b", b.addr)
		}
	})

	t.Run("rate limits are shared", func(t *testing.T) {
		tok := rig.newToken(t, "limited@demo.fourd.local", 10)
		codes := map[int]int{}
		for i := range 14 {
			p := []*replica{a, b}[i%2]
			status, body, err := call("GET", p.url+"/v1/audits?limit=1", tok, nil)
			if err != nil {
				t.Fatal(err)
			}
			if status != http.StatusOK && status != http.StatusTooManyRequests {
				t.Fatalf("GET on %s: %d %s", p.name, status, body)
			}
			codes[status]++
		}
		if codes[http.StatusOK] != 10 || codes[http.StatusTooManyRequests] != 4 {
			t.Errorf("14 requests over both replicas with a limit of 10 a minute: %v, want 10 × 200 and 4 × 429", codes)
		}
		// The twin: a replica without Redis counts on its own, so the same
		// requests over it and a Redis one get more than 10 answers.
		c := rig.start(t, "c", "", "FOURD_REDIS_URL=")
		defer c.signal(syscall.SIGTERM)
		tok = rig.newToken(t, "unshared@demo.fourd.local", 10)
		ok := 0
		for i := range 14 {
			if status, _, err := call("GET", []*replica{a, c}[i%2].url+"/v1/audits?limit=1", tok, nil); err == nil && status == http.StatusOK {
				ok++
			}
		}
		if ok <= 10 {
			t.Errorf("with one replica's limits in memory, %d of 14 requests answered; want more than 10", ok)
		}
	})

	t.Run("rolling restart", func(t *testing.T) {
		// Each client has a token of its own and paces itself, so that no
		// budget runs out (1000 a minute at most).
		var toks []string
		for k := range 4 {
			toks = append(toks, rig.newToken(t, "rolling"+strconv.Itoa(k)+"@demo.fourd.local", identity.MaxAPITokenRateLimit))
		}
		var served, retried atomic.Int64
		var failed []string
		var mu sync.Mutex
		stop := make(chan struct{})
		var wg sync.WaitGroup
		client := func(k int) {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				// A client retries a refused connection or a 503 on the next
				// replica, as a load balancer would (docs/scaling.md).
				ok := false
				for try := 0; try < 50 && !ok; try++ {
					p := []*replica{a, b}[(i+k+try)%2]
					status, _, err := call("GET", p.url+"/v1/findings?limit=5", toks[k], nil)
					switch {
					case err == nil && status == http.StatusOK:
						ok = true
					case err != nil || status == http.StatusServiceUnavailable:
						retried.Add(1)
						time.Sleep(50 * time.Millisecond)
					default:
						mu.Lock()
						failed = append(failed, strconv.Itoa(status))
						mu.Unlock()
						ok = true
					}
				}
				if !ok {
					mu.Lock()
					failed = append(failed, "gave up after 50 tries")
					mu.Unlock()
				}
				served.Add(1)
				time.Sleep(50 * time.Millisecond)
			}
		}
		for k := range 4 {
			wg.Add(1)
			go client(k)
		}
		time.Sleep(time.Second)
		a.signal(syscall.SIGTERM)
		rig.run(t, "migrate")
		a = rig.start(t, "a", a.addr)
		time.Sleep(time.Second)
		b.signal(syscall.SIGTERM)
		rig.run(t, "migrate")
		b = rig.start(t, "b", b.addr)
		time.Sleep(time.Second)
		close(stop)
		wg.Wait()
		if len(failed) > 0 {
			t.Errorf("%d of %d requests failed through the rolling restart: %v", len(failed), served.Load(), failed[:min(10, len(failed))])
		}
		t.Logf("%d requests through the rolling restart, %d tries retried", served.Load(), retried.Load())
		if served.Load() < 20 {
			t.Errorf("only %d requests were made", served.Load())
		}
	})
}

// waitFor polls cond for up to a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within a minute", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
