package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/fourd-dev/fourd/engine/identity"
)

// POSTs with an Idempotency-Key: a retry replays the first answer without
// a second effect; the key names one request of one caller.
func TestIdempotencyKey(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 4, findingsB: 4})
	post := func(token, path, key, body string) response {
		t.Helper()
		h := http.Header{}
		if key != "" {
			h.Set("Idempotency-Key", key)
		}
		h.Set("Content-Type", "application/json")
		return do(t, e.client, http.MethodPost, e.url+path, token, []byte(body), h)
	}
	policy := func(name string) string {
		return `{"name":"` + name + `","expression":"true","dimension":"security","severity":"low"}`
	}
	count := func(token string) int {
		var page struct{ Data []json.RawMessage }
		r := e.get(t, "/v1/policies?limit=200", token)
		if err := json.Unmarshal(r.body, &page); err != nil {
			t.Fatal(err)
		}
		return len(page.Data)
	}
	before := count(e.tokA)
	it, err := e.ops.IssueToken(context.Background(), identity.IssueTokenInput{TenantSlug: "acme", Email: "admin@acme.test", Name: "second"})
	if err != nil {
		t.Fatal(err)
	}
	otherAdmin := it.Secret

	first := post(e.tokA, "/v1/policies", "key-1", policy("idem"))
	if first.status != http.StatusCreated || first.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("first: %d %s (replayed %q)", first.status, first.body, first.header.Get("Idempotent-Replayed"))
	}
	again := post(e.tokA, "/v1/policies", "key-1", policy("idem"))
	if again.status != first.status || string(again.body) != string(first.body) || again.header.Get("Idempotent-Replayed") != "true" ||
		again.header.Get("Location") != first.header.Get("Location") {
		t.Fatalf("retry: %d %s (replayed %q, location %q); want the first answer %s",
			again.status, again.body, again.header.Get("Idempotent-Replayed"), again.header.Get("Location"), first.body)
	}
	if n := count(e.tokA); n != before+1 {
		t.Errorf("%d policies after a request and its retry, want %d", n, before+1)
	}
	before++

	for _, c := range []struct {
		name, token, path, key, body string
		status                       int
		code                         string
	}{
		{"another body", e.tokA, "/v1/policies", "key-1", policy("other"), 422, "validation_failed"},
		{"another path", e.tokA, "/v1/audits", "key-1", `{}`, 422, "validation_failed"},
		{"key too long", e.tokA, "/v1/policies", strings.Repeat("k", 256), policy("x"), 400, "invalid_request"},
		{"key not ASCII", e.tokA, "/v1/policies", "clé", policy("x"), 400, "invalid_request"},
		// Another caller's key and another tenant's are other keys.
		{"another token", otherAdmin, "/v1/policies", "key-1", policy("idem by another token"), 201, ""},
		{"another tenant", e.tokB, "/v1/policies", "key-1", policy("idem"), 201, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := post(c.token, c.path, c.key, c.body)
			if r.status != c.status || (c.code != "" && !strings.Contains(string(r.body), `"code":"`+c.code+`"`)) {
				t.Fatalf("%d %s; want %d %s", r.status, r.body, c.status, c.code)
			}
			if r.header.Get("Idempotent-Replayed") != "" {
				t.Errorf("replayed another caller's or request's answer")
			}
		})
	}

	if n := count(e.tokA); n != before+1 {
		t.Errorf("another token's use of the key: %d policies, want %d (it runs, it is not a replay)", n, before+1)
	}

	// A failed request does not hold its key: the corrected retry runs.
	bad := post(e.tokA, "/v1/policies", "key-2", `{"name":"bad","expression":"true +","dimension":"security","severity":"low"}`)
	if bad.status != http.StatusUnprocessableEntity {
		t.Fatalf("bad policy: %d %s", bad.status, bad.body)
	}
	if good := post(e.tokA, "/v1/policies", "key-2", policy("fixed")); good.status != http.StatusCreated || good.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("retry after a failure: %d %s", good.status, good.body)
	}

	// Concurrent first uses of a key: one runs, the others wait their turn
	// (conflict) or get its answer; never two policies.
	before = count(e.tokA)
	var wg sync.WaitGroup
	statuses := make([]int, 6)
	for i := range statuses {
		wg.Go(func() { statuses[i] = post(e.tokA, "/v1/policies", "key-3", policy("race")).status })
	}
	wg.Wait()
	created := 0
	for _, s := range statuses {
		switch s {
		case http.StatusCreated:
			created++
		case http.StatusConflict:
		default:
			t.Errorf("concurrent use: status %d", s)
		}
	}
	if created == 0 || count(e.tokA) != before+1 {
		t.Errorf("concurrent uses: statuses %v, %d policies added; want one", statuses, count(e.tokA)-before)
	}
}

// TestIdempotencyKeyBulkUpdate: a bulk update retried with its
// Idempotency-Key replays the first answer (documented in openapi.json)
// and adds its note to the finding's activity once.
func TestIdempotencyKeyBulkUpdate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 4})
	id := e.a.Findings[0].ID
	h := http.Header{}
	h.Set("Idempotency-Key", "bulk-1")
	h.Set("Content-Type", "application/json")
	body := []byte(`{"ids":["` + id + `"],"note":"once"}`)
	first := do(t, e.client, http.MethodPost, e.url+"/v1/findings/bulk_update", e.tokA, body, h)
	again := do(t, e.client, http.MethodPost, e.url+"/v1/findings/bulk_update", e.tokA, body, h)
	if first.status != http.StatusOK || first.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("first: %d %s (replayed %q)", first.status, first.body, first.header.Get("Idempotent-Replayed"))
	}
	if again.status != http.StatusOK || string(again.body) != string(first.body) || again.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("retry: %d %s (replayed %q); want the first answer %s", again.status, again.body, again.header.Get("Idempotent-Replayed"), first.body)
	}
	var act struct{ Data []struct{ Kind, Note string } }
	if err := json.Unmarshal(e.get(t, "/v1/findings/"+id+"/activity", e.tokA).body, &act); err != nil {
		t.Fatal(err)
	}
	notes := 0
	for _, a := range act.Data {
		if a.Kind == "note" && a.Note == "once" {
			notes++
		}
	}
	if notes != 1 {
		t.Errorf("%d notes after a bulk update and its retry, want 1: %+v", notes, act.Data)
	}
}
