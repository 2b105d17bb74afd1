package rest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/fourd-dev/fourd/engine/identity"
)

func TestParseQuery(t *testing.T) {
	allowed := []string{"limit", "cursor", "severity"}
	tests := []struct {
		raw      string
		want     query
		wantCode string
	}{
		{"", query{}, ""},
		{"limit=5&severity=high", query{"limit": "5", "severity": "high"}, ""},
		{"limit=&cursor=", query{}, ""},
		{"severity=a%20b", query{"severity": "a b"}, ""},
		{"limit=1&limit=2", nil, engine.CodeInvalidRequest},
		{"colour=red", nil, engine.CodeInvalidRequest},
		{"limit=%zz", nil, engine.CodeInvalidRequest},
		{"limit=1;cursor=2", nil, engine.CodeInvalidRequest},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/x?"+tt.raw, nil)
			got, err := parseQuery(r, allowed...)
			if code := engine.ErrorCode(err); code != tt.wantCode {
				t.Fatalf("code %q, want %q (%v)", code, tt.wantCode, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestStatusOf(t *testing.T) {
	want := map[string]int{
		"unauthorized": 401, "insufficient_scope": 403, "not_found": 404, "method_not_allowed": 405,
		"invalid_request": 400, "invalid_cursor": 400, "invalid_limit": 422, "invalid_severity_filter": 422,
		"validation_failed": 422, "conflict": 409, "payload_too_large": 413, "rate_limited": 429,
		"internal_error": 500, "unavailable": 503,
	}
	for code, status := range want {
		t.Run(code, func(t *testing.T) {
			if got := StatusOf(engine.Errorf(code, "x")); got != status {
				t.Errorf("StatusOf(%s) = %d, want %d", code, got, status)
			}
		})
	}
	if diff := cmp.Diff(want, statusOf); diff != "" {
		t.Errorf("statusOf (-want +got):\n%s", diff)
	}
	if got := StatusOf(http.ErrAbortHandler); got != 500 {
		t.Errorf("plain error: %d", got)
	}
}

func TestDecodeJSON(t *testing.T) {
	type input struct {
		Name string `json:"name"`
		N    int    `json:"n"`
	}
	tests := []struct {
		name, body, contentType string
		max                     int64
		wantCode                string
	}{
		{"ok", `{"name":"a","n":1}`, "application/json", 100, ""},
		{"ok charset", `{"name":"a"}`, "application/json; charset=utf-8", 100, ""},
		{"no content type", `{"name":"a"}`, "", 100, ""},
		{"malformed", `{"name":`, "application/json", 100, engine.CodeInvalidRequest},
		{"syntax", `{"name" "a"}`, "application/json", 100, engine.CodeInvalidRequest},
		{"empty", ``, "application/json", 100, engine.CodeInvalidRequest},
		{"two values", `{} {}`, "application/json", 100, engine.CodeInvalidRequest},
		{"wrong type", `{"n":"x"}`, "application/json", 100, engine.CodeValidationFailed},
		{"unknown field", `{"colour":"red"}`, "application/json", 100, engine.CodeValidationFailed},
		{"form", `name=a`, "application/x-www-form-urlencoded", 100, engine.CodeInvalidRequest},
		{"too large", `{"name":"` + strings.Repeat("a", 200) + `"}`, "application/json", 100, engine.CodePayloadTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			r := httptest.NewRequest("POST", "/", strings.NewReader(tt.body))
			if tt.contentType != "" {
				r.Header.Set("Content-Type", tt.contentType)
			}
			r.Body = http.MaxBytesReader(w, r.Body, tt.max)
			var v input
			err := decodeJSON(r, &v)
			if code := engine.ErrorCode(err); code != tt.wantCode {
				t.Errorf("code %q, want %q (%v)", code, tt.wantCode, err)
			}
			if err != nil && engine.ErrorMessage(err) == "internal error" {
				t.Errorf("message is generic: %v", err)
			}
		})
	}
}

func TestConfigValidate(t *testing.T) {
	svc, ids := &findings.Service{}, &identity.Service{}
	tests := []struct {
		name string
		cfg  Config
		ok   bool
	}{
		{"minimal", Config{Service: svc, Identity: ids}, true},
		{"no service", Config{Identity: ids}, false},
		{"no identity", Config{Service: svc}, false},
		{"short secret", Config{Service: svc, Identity: ids, Secret: []byte("short")}, false},
		{"secret", Config{Service: svc, Identity: ids, Secret: make([]byte, 32)}, true},
		{"negative body limit", Config{Service: svc, Identity: ids, MaxBodyBytes: -1}, false},
		{"cors any", Config{Service: svc, Identity: ids, CORSOrigins: []string{"*"}}, true},
		{"cors origin", Config{Service: svc, Identity: ids, CORSOrigins: []string{"https://a.example"}}, true},
		{"cors bad", Config{Service: svc, Identity: ids, CORSOrigins: []string{"a.example"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.cfg.Validate(); (err == nil) != tt.ok {
				t.Errorf("Validate() = %v, want ok %v", err, tt.ok)
			}
		})
	}
}

func TestListBody(t *testing.T) {
	tests := []struct {
		name string
		page engine.Page[int]
		want listBody[int]
	}{
		{"empty", engine.Page[int]{}, listBody[int]{Data: []int{}}},
		{"last page", engine.Page[int]{Items: []int{1}}, listBody[int]{Data: []int{1}}},
		{"more", engine.Page[int]{Items: []int{1}, HasMore: true, NextCursor: "c"}, listBody[int]{Data: []int{1}, HasMore: true, NextCursor: ptr("c")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, newListBody(tt.page)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestDecodeJSONMessages: a body of the wrong JSON type is told in JSON's
// words (an integer, an array, an object), never Go's, and a time that is
// not RFC 3339 is validation_failed saying so, as GraphQL's Time does.
func TestDecodeJSONMessages(t *testing.T) {
	type input struct {
		N      int               `json:"n"`
		IDs    []string          `json:"ids"`
		Filter map[string]string `json:"filter"`
		On     *bool             `json:"on"`
		At     *time.Time        `json:"at"`
		Rate   float64           `json:"rate"`
	}
	for _, c := range []struct{ body, code, message string }{
		{`{"n":"x"}`, engine.CodeValidationFailed, `field "n" must be an integer; got string`},
		{`{"n":1.5}`, engine.CodeValidationFailed, `field "n" must be an integer; got number 1.5`},
		{`{"ids":"fnd_1"}`, engine.CodeValidationFailed, `field "ids" must be an array; got string`},
		{`{"ids":[5]}`, engine.CodeValidationFailed, `field "ids" must be a string; got number`},
		{`{"filter":"severity=high"}`, engine.CodeValidationFailed, `field "filter" must be an object; got string`},
		{`{"on":"yes"}`, engine.CodeValidationFailed, `field "on" must be true or false; got string`},
		{`{"rate":"x"}`, engine.CodeValidationFailed, `field "rate" must be a number; got string`},
		{`[]`, engine.CodeValidationFailed, `the body must be an object; got array`},
		{`{"at":"tomorrow"}`, engine.CodeValidationFailed, `a time must be an RFC 3339 string such as 2026-01-31T00:00:00Z; got "tomorrow"`},
		{`{"at":"2026-13-01T00:00:00Z"}`, engine.CodeValidationFailed, `a time must be an RFC 3339 string such as 2026-01-31T00:00:00Z; got "2026-13-01T00:00:00Z"`},
	} {
		t.Run(c.body, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/", strings.NewReader(c.body))
			r.Header.Set("Content-Type", "application/json")
			var v input
			err := decodeJSON(r, &v)
			if engine.ErrorCode(err) != c.code || engine.ErrorMessage(err) != c.message {
				t.Errorf("%s: %q, want %s %q", engine.ErrorCode(err), engine.ErrorMessage(err), c.code, c.message)
			}
		})
	}
}
