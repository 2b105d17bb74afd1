package rest

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/testserver"
)

// Two tenants asking the very same query get their own pages, from their
// own cached bodies, and one tenant's ETag never earns the other a 304.
func TestPageBodiesPerTenant(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 30, findingsB: 30})
	r := newReplica(t, e, 0)
	const path = "/v1/findings?limit=5"
	etags := map[string]string{}
	for _, c := range []struct {
		name, token string
		seed        testserver.TenantSeed
	}{{"A", e.tokA, e.a}, {"B", e.tokB, e.b}} {
		first := do(t, e.client, http.MethodGet, r.url+path, c.token, nil, nil)
		again := do(t, e.client, http.MethodGet, r.url+path, c.token, nil, nil)
		if first.status != 200 || again.status != 200 {
			t.Fatalf("tenant %s: %d, %d", c.name, first.status, again.status)
		}
		etag := first.header.Get("ETag")
		if etag == "" || again.header.Get("ETag") != etag || !bytes.Equal(first.body, again.body) {
			t.Fatalf("tenant %s: the same page twice: ETags %q and %q, bodies equal %v", c.name, etag,
				again.header.Get("ETag"), bytes.Equal(first.body, again.body))
		}
		var page listBody[engine.Finding]
		if err := json.Unmarshal(first.body, &page); err != nil || len(page.Data) != 5 {
			t.Fatalf("tenant %s: %v, %d findings", c.name, err, len(page.Data))
		}
		for _, f := range page.Data {
			if !slices.ContainsFunc(c.seed.Findings, func(x engine.Finding) bool { return x.ID == f.ID }) {
				t.Errorf("tenant %s got finding %s, not one of its own", c.name, f.ID)
			}
		}
		etags[c.name] = etag
	}
	if etags["A"] == etags["B"] {
		t.Fatalf("both tenants' pages have ETag %s", etags["A"])
	}
	// Conditional requests: 304 for the page's own ETag, a full page for
	// another tenant's.
	nm := do(t, e.client, http.MethodGet, r.url+path, e.tokA, nil, header1("If-None-Match", etags["A"]))
	if nm.status != http.StatusNotModified || len(nm.body) != 0 || nm.header.Get("ETag") != etags["A"] {
		t.Errorf("If-None-Match with the page's ETag: %d, %d bytes, ETag %q", nm.status, len(nm.body), nm.header.Get("ETag"))
	}
	cross := do(t, e.client, http.MethodGet, r.url+path, e.tokB, nil, header1("If-None-Match", etags["A"]))
	if cross.status != http.StatusOK || cross.header.Get("ETag") != etags["B"] {
		t.Errorf("tenant B sending tenant A's ETag: %d, ETag %q", cross.status, cross.header.Get("ETag"))
	}
	// The cached gzip body is the cached JSON, compressed.
	plain := do(t, e.client, http.MethodGet, r.url+path, e.tokA, nil, header1("Accept-Encoding", "identity"))
	req, _ := http.NewRequest(http.MethodGet, r.url+path, nil)
	req.Header.Set("Authorization", "Bearer "+e.tokA)
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := e.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	zr, err := gzip.NewReader(res.Body)
	if err != nil {
		t.Fatalf("Content-Encoding %q: %v", res.Header.Get("Content-Encoding"), err)
	}
	unzipped, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if plain.header.Get("Content-Encoding") != "" || !bytes.Equal(unzipped, plain.body) {
		t.Errorf("gzip and identity bodies differ (identity Content-Encoding %q)", plain.header.Get("Content-Encoding"))
	}
}

// The encoded bodies are keyed by tenant as well as by the engine's page
// Key: even equal Keys from two tenants never share a body.
func TestWriteListKeysByTenant(t *testing.T) {
	a := &api{bodies: newPageBodies(1 << 20)}
	serve := func(tenant, title string) string {
		page := engine.Page[engine.Finding]{Items: []engine.Finding{{ID: "fnd_1", Title: title}}, Key: "same key"}
		w := httptest.NewRecorder()
		writeList(a, w, httptest.NewRequest(http.MethodGet, "/v1/findings", nil), tenant, page)
		return w.Body.String()
	}
	if got := serve("ten_a", "A's"); !bytes.Contains([]byte(got), []byte("A's")) {
		t.Fatalf("tenant A: %s", got)
	}
	if got := serve("ten_b", "B's"); !bytes.Contains([]byte(got), []byte("B's")) {
		t.Errorf("tenant B got %s", got)
	}
	if got := serve("ten_a", "changed"); !bytes.Contains([]byte(got), []byte("A's")) {
		t.Errorf("tenant A's second answer was not its cached body: %s", got)
	}
}

func TestPageBodiesBoundedByBytes(t *testing.T) {
	c := newPageBodies(1000)
	body := func(key string, n int) *pageBody {
		return &pageBody{key: pageBodyKey{"ten_a", key}, json: make([]byte, n)}
	}
	c.put(body("a", 300))
	c.put(body("b", 300))
	c.get(pageBodyKey{"ten_a", "a"})
	c.put(body("c", 300)) // over 1000 with the overheads: b, the least recent, goes
	if c.get(pageBodyKey{"ten_a", "b"}) != nil || c.get(pageBodyKey{"ten_a", "a"}) == nil || c.get(pageBodyKey{"ten_a", "c"}) == nil {
		t.Errorf("after the third body: a %v, b %v, c %v", c.get(pageBodyKey{"ten_a", "a"}) != nil, c.get(pageBodyKey{"ten_a", "b"}) != nil, c.get(pageBodyKey{"ten_a", "c"}) != nil)
	}
	if c.put(body("huge", 2000)); c.get(pageBodyKey{"ten_a", "huge"}) != nil {
		t.Error("a body larger than the whole cache was kept")
	}
	if c.lru.Cost() > c.max {
		t.Errorf("size %d over max %d", c.lru.Cost(), c.max)
	}
}

func TestETagMatches(t *testing.T) {
	for _, c := range []struct {
		values []string
		want   bool
	}{
		{nil, false},
		{[]string{`W/"abc"`}, true},
		{[]string{`"abc"`}, true}, // weak comparison
		{[]string{`"x", W/"abc"`}, true},
		{[]string{`"x"`, `"abc"`}, true},
		{[]string{"*"}, true},
		{[]string{`"abcd"`}, false},
		{[]string{`W/"ab"`}, false},
	} {
		if got := etagMatches(c.values, `W/"abc"`); got != c.want {
			t.Errorf("etagMatches(%q) = %v, want %v", c.values, got, c.want)
		}
	}
}

// header1 is a header with one field.
func header1(name, value string) http.Header {
	return http.Header{http.CanonicalHeaderKey(name): {value}}
}
