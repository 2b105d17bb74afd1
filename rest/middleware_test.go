package rest

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testLimiter is the rate-limit seam driven by request headers: it panics,
// refuses, or lets the request through with X-RateLimit headers.
type testLimiter struct{}

func (testLimiter) Allow(r *http.Request, p engine.Principal, h http.Header) error {
	h.Set("X-RateLimit-Limit", "1000")
	h.Set("X-RateLimit-Remaining", "999")
	h.Set("X-RateLimit-Reset", "1700000000")
	switch {
	case r.Header.Get("X-Test-Panic") != "":
		panic("secret panic detail " + p.TokenID)
	case r.Header.Get("X-Test-Limit") != "":
		h.Set("X-RateLimit-Remaining", "0")
		h.Set("Retry-After", "12")
		return engine.Errorf(engine.CodeRateLimited, "rate limit of 1000 requests a minute reached")
	}
	return nil
}

func TestMiddleware(t *testing.T) {
	logs := &syncBuffer{}
	e := newEnv(t, envOptions{findingsA: 20, findingsB: 2, config: func(c *Config) {
		c.Logger = slog.New(slog.NewJSONHandler(logs, nil))
		c.Limiter = testLimiter{}
		c.CORSOrigins = []string{"https://app.example.com"}
		c.TrustProxyHeaders = true
	}})
	hdr := func(kv ...string) http.Header {
		h := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}

	t.Run("panic is a generic 500, logged with the request id", func(t *testing.T) {
		r := do(t, e.client, "GET", e.url+"/v1/findings", e.tokA, nil, hdr("X-Test-Panic", "1"))
		d := wantError(t, r, 500, engine.CodeInternal)
		if strings.Contains(string(r.body), "secret") || strings.Contains(d.Message, "panic") {
			t.Errorf("the panic leaked: %s", r.body)
		}
		if !strings.Contains(logs.String(), `"request_id":"`+d.RequestID+`"`) || !strings.Contains(logs.String(), "secret panic detail") {
			t.Errorf("the panic is not logged with request id %s:\n%s", d.RequestID, logs)
		}
	})
	t.Run("limiter seam: 429 with Retry-After", func(t *testing.T) {
		r := do(t, e.client, "GET", e.url+"/v1/findings", e.tokA, nil, hdr("X-Test-Limit", "1"))
		wantError(t, r, 429, engine.CodeRateLimited)
		if r.header.Get("Retry-After") != "12" || r.header.Get("X-RateLimit-Remaining") != "0" {
			t.Errorf("headers %v", r.header)
		}
		ok := e.get(t, "/v1/findings", e.tokA)
		if ok.status != 200 || ok.header.Get("X-RateLimit-Limit") != "1000" {
			t.Errorf("status %d, X-RateLimit-Limit %q", ok.status, ok.header.Get("X-RateLimit-Limit"))
		}
	})
	t.Run("access log: one line per request with token id, never the token", func(t *testing.T) {
		r := do(t, e.client, "GET", e.url+"/v1/resources?limit=2", e.tokA, nil, hdr("X-Forwarded-For", "203.0.113.9"))
		rid := r.header.Get("X-Request-Id")
		var line map[string]any
		for _, l := range strings.Split(logs.String(), "\n") {
			if strings.Contains(l, rid) && strings.Contains(l, `"msg":"http request"`) {
				if line != nil {
					t.Errorf("two access log lines for %s", rid)
				}
				if err := json.Unmarshal([]byte(l), &line); err != nil {
					t.Fatal(err)
				}
			}
		}
		if line == nil {
			t.Fatalf("no access log line for %s:\n%s", rid, logs)
		}
		tok := strings.Split(e.tokA, "_")[1]
		if strings.Contains(logs.String(), tok) {
			t.Error("the token secret is in the log")
		}
		for k, want := range map[string]any{"status": float64(200), "route": "GET /v1/resources", "method": "GET", "remote": "203.0.113.9"} {
			if line[k] != want {
				t.Errorf("log %s = %v, want %v", k, line[k], want)
			}
		}
		if id, _ := line["token_id"].(string); !strings.HasPrefix(id, "pat_") {
			t.Errorf("token_id = %q", id)
		}
		if _, ok := line["duration"]; !ok {
			t.Error("no duration")
		}
	})
	t.Run("gzip", func(t *testing.T) {
		req, _ := http.NewRequest("GET", e.url+"/v1/findings?limit=20", nil)
		req.Header.Set("Authorization", "Bearer "+e.tokA)
		req.Header.Set("Accept-Encoding", "gzip")
		res, err := e.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("Content-Encoding %q", res.Header.Get("Content-Encoding"))
		}
		zr, err := gzip.NewReader(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		res.Header.Del("Content-Encoding")
		checkResponse(t, req, res.StatusCode, res.Header, b)
	})
	t.Run("CORS", func(t *testing.T) {
		r := do(t, e.client, "GET", e.url+"/v1/findings", e.tokA, nil, hdr("Origin", "https://app.example.com"))
		if r.header.Get("Access-Control-Allow-Origin") != "https://app.example.com" ||
			!strings.Contains(r.header.Get("Access-Control-Expose-Headers"), "X-Request-Id") {
			t.Errorf("allowed origin: headers %v", r.header)
		}
		r = do(t, e.client, "GET", e.url+"/v1/findings", e.tokA, nil, hdr("Origin", "https://evil.example.com"))
		if r.header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("other origin allowed: %v", r.header)
		}
		pre := hdr("Origin", "https://app.example.com", "Access-Control-Request-Method", "GET",
			"Access-Control-Request-Headers", "Authorization")
		req, _ := http.NewRequest("OPTIONS", e.url+"/v1/findings", nil)
		req.Header = pre
		res, err := e.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 || res.Header.Get("Access-Control-Allow-Origin") != "https://app.example.com" {
			t.Errorf("preflight: %d %v", res.StatusCode, res.Header)
		}
		bad := hdr("Origin", "https://app.example.com", "Access-Control-Request-Method", "GET",
			"Access-Control-Request-Headers", "X-Secret")
		wantError(t, do(t, e.client, "OPTIONS", e.url+"/v1/findings", "", nil, bad), 400, engine.CodeInvalidRequest)
	})
	t.Run("public endpoints and unknown paths", func(t *testing.T) {
		for _, c := range []struct {
			method, path string
			status       int
		}{
			{"GET", "/healthz", 200}, {"GET", "/readyz", 200}, {"GET", "/v1/openapi.json", 200}, {"GET", "/metrics", 200},
			{"HEAD", "/healthz", 200}, {"POST", "/healthz", 405}, {"PUT", "/v1/openapi.json", 405},
			{"GET", "/", 404}, {"GET", "/v1", 404}, {"GET", "/v1/findings/", 404}, {"GET", "/v2/findings", 404},
			{"GET", "/v1//findings", 404}, {"GET", "/v1/findings/../audits", 404}, {"POST", "/nope", 404},
		} {
			r := do(t, e.client, c.method, e.url+c.path, "", nil, nil)
			if r.status != c.status {
				t.Errorf("%s %s: %d, want %d: %s", c.method, c.path, r.status, c.status, r.body)
			}
		}
	})
	t.Run("metrics", func(t *testing.T) {
		body := string(e.get(t, "/metrics", "").body)
		for _, want := range []string{
			`fourd_http_requests_total{method="GET",route="GET /v1/findings",status="200"}`,
			`fourd_http_requests_total{method="GET",route="unmatched",status="404"}`,
			`fourd_http_request_duration_seconds_bucket{method="GET",route="GET /v1/resources"`,
			`fourd_store_query_duration_seconds_count{op="ListFindings",store="findings"}`,
			`fourd_http_authentication_duration_seconds_count{result="ok"}`,
		} {
			if !strings.Contains(body, want) {
				t.Errorf("metrics lack %s", want)
			}
		}
	})
}

// A store that stops answering makes /readyz 503 unavailable.
func TestReadyzUnavailable(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 1})
	if err := e.ch.Close(); err != nil {
		t.Fatal(err)
	}
	wantError(t, e.get(t, "/readyz", ""), 503, engine.CodeUnavailable)
	wantError(t, e.get(t, "/v1/findings", e.tokA), 500, engine.CodeInternal)
}

// With PostgreSQL down /readyz is 503 unavailable too.
func TestReadyzUnavailablePostgres(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 1})
	if got := getJSON[map[string]any](t, e, "/readyz", ""); got["status"] != "ok" || len(got) != 1 {
		t.Errorf("/readyz with every store up: %v, want {status: ok}", got)
	}
	e.pg.Close()
	wantError(t, e.get(t, "/readyz", ""), 503, engine.CodeUnavailable)
}

// Part of the ClickHouse cluster down leaves /readyz 200 "degraded",
// saying what is down: a replica, then a whole shard. It stops nodes of
// the local cluster, so it runs only with FOURD_TEST_CLUSTER_FAULTS=1
// (make test-cluster-faults).
func TestReadyzDegraded(t *testing.T) {
	if chtest.Cluster() == "" || os.Getenv("FOURD_TEST_CLUSTER_FAULTS") != "1" {
		t.Skip("needs the local cluster to itself: FOURD_TEST_CLUSTER_FAULTS=1 (make test-cluster-faults)")
	}
	e := newEnv(t, envOptions{findingsA: 1})
	cluster := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("bash", append([]string{"../scripts/cluster.sh"}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("cluster.sh %v: %v\n%s", args, err, out)
		}
	}
	t.Cleanup(func() { cluster("start") })
	type readiness struct {
		Status   string   `json:"status"`
		Degraded []string `json:"degraded"`
	}
	if got := getJSON[readiness](t, e, "/readyz", ""); got.Status != "ok" || got.Degraded != nil {
		t.Errorf("/readyz with every node up: %+v", got)
	}
	cluster("stop-node", "4")
	want := []string{"clickhouse shard 2: replica 2 of 2 does not answer"}
	if got := getJSON[readiness](t, e, "/readyz", ""); got.Status != "degraded" || !slices.Equal(got.Degraded, want) {
		t.Errorf("/readyz with node 4 down: %+v, want degraded %q", got, want)
	}
	cluster("stop-node", "3")
	want = []string{"clickhouse shard 2: no replica answers; requests for the tenants whose data it holds answer 503"}
	if got := getJSON[readiness](t, e, "/readyz", ""); got.Status != "degraded" || !slices.Equal(got.Degraded, want) {
		t.Errorf("/readyz with shard 2 down: %+v, want degraded %q", got, want)
	}
}
