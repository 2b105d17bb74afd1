package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/postgres"
)

// TestSeveralReplicas runs two `fourd serve` processes over the same
// PostgreSQL, ClickHouse and Redis (issue 31), on one ClickHouse server
// or, with FOURD_TEST_CLICKHOUSE_CLUSTER set, on the cluster (make
// test-cluster-replicas): an audit requested once runs once; a page reads
// the same through either replica; webhook events are delivered once each
// while both run, and at least once when the replica sending one is
// killed -9 mid-delivery (the other takes it over when its lease ends, a
// minute); rate limits are shared; a rolling restart to a build with one
// more migration, run by `fourd migrate` in between, loses no request that
// a client retries as docs/scaling.md says while both builds serve
// (testRollingRestart). It builds the binary twice and waits out a
// webhook lease, so it runs only when asked: FOURD_TEST_REPLICAS=1 (make
// test-replicas).
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

	t.Run("a page reads the same through either replica", func(t *testing.T) {
		// Page 1 through each replica, then page 2 through each with the
		// cursor the other one gave: the same findings. (The cursors
		// differ only in their expiry, a second apart at most.)
		page := func(p *replica, cursor string) map[string]json.RawMessage {
			url := p.url + "/v1/findings?limit=50"
			if cursor != "" {
				url += "&cursor=" + cursor
			}
			var body map[string]json.RawMessage
			if err := json.Unmarshal(mustCall(t, http.StatusOK, "GET", url, rig.token, nil), &body); err != nil {
				t.Fatal(err)
			}
			return body
		}
		cursor := func(body map[string]json.RawMessage) string {
			var c string
			if err := json.Unmarshal(body["next_cursor"], &c); err != nil || c == "" {
				t.Fatalf("no next_cursor in a first page of 50 (%s)", body["next_cursor"])
			}
			return c
		}
		// findings is a page's data without open_age_seconds, which is
		// the time since first seen at the moment of the request.
		findings := func(body map[string]json.RawMessage) []map[string]any {
			var rows []map[string]any
			if err := json.Unmarshal(body["data"], &rows); err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				delete(r, "open_age_seconds")
			}
			return rows
		}
		same := func(what string, x, y map[string]json.RawMessage) {
			t.Helper()
			fx, fy := findings(x), findings(y)
			if len(fx) != 50 {
				t.Errorf("%s: %d findings, want 50", what, len(fx))
			}
			if !reflect.DeepEqual(fx, fy) || string(x["has_more"]) != string(y["has_more"]) {
				t.Errorf("%s differs between the replicas:\n%v\n%v", what, fx, fy)
			}
		}
		pa, pb := page(a, ""), page(b, "")
		same("page 1", pa, pb)
		same("page 2", page(b, cursor(pa)), page(a, cursor(pb)))
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

	t.Run("rolling restart with a migration", func(t *testing.T) { testRollingRestart(t, rig, a, b) })
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
