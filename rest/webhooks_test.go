package rest

import (
	"context"
	"encoding/json"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/fourd-dev/fourd/engine/ingest"
	"github.com/fourd-dev/fourd/engine/webhooks"
	"github.com/fourd-dev/fourd/internal/testserver"
	"github.com/fourd-dev/fourd/store/postgres"
	"github.com/fourd-dev/fourd/webhook"
	"github.com/fourd-dev/fourd/webhook/signature"
)

var webhookMaster = testserver.WebhookMaster

// hookEnv is a REST server with webhooks configured, a dispatcher over the
// same PostgreSQL outbox, and a loopback receiver that verifies
// signatures.
type hookEnv struct {
	url, admin, viewer string
	client             *http.Client
	svc                *findings.Service
	ingest             *ingest.Service
	pg                 *postgres.Store
	tenant             engine.Principal
	dispatcher         *webhook.Dispatcher
	recv               *hookReceiver
}

// hookReceiver records what it receives and verifies it with its secrets.
type hookReceiver struct {
	mu      sync.Mutex
	secrets [][]byte
	got     []hookRequest
	srv     *httptest.Server
}

type hookRequest struct {
	EventID, Type          string
	VerifyErr              error
	Current, Previous      string // signature headers
	Timestamp              string
	Body                   []byte
	UnderCurrent, UnderOld bool
}

func (rv *hookReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rv.mu.Lock()
	defer rv.mu.Unlock()
	req := hookRequest{EventID: r.Header.Get(signature.HeaderEventID), Type: r.Header.Get(signature.HeaderEvent),
		Current: r.Header.Get(signature.HeaderSignature), Previous: r.Header.Get(signature.HeaderSignaturePrevious),
		Timestamp: r.Header.Get(signature.HeaderTimestamp), Body: body}
	req.VerifyErr = signature.VerifyRequest(rv.secrets, r.Header, body, time.Now())
	rv.got = append(rv.got, req)
	if req.VerifyErr != nil {
		w.WriteHeader(http.StatusUnauthorized)
	}
}

func (rv *hookReceiver) requests() []hookRequest {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	return append([]hookRequest(nil), rv.got...)
}

func newHookEnv(t *testing.T) *hookEnv {
	t.Helper()
	st := testserver.New(t, testserver.Options{NoUserStore: true})
	policy := webhook.AddressPolicy{AllowLoopbackHTTP: true}
	admin := st.IssueToken(t, "acme", "a@acme.test", engine.RoleAdmin)
	viewer := st.IssueToken(t, "acme", "v@acme.test", engine.RoleViewer)
	url := serve(t, Config{Service: st.Engine, Reports: st.Reporting, Compliance: st.Posture, Dashboard: st.Dashboard, Policies: st.Policies, Exports: st.Exports, Triage: st.Triage, Idempotency: st.Idempotency, Mutes: st.Mutes, Identity: st.Identity, Webhooks: st.Webhooks, Ingest: st.Ingest, Logger: st.Logger}, nil)
	pg := st.PG
	sender, err := webhook.NewSender(webhook.Config{Addresses: policy})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sender.Close)
	ob, err := webhook.NewStoreOutbox(webhook.StoreOutboxConfig{Queue: pg, Master: webhookMaster, Worker: "test"})
	if err != nil {
		t.Fatal(err)
	}
	d, err := webhook.NewDispatcher(webhook.DispatcherConfig{Outbox: ob, Sender: sender})
	if err != nil {
		t.Fatal(err)
	}
	rv := &hookReceiver{}
	rv.srv = httptest.NewServer(rv)
	t.Cleanup(rv.srv.Close)
	return &hookEnv{url: url, admin: admin.Secret, viewer: viewer.Secret, client: testserver.Client(),
		svc: st.Engine, ingest: st.Ingest, pg: pg, tenant: engine.Principal{TenantID: admin.Tenant.ID, Scopes: engine.AllScopes}, dispatcher: d, recv: rv}
}

// call sends a request with a JSON body (nil: none), validates the answer
// against the OpenAPI document, checks its status and decodes it into out.
func (e *hookEnv) call(t *testing.T, method, path, token string, body any, status int, out any) {
	t.Helper()
	var b []byte
	if body != nil {
		var err error
		if b, err = json.Marshal(body); err != nil {
			t.Fatal(err)
		}
	}
	r := do(t, e.client, method, e.url+path, token, b, http.Header{"Content-Type": {"application/json"}})
	if r.status != status {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.status, status, r.body)
	}
	if out != nil {
		if err := json.Unmarshal(r.body, out); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

// dispatch runs the dispatcher until nothing is due.
func (e *hookEnv) dispatch(t *testing.T) {
	t.Helper()
	for range 20 {
		n, err := e.dispatcher.RunOnce(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
	}
}

func TestWebhooksEndToEnd(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t)
	errCases := []struct {
		name   string
		method string
		path   string
		token  string
		body   any
		status int
	}{
		{"http to a public host", "POST", "/v1/webhook_endpoints", e.admin, map[string]any{"url": "http://example.com/h", "event_types": []string{"*"}}, 422},
		{"private address", "POST", "/v1/webhook_endpoints", e.admin, map[string]any{"url": "https://10.0.0.1/h", "event_types": []string{"*"}}, 422},
		{"unknown event type", "POST", "/v1/webhook_endpoints", e.admin, map[string]any{"url": "https://example.com/h", "event_types": []string{"finding.exploded"}}, 422},
		{"no event types", "POST", "/v1/webhook_endpoints", e.admin, map[string]any{"url": "https://example.com/h"}, 422},
		{"unknown field", "POST", "/v1/webhook_endpoints", e.admin, map[string]any{"url": "https://example.com/h", "event_types": []string{"*"}, "secret": "mine"}, 422},
		{"viewer cannot write", "POST", "/v1/webhook_endpoints", e.viewer, map[string]any{"url": "https://example.com/h", "event_types": []string{"*"}}, 403},
		{"missing endpoint", "GET", "/v1/webhook_endpoints/whe_01jd8z3k5m7q9s1t3v5x7z9b1d", e.admin, nil, 404},
		{"malformed event id", "GET", "/v1/events/evt_nope", e.admin, nil, 404},
		{"unknown event type filter", "GET", "/v1/events?type=nope", e.admin, nil, 422},
		{"recover without since", "POST", "/v1/webhook_endpoints/whe_01jd8z3k5m7q9s1t3v5x7z9b1d/recover", e.admin, map[string]any{}, 422},
	}
	for _, tt := range errCases {
		t.Run(tt.name, func(t *testing.T) { e.call(t, tt.method, tt.path, tt.token, tt.body, tt.status, nil) })
	}

	var created engine.WebhookEndpoint
	e.call(t, "POST", "/v1/webhook_endpoints", e.admin, map[string]any{"url": e.recv.srv.URL + "/hook",
		"event_types": []string{engine.EventResourceAdded}, "description": "loopback"}, 201, &created)
	if len(created.Secret) != 58 || created.Secret[:6] != "whsec_" {
		t.Fatalf("secret %q; want whsec_ and 52 characters", created.Secret)
	}
	e.recv.secrets = [][]byte{[]byte(created.Secret)}
	var got engine.WebhookEndpoint
	e.call(t, "GET", "/v1/webhook_endpoints/"+created.ID, e.viewer, nil, 200, &got)
	if got.Secret != "" {
		t.Fatal("GET shows the secret")
	}

	// The engine publishes resource.added through the outbox.
	res, err := e.ingest.IngestResources(context.Background(), e.tenant, func(yield func(engine.IngestItem) bool) {
		yield(engine.IngestItem{Resource: engine.Resource{Provider: "aws", Type: "aws_s3_bucket", NativeID: "arn:aws:s3:::b1",
			Attributes: json.RawMessage(`{}`)}})
	})
	if err != nil || res.New != 1 {
		t.Fatalf("IngestResources = %+v, %v", res, err)
	}
	e.dispatch(t)
	reqs := e.recv.requests()
	if len(reqs) != 1 || reqs[0].VerifyErr != nil || reqs[0].Type != engine.EventResourceAdded || reqs[0].Previous != "" {
		t.Fatalf("receiver got %+v; want one verified resource.added without a previous signature", reqs)
	}
	var events listBody[apiEvent]
	e.call(t, "GET", "/v1/events?type=resource.added", e.viewer, nil, 200, &events)
	if len(events.Data) != 1 || events.Data[0].Event.ID != reqs[0].EventID || events.Data[0].ID != reqs[0].EventID {
		t.Fatalf("events = %+v; want the delivered one, with id equal to event_id", events.Data)
	}
	evID := events.Data[0].ID
	var one apiEvent
	e.call(t, "GET", "/v1/events/"+evID, e.viewer, nil, 200, &one)
	if one.ID != evID || one.Event.ID != evID {
		t.Errorf("GET /v1/events/{id}: id %q, event_id %q; want both %s", one.ID, one.Event.ID, evID)
	}
	var dels listBody[engine.Delivery]
	e.call(t, "GET", "/v1/events/"+evID+"/deliveries", e.viewer, nil, 200, &dels)
	if len(dels.Data) != 1 || dels.Data[0].Status != engine.DeliveryDelivered || len(dels.Data[0].AttemptLog) != 1 ||
		dels.Data[0].AttemptLog[0].StatusCode != 200 {
		t.Fatalf("deliveries = %+v; want one delivered with one 200 attempt", dels.Data)
	}

	// Rotation: the new secret signs X-Service-Signature, the old one
	// X-Service-Signature-Previous.
	var rotated engine.WebhookEndpoint
	e.call(t, "POST", "/v1/webhook_endpoints/"+created.ID+"/rotate_secret", e.admin, nil, 200, &rotated)
	if rotated.Secret == created.Secret || rotated.PreviousSecretExpiresAt == nil {
		t.Fatalf("rotate: %+v", rotated)
	}
	e.recv.secrets = [][]byte{[]byte(rotated.Secret)}
	var test engine.Delivery
	e.call(t, "POST", "/v1/webhook_endpoints/"+created.ID+"/test", e.admin, nil, 202, &test)
	e.call(t, "POST", "/v1/events/"+evID+"/redeliver", e.admin, map[string]string{"endpoint_id": created.ID}, 202, nil)
	e.dispatch(t)
	reqs = e.recv.requests()[1:]
	if len(reqs) != 2 {
		t.Fatalf("after rotation the receiver got %d requests; want the test event and the redelivery", len(reqs))
	}
	for _, r := range reqs {
		ts := mustInt(t, r.Timestamp)
		want := []string{signature.Sign([]byte(rotated.Secret), ts, r.Body), signature.Sign([]byte(created.Secret), ts, r.Body)}
		if diff := cmp.Diff(want, []string{r.Current, r.Previous}); diff != "" || r.VerifyErr != nil {
			t.Errorf("%s signatures (-want +got):\n%s (verify: %v)", r.Type, diff, r.VerifyErr)
		}
	}
	for _, r := range e.recv.requests() {
		checkWebhookBody(t, r.Type, r.Body)
	}
	if reqs[0].Type != engine.EventWebhookTest && reqs[1].Type != engine.EventWebhookTest {
		t.Errorf("no test event among %s, %s", reqs[0].Type, reqs[1].Type)
	}
	var byEndpoint listBody[engine.Delivery]
	e.call(t, "GET", "/v1/webhook_endpoints/"+created.ID+"/deliveries?limit=2", e.viewer, nil, 200, &byEndpoint)
	if len(byEndpoint.Data) != 2 || !byEndpoint.HasMore || byEndpoint.NextCursor == nil {
		t.Fatalf("endpoint deliveries page: %d items, has_more %v", len(byEndpoint.Data), byEndpoint.HasMore)
	}

	var recovered map[string]int
	e.call(t, "POST", "/v1/webhook_endpoints/"+created.ID+"/recover", e.admin,
		map[string]string{"since": time.Now().Add(-time.Hour).Format(time.RFC3339)}, 202, &recovered)
	if recovered["recovered"] != 0 {
		t.Errorf("recovered %d; nothing failed", recovered["recovered"])
	}
	var patched engine.WebhookEndpoint
	e.call(t, "PATCH", "/v1/webhook_endpoints/"+created.ID, e.admin, map[string]any{"enabled": false, "event_types": []string{"*"}}, 200, &patched)
	if patched.Enabled || patched.EventTypes[0] != "*" {
		t.Fatalf("patched %+v", patched)
	}
	e.call(t, "POST", "/v1/webhook_endpoints/"+created.ID+"/test", e.admin, nil, 409, nil)
	var list listBody[engine.WebhookEndpoint]
	e.call(t, "GET", "/v1/webhook_endpoints", e.viewer, nil, 200, &list)
	if len(list.Data) != 1 {
		t.Fatalf("list: %d endpoints", len(list.Data))
	}
	e.call(t, "DELETE", "/v1/webhook_endpoints/"+created.ID, e.admin, nil, 204, nil)
	e.call(t, "GET", "/v1/webhook_endpoints/"+created.ID, e.admin, nil, 404, nil)
}

func mustInt(t *testing.T, s string) int64 {
	t.Helper()
	var n int64
	if err := json.Unmarshal([]byte(s), &n); err != nil {
		t.Fatalf("timestamp %q: %v", s, err)
	}
	return n
}

var _ iter.Seq[engine.IngestItem] // IngestResources takes an iter.Seq

// A tenant has at most webhooks.MaxWebhookEndpoints live endpoints: the next
// one is 409 until one is deleted.
func TestWebhookEndpointLimit(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t)
	body := map[string]any{"url": e.recv.srv.URL + "/hook", "event_types": []string{"*"}}
	var last engine.WebhookEndpoint
	for range webhooks.MaxWebhookEndpoints {
		e.call(t, "POST", "/v1/webhook_endpoints", e.admin, body, 201, &last)
	}
	e.call(t, "POST", "/v1/webhook_endpoints", e.admin, body, 409, nil)
	e.call(t, "DELETE", "/v1/webhook_endpoints/"+last.ID, e.admin, nil, 204, nil)
	e.call(t, "POST", "/v1/webhook_endpoints", e.admin, body, 201, nil)
}
