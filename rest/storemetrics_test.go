package rest

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// The stores time their calls into /metrics: fourd_store_query_duration_seconds
// by store interface and operation, fourd_store_errors_total by store,
// operation and error code. Requests that reach every kind of store must
// leave these series, named as dashboards know them.
func TestStoreMetricsSeries(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 4, findingsB: 1})
	fid := e.a.Findings[0].ID
	for _, path := range []string{
		"/v1/findings", "/v1/findings/" + fid, "/v1/findings/summary?group_by=severity",
		"/v1/resources", "/v1/resources/" + e.a.Resources[0].ID,
		"/v1/audits", "/v1/audits/" + e.a.Audit.ID,
		"/v1/policies", "/v1/policies/" + e.a.Policies[0].ID,
		"/v1/reports", "/v1/reports/" + e.a.Reports[0].ID,
		"/v1/tokens",
	} {
		if r := e.get(t, path, e.tokA); r.status != 200 {
			t.Fatalf("GET %s: %d %s", path, r.status, r.body)
		}
	}
	// A policy that does not exist is an answer (not_found), counted by code.
	missing := engine.NewID(engine.PrefixPolicy, time.Now())
	wantError(t, e.get(t, "/v1/policies/"+missing, e.tokA), 404, engine.CodeNotFound)

	body := string(e.get(t, "/metrics", "").body)
	var series []string
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "fourd_store_") {
			series = append(series, line[:strings.LastIndexByte(line, ' ')])
		}
	}
	has := func(s string) bool { return slices.Contains(series, s) }
	for _, c := range []struct{ store, op string }{
		{"findings", "ListFindings"}, {"findings", "GetFinding"}, {"findings", "CountFindings"},
		{"resources", "ListResources"}, {"resources", "GetResource"},
		{"tenants", "GetTokenByHash"}, {"tenants", "ListTokens"}, {"tenants", "EnsureTenant"},
		{"tenants", "EnsureUser"}, {"tenants", "CreateToken"},
		{"audits", "ListAudits"}, {"audits", "GetAudit"}, {"audits", "LatestCompletedAudit"},
		{"policies", "ListPolicies"}, {"policies", "GetPolicy"},
		{"reports", "ListReports"}, {"reports", "GetReport"},
	} {
		labels := fmt.Sprintf(`op=%q,store=%q`, c.op, c.store)
		for _, s := range []string{
			`fourd_store_query_duration_seconds_count{` + labels + `}`,
			`fourd_store_query_duration_seconds_sum{` + labels + `}`,
			`fourd_store_query_duration_seconds_bucket{` + labels + `,le="0.0005"}`,
			`fourd_store_query_duration_seconds_bucket{` + labels + `,le="+Inf"}`,
		} {
			if !has(s) {
				t.Errorf("metrics lack %s", s)
			}
		}
	}
	if s := `fourd_store_errors_total{code="not_found",op="GetPolicy",store="policies"}`; !has(s) {
		t.Errorf("metrics lack %s", s)
	}
	// Only the documented label sets: nothing else leaks into the names.
	re := regexp.MustCompile(`^fourd_store_(query_duration_seconds_(count|sum|bucket)|errors_total)\{(code="[a-z_]+",)?op="[A-Za-z]+",store="(findings|resources|tenants|audits|policies|reports)"(,le="[^"]+")?\}$`)
	for _, s := range series {
		if !re.MatchString(s) {
			t.Errorf("unexpected store series %s", s)
		}
	}
	for _, help := range []string{
		"# HELP fourd_store_query_duration_seconds Time of a store call, by store interface and operation.",
		"# HELP fourd_store_errors_total Store calls that returned an error, by store interface, operation and error code.",
	} {
		if !strings.Contains(body, help) {
			t.Errorf("metrics lack %q", help)
		}
	}
}
