package rest

import (
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// An unknown query parameter names what the endpoint accepts, and says so
// when it accepts none.
func TestParseQueryUnknownParameter(t *testing.T) {
	for _, tc := range []struct {
		url     string
		allowed []string
		want    string
	}{
		{"/v1/findings/fnd_x?group_by=dimension", nil,
			`unknown query parameter "group_by"; this endpoint accepts none`},
		{"/v1/findings?sort=x&limit=2", []string{"limit", "cursor"},
			`unknown query parameter "sort"; this endpoint accepts limit, cursor`},
	} {
		_, err := parseQuery(httptest.NewRequest("GET", tc.url, nil), tc.allowed...)
		var e *engine.Error
		if !errors.As(err, &e) || e.Code != engine.CodeInvalidRequest || e.Message != tc.want {
			t.Errorf("%s: got %v, want invalid_request %q", tc.url, err, tc.want)
		}
	}
	if q, err := parseQuery(httptest.NewRequest("GET", "/v1/findings?limit=2", nil), "limit"); err != nil || q["limit"] != "2" {
		t.Errorf("limit=2: got %v, %v", q, err)
	}
}
