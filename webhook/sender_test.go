package webhook

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/webhook/signature"
	"github.com/google/go-cmp/cmp"
)

var testClock = time.Unix(1763702470, 0)

func mustSender(t testing.TB, cfg Config) *Sender {
	t.Helper()
	if cfg.Timeout == 0 {
		cfg.Timeout = 200 * time.Millisecond
	}
	cfg.Addresses.AllowLoopbackHTTP = true
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return testClock }
	}
	s, err := NewSender(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func testDelivery(url string) Delivery {
	return Delivery{
		ID: "dlv_01jd2x3y4z5a6b7c8d9e0f1g2h", URL: url,
		EventID: "evt_01jd2x3y4z5a6b7c8d9e0f1g2h", EventType: "finding.created",
		Body:   []byte(`{"event_id":"evt_01jd2x3y4z5a6b7c8d9e0f1g2h","type":"finding.created","created_at":"2026-11-21T05:21:10Z","data":{}}`),
		Secret: []byte("whsec_current"),
	}
}

// TestSendHeaders checks the request exactly as the spec lays it out and
// that webhook/signature accepts it, with and without a rotation.
func TestSendHeaders(t *testing.T) {
	tests := []struct {
		name     string
		previous []byte
	}{
		{"one secret", nil},
		{"rotation grace period", []byte("whsec_previous")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got http.Header
			var body []byte
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got, body = r.Header.Clone(), mustReadAll(t, r.Body)
				if r.Method != http.MethodPost {
					t.Errorf("method %s", r.Method)
				}
				w.WriteHeader(http.StatusNoContent)
			}))
			defer srv.Close()
			d := testDelivery(srv.URL + "/hooks?x=1")
			d.PreviousSecret = tt.previous
			r := mustSender(t, Config{}).Send(context.Background(), d)
			if r.Outcome != OutcomeSuccess || r.StatusCode != 204 {
				t.Fatalf("Send() = %+v", r)
			}
			ts := strconv.FormatInt(testClock.Unix(), 10)
			want := http.Header{
				"Content-Type":        {"application/json"},
				"Content-Length":      {strconv.Itoa(len(d.Body))},
				"User-Agent":          {DefaultUserAgent},
				"X-Service-Event":     {"finding.created"},
				"X-Service-Event-Id":  {d.EventID},
				"X-Service-Timestamp": {ts},
				"X-Service-Signature": {signature.Sign(d.Secret, testClock.Unix(), d.Body)},
			}
			if tt.previous != nil {
				want["X-Service-Signature-Previous"] = []string{signature.Sign(tt.previous, testClock.Unix(), d.Body)}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("headers (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(d.Body, body); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
			if err := signature.VerifyRequest([][]byte{d.Secret}, got, body, testClock.Add(time.Minute)); err != nil {
				t.Errorf("VerifyRequest(current secret) = %v", err)
			}
			if tt.previous != nil {
				if err := signature.VerifyRequest([][]byte{tt.previous}, got, body, testClock); err != nil {
					t.Errorf("VerifyRequest(previous secret) = %v", err)
				}
			}
		})
	}
}

func mustReadAll(t testing.TB, r io.Reader) []byte {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Error(err)
	}
	return b
}

// summary is the part of a Result the fault tests compare.
type summary struct {
	Outcome    Outcome
	StatusCode int
	Error      string
	RetryAfter time.Duration
}

func summarize(r Result) summary {
	return summary{r.Outcome, r.StatusCode, r.Error, r.RetryAfter}
}

// hijack closes the connection after writing raw bytes.
func hijack(t *testing.T, w http.ResponseWriter, raw string) {
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		t.Error(err)
		return
	}
	buf.WriteString(raw)
	buf.Flush()
	conn.Close()
}

func TestSendFaults(t *testing.T) {
	tests := []struct {
		name    string
		handler func(t *testing.T, w http.ResponseWriter, r *http.Request)
		want    summary
	}{
		{"200", func(t *testing.T, w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") },
			summary{Outcome: OutcomeSuccess, StatusCode: 200}},
		{"202 accepted", func(t *testing.T, w http.ResponseWriter, r *http.Request) { w.WriteHeader(202) },
			summary{Outcome: OutcomeSuccess, StatusCode: 202}},
		{"500", func(t *testing.T, w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) },
			summary{OutcomeRetry, 500, "endpoint answered HTTP 500", 0}},
		{"400 is retried too", func(t *testing.T, w http.ResponseWriter, r *http.Request) { w.WriteHeader(400) },
			summary{OutcomeRetry, 400, "endpoint answered HTTP 400", 0}},
		{"410 gone", func(t *testing.T, w http.ResponseWriter, r *http.Request) { w.WriteHeader(410) },
			summary{OutcomeGone, 410, "endpoint answered 410 Gone; disabling it", 0}},
		{"429 with Retry-After seconds", func(t *testing.T, w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "120")
			w.WriteHeader(429)
		}, summary{OutcomeRetry, 429, "endpoint answered HTTP 429", 2 * time.Minute}},
		{"503 with Retry-After date", func(t *testing.T, w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", testClock.Add(time.Hour).UTC().Format(http.TimeFormat))
			w.WriteHeader(503)
		}, summary{OutcomeRetry, 503, "endpoint answered HTTP 503", time.Hour}},
		{"500 Retry-After ignored", func(t *testing.T, w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "120")
			w.WriteHeader(500)
		}, summary{OutcomeRetry, 500, "endpoint answered HTTP 500", 0}},
		{"301 redirect not followed", func(t *testing.T, w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/moved" {
				t.Error("redirect was followed")
			}
			http.Redirect(w, r, "/moved", http.StatusMovedPermanently)
		}, summary{OutcomeRetry, 301, "redirect (301) not followed", 0}},
		{"307 redirect not followed", func(t *testing.T, w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/moved", http.StatusTemporaryRedirect)
		}, summary{OutcomeRetry, 307, "redirect (307) not followed", 0}},
		{"hangs past the timeout", func(t *testing.T, w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body) // lets the server notice the client leaving
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}, summary{Outcome: OutcomeRetry, Error: "timed out after 200ms"}},
		{"2xx headers, body stalls past the timeout", func(t *testing.T, w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(200)
			io.WriteString(w, "partial")
			http.NewResponseController(w).Flush()
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}, summary{OutcomeRetry, 200, "timed out after 200ms", 0}},
		{"closes the connection before answering", func(t *testing.T, w http.ResponseWriter, r *http.Request) {
			hijack(t, w, "")
		}, summary{Outcome: OutcomeRetry, Error: "connection closed before a response"}},
		{"closes the connection mid-response", func(t *testing.T, w http.ResponseWriter, r *http.Request) {
			hijack(t, w, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part")
		}, summary{OutcomeRetry, 200, "response ended early", 0}},
		{"garbage instead of HTTP", func(t *testing.T, w http.ResponseWriter, r *http.Request) {
			hijack(t, w, "SSH-2.0-OpenSSH\r\n")
		}, summary{Outcome: OutcomeRetry, Error: "connection failed"}},
		{"huge response read up to the limit", func(t *testing.T, w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, strings.Repeat("x", 4<<20))
		}, summary{Outcome: OutcomeSuccess, StatusCode: 200}},
	}
	s := mustSender(t, Config{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				tt.handler(t, w, r)
			}))
			defer srv.Close()
			r := s.Send(context.Background(), testDelivery(srv.URL))
			if diff := cmp.Diff(tt.want, summarize(r)); diff != "" {
				t.Errorf("Send() (-want +got):\n%s", diff)
			}
			if len(r.ResponseBody) > ResponseSnippetBytes {
				t.Errorf("kept %d response bytes", len(r.ResponseBody))
			}
			if r.Outcome == OutcomeRetry && strings.Contains(r.Error, "timed out") && r.Latency < 200*time.Millisecond {
				t.Errorf("timed out after only %s", r.Latency)
			}
		})
	}
}

// TestSendRetryThenSuccess: the receiver fails once, then accepts; the
// event id stays, the timestamp and signature follow the attempt.
func TestSendRetryThenSuccess(t *testing.T) {
	var calls atomic.Int32
	var ids, stamps []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ids = append(ids, r.Header.Get(signature.HeaderEventID))
		stamps = append(stamps, r.Header.Get(signature.HeaderTimestamp))
		if calls.Add(1) == 1 {
			w.WriteHeader(500)
			return
		}
		w.WriteHeader(200)
	}))
	defer srv.Close()
	now := testClock
	s := mustSender(t, Config{Now: func() time.Time { return now }})
	d := testDelivery(srv.URL)
	b := DefaultBackoff()
	b.Jitter = JitterNone

	r1 := s.Send(context.Background(), d)
	p1 := b.Plan(1, testClock, now, r1)
	if r1.Outcome != OutcomeRetry || p1.State != StatePending || !p1.NextAttemptAt.Equal(testClock.Add(time.Minute)) {
		t.Fatalf("first attempt: %+v, plan %+v", r1, p1)
	}
	now = p1.NextAttemptAt
	r2 := s.Send(context.Background(), d)
	if p2 := b.Plan(2, testClock, now, r2); r2.Outcome != OutcomeSuccess || p2.State != StateDelivered {
		t.Fatalf("second attempt: %+v, plan %+v", r2, p2)
	}
	want := []string{d.EventID, d.EventID}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("event ids (-want +got):\n%s", diff)
	}
	wantStamps := []string{strconv.FormatInt(testClock.Unix(), 10), strconv.FormatInt(testClock.Unix()+60, 10)}
	if diff := cmp.Diff(wantStamps, stamps); diff != "" {
		t.Errorf("timestamps (-want +got):\n%s", diff)
	}
}

func TestSendInvalidDelivery(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("an invalid delivery reached the endpoint")
	}))
	defer srv.Close()
	s := mustSender(t, Config{MaxBodyBytes: 64})
	tests := []struct {
		name string
		edit func(*Delivery)
		want string
	}{
		{"body too large", func(d *Delivery) { d.Body = []byte(strings.Repeat("x", 65)) }, "event body of 65 bytes exceeds the limit of 64"},
		{"no secret", func(d *Delivery) { d.Secret = nil }, "endpoint has no signing secret"},
		{"no event id", func(d *Delivery) { d.EventID = "" }, "event id and type are required"},
		{"ftp url", func(d *Delivery) { d.URL = "ftp://example.com/" }, "url must use https"},
		{"user info", func(d *Delivery) { d.URL = strings.Replace(d.URL, "http://", "http://u:p@", 1) }, "url must not contain user info"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := testDelivery(srv.URL)
			d.Body = []byte("{}")
			tt.edit(&d)
			want := summary{Outcome: OutcomeFailed, Error: tt.want}
			if diff := cmp.Diff(want, summarize(s.Send(context.Background(), d))); diff != "" {
				t.Errorf("Send() (-want +got):\n%s", diff)
			}
		})
	}
}
