package rest

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
)

// errorCase is one bad request and the error it must get.
type errorCase struct {
	name   string
	query  string // appended to the endpoint's path
	token  string
	method string
	header http.Header
	body   []byte
	status int
	code   string
	// check looks further at the response.
	check func(t *testing.T, r response, d errorDetail)
}

// endpoint is one documented GET endpoint and what it accepts.
type endpoint struct {
	path    string
	list    bool // takes limit and cursor
	finding bool // takes the finding filters
	// lacking is a token without the endpoint's scope.
	lacking string
}

func TestErrorsPerEndpoint(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 30, findingsB: 5})
	endpoints := []endpoint{
		{path: "/v1/findings", list: true, finding: true, lacking: e.tokAResourcesOnly},
		{path: "/v1/findings/summary", finding: true, lacking: e.tokAResourcesOnly},
		{path: "/v1/findings/" + e.a.Findings[0].ID, lacking: e.tokAResourcesOnly},
		{path: "/v1/resources", list: true, lacking: e.tokAFindingsOnly},
		{path: "/v1/resources/" + e.a.Resources[0].ID, lacking: e.tokAFindingsOnly},
		{path: "/v1/audits", list: true, lacking: e.tokAFindingsOnly},
		{path: "/v1/audits/" + e.a.Audit.ID, lacking: e.tokAFindingsOnly},
		{path: "/v1/policies", list: true, lacking: e.tokAFindingsOnly},
		{path: "/v1/policies/" + e.a.Policies[0].ID, lacking: e.tokAFindingsOnly},
		{path: "/v1/reports", list: true, lacking: e.tokAFindingsOnly},
		{path: "/v1/reports/" + e.a.Reports[0].ID, lacking: e.tokAFindingsOnly},
	}
	running := engine.Audit{ID: engine.NewID(engine.PrefixAudit, time.Now()), TenantID: e.a.ID, Status: engine.AuditRunning, CreatedAt: time.Now()}
	if err := e.pg.CreateAudit(context.Background(), running); err != nil {
		t.Fatal(err)
	}
	for _, ep := range endpoints {
		t.Run(ep.path, func(t *testing.T) {
			for _, c := range errorCases(t, e, ep, running.ID) {
				t.Run(c.name, func(t *testing.T) {
					method := c.method
					if method == "" {
						method = http.MethodGet
					}
					u := e.url + ep.path
					if c.query != "" {
						u += "?" + c.query
					}
					r := do(t, e.client, method, u, c.token, c.body, c.header)
					d := wantError(t, r, c.status, c.code)
					if d.Message == "" {
						t.Error("empty message")
					}
					if c.check != nil {
						c.check(t, r, d)
					}
				})
			}
		})
	}
}

func wantHeader(name, prefix string) func(*testing.T, response, errorDetail) {
	return func(t *testing.T, r response, _ errorDetail) {
		if v := r.header.Get(name); !strings.HasPrefix(v, prefix) {
			t.Errorf("%s = %q, want prefix %q", name, v, prefix)
		}
	}
}

// wantAllowGET checks that a 405's Allow header lists GET.
func wantAllowGET(t *testing.T, r response, _ errorDetail) {
	if v := r.header.Get("Allow"); !strings.Contains(v, "GET") {
		t.Errorf("Allow = %q, want it to list GET", v)
	}
}

// errorCases lists the bad requests of one endpoint.
func errorCases(t *testing.T, e *env, ep endpoint, running string) []errorCase {
	bearer := wantHeader("WWW-Authenticate", "Bearer")
	cs := []errorCase{
		{name: "no token", status: 401, code: engine.CodeUnauthorized, check: bearer},
		{name: "basic auth", header: http.Header{"Authorization": {"Basic YTpi"}}, status: 401, code: engine.CodeUnauthorized, check: bearer},
		{name: "empty bearer", header: http.Header{"Authorization": {"Bearer "}}, status: 401, code: engine.CodeUnauthorized, check: bearer},
		{name: "two tokens", header: http.Header{"Authorization": {"Bearer " + e.tokA, "Bearer " + e.tokA}}, status: 401, code: engine.CodeUnauthorized, check: bearer},
		{name: "malformed token", token: "not-a-token", status: 401, code: engine.CodeUnauthorized, check: bearer},
		{name: "unknown token", token: identity.TokenPrefix + strings.Repeat("a", 48), status: 401, code: engine.CodeUnauthorized, check: bearer},
		{name: "revoked token", token: e.tokARevoked, status: 401, code: engine.CodeUnauthorized, check: bearer},
		{name: "token lacks scope", token: ep.lacking, status: 403, code: engine.CodeInsufficientScope, check: bearer},
		{name: "unknown parameter", token: e.tokA, query: "sevrity=high", status: 400, code: engine.CodeInvalidRequest},
		{name: "malformed query", token: e.tokA, query: "a=%zz", status: 400, code: engine.CodeInvalidRequest},
		// No endpoint takes PUT (writes are POST, PATCH and DELETE).
		{name: "PUT", method: http.MethodPut, token: e.tokA, status: 405, code: engine.CodeMethodNotAllowed, check: wantAllowGET},
		{name: "oversized body", token: e.tokA, body: bytes.Repeat([]byte("x"), int(DefaultMaxBodyBytes)+1), status: 413, code: engine.CodePayloadTooLarge},
	}
	if ep.list {
		for _, l := range []string{"0", "201", "-1", "abc", "1.5", "1e2", "%20", "50x", "99999999999999999999"} {
			cs = append(cs, errorCase{name: "limit=" + l, token: e.tokA, query: "limit=" + l, status: 422, code: engine.CodeInvalidLimit})
		}
		cs = append(cs,
			errorCase{name: "duplicate limit", token: e.tokA, query: "limit=1&limit=2", status: 400, code: engine.CodeInvalidRequest},
			errorCase{name: "garbage cursor", token: e.tokA, query: "cursor=garbage", status: 400, code: engine.CodeInvalidCursor},
		)
		valid := firstCursor(t, e, ep.path, e.tokA)
		foreign := firstCursor(t, e, ep.path, e.tokB)
		other := firstCursor(t, e, otherList(ep.path), e.tokA)
		cs = append(cs,
			errorCase{name: "tampered cursor", token: e.tokA, query: "cursor=" + url.QueryEscape(tamper(valid)), status: 400, code: engine.CodeInvalidCursor},
			errorCase{name: "truncated cursor", token: e.tokA, query: "cursor=" + url.QueryEscape(valid[:len(valid)-3]), status: 400, code: engine.CodeInvalidCursor},
			errorCase{name: "another list's cursor", token: e.tokA, query: "cursor=" + url.QueryEscape(other), status: 400, code: engine.CodeInvalidCursor},
		)
		if foreign != "" {
			cs = append(cs, errorCase{name: "another tenant's cursor", token: e.tokA, query: "cursor=" + url.QueryEscape(foreign), status: 400, code: engine.CodeInvalidCursor})
		}
		if ep.finding {
			cs = append(cs, errorCase{name: "cursor of other filters", token: e.tokA,
				query: "severity=high&cursor=" + url.QueryEscape(valid), status: 400, code: engine.CodeInvalidCursor})
		}
	}
	if ep.finding {
		names5 := func(t *testing.T, _ response, d errorDetail) {
			for _, s := range engine.Severities {
				if !strings.Contains(d.Message, string(s)) {
					t.Errorf("message %q does not name %s", d.Message, s)
				}
			}
		}
		for _, s := range []string{"urgent", "HIGH", "high%20", "5", "%00", "high,low", ""} { // "": severity= does not widen the list
			cs = append(cs, errorCase{name: "severity=" + s, token: e.tokA, query: "severity=" + s, status: 422, code: engine.CodeInvalidSeverityFilter, check: names5})
		}
		cs = append(cs,
			errorCase{name: "dimension", token: e.tokA, query: "dimension=speed", status: 422, code: engine.CodeValidationFailed},
			errorCase{name: "status", token: e.tokA, query: "status=closed", status: 422, code: engine.CodeValidationFailed},
			errorCase{name: "resource_id", token: e.tokA, query: "resource_id=fnd_x", status: 422, code: engine.CodeValidationFailed},
			errorCase{name: "audit_id malformed", token: e.tokA, query: "audit_id=123", status: 422, code: engine.CodeValidationFailed},
			errorCase{name: "audit_id unknown", token: e.tokA, query: "audit_id=" + engine.NewID(engine.PrefixAudit, time.Now()), status: 404, code: engine.CodeNotFound},
			errorCase{name: "audit_id of B", token: e.tokA, query: "audit_id=" + e.b.Audit.ID, status: 404, code: engine.CodeNotFound},
			errorCase{name: "audit_id running", token: e.tokA, query: "audit_id=" + running, status: 409, code: engine.CodeConflict},
			errorCase{name: "duplicate severity", token: e.tokA, query: "severity=high&severity=low", status: 400, code: engine.CodeInvalidRequest},
		)
	}
	if strings.HasSuffix(ep.path, "/summary") {
		cs = append(cs,
			errorCase{name: "group_by unknown", token: e.tokA, query: "group_by=color", status: 422, code: engine.CodeValidationFailed},
			errorCase{name: "group_by twice", token: e.tokA, query: "group_by=severity,severity", status: 422, code: engine.CodeValidationFailed},
			errorCase{name: "limit", token: e.tokA, query: "limit=5", status: 400, code: engine.CodeInvalidRequest},
		)
	}
	return cs
}

// firstCursor returns the next_cursor of the first one-item page of path
// ("" when the list has a single page).
func firstCursor(t *testing.T, e *env, path, token string) string {
	t.Helper()
	if strings.HasPrefix(path, "/v1/audits") {
		// Each tenant has one audit; a failed one gives the list two pages
		// without changing the snapshot findings are read from.
		tenant := e.a.ID
		if token == e.tokB {
			tenant = e.b.ID
		}
		failed := engine.Audit{ID: engine.NewID(engine.PrefixAudit, time.Now()), TenantID: tenant,
			Status: engine.AuditFailed, Error: "test", CreatedAt: time.Now()}
		if err := e.pg.CreateAudit(context.Background(), failed); err != nil {
			t.Fatal(err)
		}
	}
	page := getJSON[listBody[map[string]any]](t, e, path+"?limit=1", token)
	if page.NextCursor == nil {
		return ""
	}
	return *page.NextCursor
}

// otherList returns another list endpoint than path.
func otherList(path string) string {
	if path == "/v1/resources" {
		return "/v1/findings"
	}
	return "/v1/resources"
}

// tamper changes one character of the signed part of a cursor.
func tamper(c string) string {
	b := []byte(c)
	i := len(b) / 3
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return string(b)
}
