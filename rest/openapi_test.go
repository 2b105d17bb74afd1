package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/go-cmp/cmp"
)

func loadDoc(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(OpenAPI())
	if err != nil {
		t.Fatalf("kin-openapi cannot load openapi.json: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("openapi.json is invalid: %v", err)
	}
	return doc
}

func TestOpenAPIDocument(t *testing.T) {
	doc := loadDoc(t)
	if doc.OpenAPI != "3.1.0" || !doc.IsOpenAPI31OrLater() {
		t.Errorf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	t.Run("paths are the routes", func(t *testing.T) {
		a := &api{svc: &findings.Service{}, mux: http.NewServeMux()}
		a.routes()
		var docPaths []string
		for p := range doc.Paths.Map() {
			docPaths = append(docPaths, p)
		}
		slices.Sort(docPaths)
		routes := slices.Clone(a.patterns)
		slices.Sort(routes)
		if diff := cmp.Diff(routes, docPaths); diff != "" {
			t.Errorf("routes vs documented paths (-routes +doc):\n%s", diff)
		}
	})
	t.Run("every operation documents its errors and X-Request-Id", func(t *testing.T) {
		for p, item := range doc.Paths.Map() {
			for method, op := range item.Operations() {
				public := op.Security != nil && len(*op.Security) == 0
				if public != (p == "/v1/openapi.json" || !strings.HasPrefix(p, "/v1/")) {
					t.Errorf("%s: public = %v", p, public)
				}
				success := map[string]string{http.MethodGet: "200", http.MethodPost: "201", http.MethodPatch: "200", http.MethodDelete: "204"}[method]
				if op.Responses.Value(success) == nil {
					success = "202" // actions (rotate_secret answers 200)
					if op.Responses.Value(success) == nil {
						success = "200"
					}
				}
				want := []string{success, "405", "413", "500"}
				if !public {
					want = append(want, "400", "401", "403", "429", "503")
				}
				if strings.Contains(p, "{id}") {
					want = append(want, "404")
				}
				for _, status := range want {
					r := op.Responses.Value(status)
					if r == nil {
						t.Errorf("%s: no %s response", p, status)
						continue
					}
					if r.Value.Headers["X-Request-Id"] == nil {
						t.Errorf("%s %s: no X-Request-Id header", p, status)
					}
				}
			}
		}
	})
	t.Run("every /v1 operation names its scope for both schemes", func(t *testing.T) {
		for p, item := range doc.Paths.Map() {
			if !strings.HasPrefix(p, "/v1/") || p == "/v1/openapi.json" {
				continue
			}
			for method, op := range item.Operations() {
				if op.Security == nil || len(*op.Security) != 2 {
					t.Errorf("%s %s: security %v, want bearerAuth and oauth2", method, p, op.Security)
					continue
				}
				bearer, oauth := (*op.Security)[0]["bearerAuth"], (*op.Security)[1]["oauth2"]
				if len(bearer) != 1 || !slices.Equal(bearer, oauth) || !slices.Contains(engine.AllScopes, engine.Scope(bearer[0])) {
					t.Errorf("%s %s: security %v", method, p, *op.Security)
				}
			}
		}
	})
	t.Run("every POST under /v1 takes Idempotency-Key and says when it replayed", func(t *testing.T) {
		// The idempotency middleware serves every POST under /v1 (README):
		// a client reading the document must learn it can retry safely.
		for p, item := range doc.Paths.Map() {
			op := item.Post
			if op == nil || !strings.HasPrefix(p, "/v1/") {
				continue
			}
			if op.Parameters.GetByInAndName("header", "Idempotency-Key") == nil {
				t.Errorf("POST %s: no Idempotency-Key header parameter", p)
			}
			for status, r := range op.Responses.Map() {
				if strings.HasPrefix(status, "2") && r.Value.Headers["Idempotent-Replayed"] == nil {
					t.Errorf("POST %s %s: no Idempotent-Replayed header", p, status)
				}
			}
		}
	})
	t.Run("error codes", func(t *testing.T) {
		var codes []string
		for _, c := range doc.Components.Schemas["Error"].Value.Properties["error"].Value.Properties["code"].Value.Enum {
			codes = append(codes, c.(string))
		}
		var want []string
		for c := range statusOf {
			want = append(want, c)
		}
		slices.Sort(codes)
		slices.Sort(want)
		if diff := cmp.Diff(want, codes); diff != "" {
			t.Errorf("documented codes (-code +doc):\n%s", diff)
		}
	})
	t.Run("webhooks", func(t *testing.T) {
		var got []string
		for name, item := range doc.Webhooks {
			got = append(got, name)
			op := item.Post
			if op == nil || op.RequestBody == nil {
				t.Errorf("%s: no POST with a body", name)
				continue
			}
			var headers []string
			for _, p := range op.Parameters {
				if p.Value.In == "header" && p.Value.Required {
					headers = append(headers, p.Value.Name)
				}
			}
			slices.Sort(headers)
			if diff := cmp.Diff([]string{"X-Service-Event", "X-Service-Event-Id", "X-Service-Signature", "X-Service-Timestamp"}, headers); diff != "" {
				t.Errorf("%s headers (-want +got):\n%s", name, diff)
			}
			// The spec's own example payload validates.
			if name == engine.EventFindingCreated {
				var v any
				_ = json.Unmarshal([]byte(`{"event_id":"evt_01jd8z3k5m7q9s1t3v5x7z9b1d","type":"finding.created",
					"created_at":"2026-01-02T03:04:05Z","data":{"finding":{"id":"fnd_01jd8z3k5m7q9s1t3v5x7z9b1d",
					"severity":"high","dimension":"security","resource_id":"res_01jd8z3k5m7q9s1t3v5x7z9b1d","title":"t"}}}`), &v)
				schema := op.RequestBody.Value.Content.Get("application/json").Schema.Value
				if err := schema.VisitJSON(v, openapi3.EnableJSONSchema2020()); err != nil {
					t.Errorf("finding.created example: %v", err)
				}
				bad := v.(map[string]any)
				bad["data"].(map[string]any)["finding"].(map[string]any)["severity"] = "urgent"
				if err := schema.VisitJSON(bad, openapi3.EnableJSONSchema2020()); err == nil {
					t.Error("finding.created with severity urgent validates")
				}
			}
		}
		// Every type the service sends: the audit events, and the
		// endpoint events (disabled, test).
		want := append(slices.Clone(engine.EventTypes), engine.EventWebhookEndpointDisabled, engine.EventWebhookTest)
		slices.Sort(want)
		slices.Sort(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("webhooks (-event types +doc):\n%s", diff)
		}
	})
}
