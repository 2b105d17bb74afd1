package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

// isoCase says how tenant B's admin attacks tenant A through one
// operation of the API.
type isoCase struct {
	// kind: "list" (GET a collection: nothing of A in it), "get" (GET with
	// A's id: 404), "write" (a change to A's record by id: rejected, and A's
	// record unchanged), "create" (in B's own tenant: nothing of A in the
	// answer, A's lists unchanged at the end), "public" (no tenant data),
	// "oauth" (checked by its own subtest).
	kind string
	// ids names the collection whose A id replaces {id}.
	ids string
	// body is the JSON body sent, if any.
	body string
	// queries are extra query strings tried on a list, with A's ids.
	queries []string
	// at, when set, is the path a list is read at (the pattern with its
	// parameters filled in: ids that are not a tenant's, e.g. a framework).
	at string
	// attacks are extra bodies a "create" sends, naming A's ids ({finding},
	// {res}, {usr}, {native}): each must change nothing of A (updated 0
	// where the answer counts what it changed).
	attacks []string
}

// isolationMatrix lists every operation of the API. TestTenantIsolation
// fails for an operation of openapi.json that is missing here: a new
// endpoint joins the matrix when it is added.
var isolationMatrix = map[string]isoCase{
	"GET /v1/findings":                         {kind: "list", queries: []string{"resource_id={res}", "audit_id={aud}", "cursor={cursor}", "assignee={usr}", "q={native}", "assignee={usr}&tag=env%3Dprod&compliance=CIS-AWS-4.0.1", "tag=env%3Dprod&q={native}"}},
	"GET /v1/findings/summary":                 {kind: "list", queries: []string{"audit_id={aud}", "resource_id={res}", "assignee={usr}", "q={native}", "group_by=age,status&assignee={usr}&tag=env%3Dprod", "compliance=CIS-AWS-4.0.1&q={native}"}},
	"GET /v1/findings/rankings":                {kind: "list", queries: []string{"audit_id={aud}"}},
	"GET /v1/compliance/frameworks":            {kind: "list", queries: []string{"audit_id={aud}"}},
	"GET /v1/compliance/frameworks/{id}":       {kind: "list", at: "/v1/compliance/frameworks/CIS-AWS-4.0.1", queries: []string{"audit_id={aud}", "cursor={cursor}", "status=failed&audit_id={aud}"}},
	"GET /v1/compliance/frameworks/{id}/trend": {kind: "list", at: "/v1/compliance/frameworks/NIST-800-53-r5/trend", queries: []string{"cursor={cursor}"}},
	"GET /v1/findings/export":                  {kind: "export", queries: []string{"format=csv", "format=ndjson", "format=ocsf", "format=ocsf&resource_id={res}", "resource_id={res}", "format=ndjson&audit_id={aud}", "format=csv&rule_id={rule}", "format=csv&assignee={usr}", "format=ndjson&q={native}"}},
	"GET /v1/findings/{id}":                    {kind: "get", ids: "findings"},
	"GET /v1/findings/{id}/activity":           {kind: "get", ids: "findings"},
	"POST /v1/findings/bulk_update": {kind: "create", body: `{"filter":{"severity":"critical"},"status":"in_progress","note":"b was here"}`,
		attacks: []string{`{"ids":["{finding}"],"status":"resolved","resolution":"accepted_risk","note":"b was here"}`,
			`{"ids":["{finding}"],"assignee":""}`, `{"filter":{"resource_id":"{res}"},"note":"b was here"}`,
			`{"filter":{"assignee":"{usr}"},"assignee":""}`, `{"filter":{"q":"{native}","tag":["env=prod"]},"status":"in_progress"}`}},
	"PATCH /v1/findings/{id}":                       {kind: "write", ids: "findings", body: `{"status":"resolved","resolution":"accepted_risk","note":"b was here"}`},
	"GET /v1/resources":                             {kind: "list"},
	"POST /v1/resources":                            {kind: "create", body: `[]`},
	"GET /v1/resources/export":                      {kind: "export", queries: []string{"format=csv", "format=ndjson", "type=aws_s3_bucket&format=ndjson"}},
	"GET /v1/resources/{id}":                        {kind: "get", ids: "resources"},
	"GET /v1/resources/{id}/explain":                {kind: "get", ids: "resources"},
	"GET /v1/audits":                                {kind: "list"},
	"POST /v1/audits":                               {kind: "create", body: `{}`},
	"GET /v1/audits/{id}":                           {kind: "get", ids: "audits"},
	"DELETE /v1/audits/{id}":                        {kind: "write", ids: "audits"},
	"POST /v1/audits/{id}/reanalyze":                {kind: "write", ids: "audits"},
	"POST /v1/audits/{id}/cancel":                   {kind: "write", ids: "audits"},
	"GET /v1/policies":                              {kind: "list"},
	"POST /v1/policies":                             {kind: "create", body: `{"name":"b policy","expression":"true","dimension":"security","severity":"low"}`},
	"POST /v1/policies/dry_run":                     {kind: "create", body: `{"name":"b policy","expression":"true","dimension":"security","severity":"low"}`},
	"GET /v1/policies/{id}":                         {kind: "get", ids: "policies"},
	"PATCH /v1/policies/{id}":                       {kind: "write", ids: "policies", body: `{"name":"hijacked"}`},
	"DELETE /v1/policies/{id}":                      {kind: "write", ids: "policies"},
	"POST /v1/policies/{id}/test":                   {kind: "write", ids: "policies", body: `{}`},
	"GET /v1/reports":                               {kind: "list"},
	"POST /v1/reports":                              {kind: "create", body: `{"kind":"executive_summary"}`},
	"GET /v1/reports/{id}":                          {kind: "get", ids: "reports"},
	"GET /v1/reports/{id}/download":                 {kind: "get", ids: "reports"},
	"GET /v1/webhook_endpoints":                     {kind: "list"},
	"POST /v1/webhook_endpoints":                    {kind: "create", body: `{"url":"http://127.0.0.1:1/b","event_types":["*"]}`},
	"GET /v1/webhook_endpoints/{id}":                {kind: "get", ids: "webhook_endpoints"},
	"PATCH /v1/webhook_endpoints/{id}":              {kind: "write", ids: "webhook_endpoints", body: `{"description":"hijacked"}`},
	"DELETE /v1/webhook_endpoints/{id}":             {kind: "write", ids: "webhook_endpoints"},
	"POST /v1/webhook_endpoints/{id}/rotate_secret": {kind: "write", ids: "webhook_endpoints"},
	"POST /v1/webhook_endpoints/{id}/test":          {kind: "write", ids: "webhook_endpoints"},
	"GET /v1/webhook_endpoints/{id}/deliveries":     {kind: "get", ids: "webhook_endpoints"},
	"POST /v1/webhook_endpoints/{id}/recover":       {kind: "write", ids: "webhook_endpoints", body: `{"since":"{since}"}`},
	"GET /v1/events":                                {kind: "list"},
	"GET /v1/events/{id}":                           {kind: "get", ids: "events"},
	"GET /v1/events/{id}/deliveries":                {kind: "get", ids: "events"},
	"POST /v1/events/{id}/redeliver":                {kind: "write", ids: "events"},
	"GET /v1/tokens":                                {kind: "list"},
	"POST /v1/tokens":                               {kind: "create", body: `{"name":"b"}`},
	"DELETE /v1/tokens/{id}":                        {kind: "write", ids: "tokens"},
	"GET /v1/oauth_clients":                         {kind: "list"},
	"POST /v1/oauth_clients":                        {kind: "create", body: `{"name":"b","redirect_uris":["https://b.example/cb"]}`},
	"DELETE /v1/oauth_clients/{id}":                 {kind: "write", ids: "oauth_clients"},
	"GET /v1/mute_rules":                            {kind: "list"},
	"POST /v1/mute_rules":                           {kind: "create", body: `{"expression":"true","reason":"b","expires_at":"{expires}"}`},
	"POST /v1/mute_rules/dry_run":                   {kind: "create", body: `{"expression":"true","limit":200}`},
	"GET /v1/mute_rules/{id}":                       {kind: "get", ids: "mute_rules"},
	"PATCH /v1/mute_rules/{id}":                     {kind: "write", ids: "mute_rules", body: `{"reason":"hijacked","enabled":false}`},
	"DELETE /v1/mute_rules/{id}":                    {kind: "write", ids: "mute_rules"},
	"GET /v1/mute_rules/{id}/history":               {kind: "get", ids: "mute_rules"},
	"GET /oauth/authorize":                          {kind: "oauth"},
	"POST /oauth/authorize":                         {kind: "oauth"},
	"POST /oauth/token":                             {kind: "oauth"},
	"POST /oauth/revoke":                            {kind: "oauth"},
	"POST /oauth/introspect":                        {kind: "oauth"},
	"GET /.well-known/oauth-authorization-server":   {kind: "public"},
	"GET /v1/openapi.json":                          {kind: "public"},
	"GET /healthz":                                  {kind: "public"},
	"GET /readyz":                                   {kind: "public"},
}

// TestTenantIsolationMatrix tries tenant B's admin token on every operation of
// the API against tenant A's ids, lists, filters and cursors, and asserts
// that nothing of A is visible to B or changed by B.
func TestTenantIsolationMatrix(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, idOptions{})
	ids := e.tenantAIDs(t)
	var secretsA []string // every id of A, which no answer to B may contain
	for _, list := range ids {
		secretsA = append(secretsA, list...)
	}
	secretsA = append(secretsA, e.userA.ID, e.userA.TenantID, e.userA.Email, e.tokA)
	before := e.viewOfA(t)

	doc := loadDoc(t)
	for p, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			op := method + " " + p
			c, ok := isolationMatrix[op]
			if !ok {
				t.Errorf("%s is not in the isolation matrix: add it to isolationMatrix in rest/isolation_test.go", op)
				continue
			}
			t.Run(op, func(t *testing.T) {
				switch c.kind {
				case "list", "public":
					e.attackList(t, method, p, c, ids, secretsA)
				case "get", "write":
					e.attackByID(t, method, p, c, ids, secretsA)
				case "create":
					body := strings.ReplaceAll(c.body, "{expires}", time.Now().Add(24*time.Hour).UTC().Format(time.RFC3339))
					r := e.call(t, method, p, e.tokB, body)
					if leak := containsAny(string(r.body), secretsA); leak != "" {
						t.Errorf("%s answered B with A's %q: %.300s", op, leak, r.body)
					}
					e.attackBodies(t, method, p, c, ids, secretsA)
				case "export":
					e.attackExport(t, p, c, ids, secretsA)
				case "oauth":
					// TestTenantIsolationOAuth covers these.
				default:
					t.Fatalf("unknown kind %q", c.kind)
				}
			})
		}
	}
	if diff := diffViews(before, e.viewOfA(t)); diff != "" {
		t.Errorf("tenant A's data changed while B attacked it:\n%s", diff)
	}
}

// attackList GETs a collection (and its filters with A's ids) as B.
func (e *idEnv) attackList(t *testing.T, method, p string, c isoCase, ids map[string][]string, secretsA []string) {
	t.Helper()
	if c.at != "" {
		p = c.at
	}
	paths := []string{p}
	for _, q := range c.queries {
		q = strings.NewReplacer("{res}", ids["resources"][0], "{aud}", ids["audits"][0], "{cursor}", url.QueryEscape(ids["cursor"][0]),
			"{usr}", ids["users"][0], "{native}", url.QueryEscape(ids["natives"][0])).Replace(q)
		paths = append(paths, p+"?"+q)
	}
	for i, path := range paths {
		r := e.call(t, method, path, e.tokB, "")
		if leak := containsAny(string(r.body), others(secretsA, path)); leak != "" {
			t.Errorf("%s %s showed B A's %q", method, path, leak)
		}
		empty := strings.Contains(string(r.body), `"data":[]`) || strings.Contains(string(r.body), `"total":0,`)
		if i > 0 && r.status == http.StatusOK && !empty {
			t.Errorf("%s %s: a filter on A's id answered B with data: %.300s", method, path, r.body)
		}
		if r.status >= 500 {
			t.Errorf("%s %s: %d", method, path, r.status)
		}
		if strings.Contains(path, "cursor=") && r.status != http.StatusBadRequest {
			t.Errorf("%s %s: A's cursor used by B: %d, want 400 invalid_cursor", method, path, r.status)
		}
	}
}

// attackBodies sends a "create" operation's attacks as B: never an answer
// holding A's data (but the ids B sent), nothing of A changed, and a bulk
// update updates none of A's findings.
func (e *idEnv) attackBodies(t *testing.T, method, p string, c isoCase, ids map[string][]string, secretsA []string) {
	t.Helper()
	for _, b := range c.attacks {
		b = strings.NewReplacer("{finding}", ids["findings"][0], "{res}", ids["resources"][0], "{usr}", ids["users"][0],
			"{native}", ids["natives"][0]).Replace(b)
		r := e.call(t, method, p, e.tokB, b)
		if leak := containsAny(string(r.body), others(secretsA, b)); leak != "" {
			t.Errorf("%s %s showed B A's %q: %.300s", method, b, leak, r.body)
		}
		var counts struct{ Updated *int }
		if r.status >= 500 || r.status == http.StatusOK && (json.Unmarshal(r.body, &counts) != nil || counts.Updated == nil || *counts.Updated != 0) {
			t.Errorf("%s %s as B: %d %.300s, want nothing of A updated", method, b, r.status, r.body)
		}
	}
}

// attackExport downloads an export as B, in each format and with filters
// naming A's ids: never a row of A; a filter on A's ids selects nothing.
func (e *idEnv) attackExport(t *testing.T, p string, c isoCase, ids map[string][]string, secretsA []string) {
	t.Helper()
	for _, q := range c.queries {
		q = strings.NewReplacer("{res}", ids["resources"][0], "{aud}", ids["audits"][0], "{rule}", e.a.Findings[0].RuleID,
			"{usr}", ids["users"][0], "{native}", url.QueryEscape(ids["natives"][0])).Replace(q)
		path := p + "?" + q
		r := e.call(t, http.MethodGet, path, e.tokB, "")
		if leak := containsAny(string(r.body), others(secretsA, path)); leak != "" {
			t.Errorf("GET %s showed B A's %q", path, leak)
		}
		if r.status >= 500 {
			t.Errorf("GET %s: %d", path, r.status)
		}
		if !strings.Contains(q, "_id=") && !strings.Contains(q, "assignee=") && !strings.Contains(q, "q=") || r.status != http.StatusOK {
			continue
		}
		rows := strings.Count(strings.TrimRight(string(r.body), "\r\n"), "\n")
		ndjson := strings.Contains(q, "format=ndjson") || strings.Contains(q, "format=ocsf")
		if ndjson && len(r.body) > 0 || !ndjson && rows > 0 {
			t.Errorf("GET %s: a filter on A's id exported rows to B: %.300s", path, r.body)
		}
	}
}

// attackByID sends the operation with A's ids as B, with a valid body: 404,
// never a leak.
func (e *idEnv) attackByID(t *testing.T, method, p string, c isoCase, ids map[string][]string, secretsA []string) {
	t.Helper()
	targets := ids[c.ids]
	if len(targets) == 0 {
		t.Fatalf("no ids of A for %s", c.ids)
	}
	for _, id := range targets[:min(2, len(targets))] {
		path := strings.Replace(p, "{id}", id, 1)
		if method == http.MethodGet && strings.HasSuffix(p, "/download") {
			path += "?format=json"
		}
		body := strings.ReplaceAll(c.body, "{since}", time.Now().Add(-time.Hour).UTC().Format(time.RFC3339))
		r := e.call(t, method, path, e.tokB, body)
		if leak := containsAny(string(r.body), others(secretsA, path)); leak != "" {
			t.Errorf("%s %s showed B A's %q", method, path, leak)
		}
		// A body B could send for its own record, so that the answer is
		// the lookup's (a 422 would say nothing about isolation).
		if r.status != http.StatusNotFound {
			t.Errorf("%s %s as B: %d %s, want 404", method, path, r.status, errCode(r.body))
		}
	}
}

// tenantAIDs returns tenant A's ids by collection, creating a webhook
// endpoint with a test event so that those collections have one, and a
// cursor of A's findings list.
func (e *idEnv) tenantAIDs(t *testing.T) map[string][]string {
	t.Helper()
	ids := map[string][]string{"audits": {e.a.Audit.ID}, "oauth_clients": {e.client1.Client.ID}}
	for _, f := range e.a.Findings {
		ids["findings"] = append(ids["findings"], f.ID)
	}
	for _, r := range e.a.Resources {
		ids["resources"] = append(ids["resources"], r.ID)
	}
	for _, p := range e.a.Policies {
		ids["policies"] = append(ids["policies"], p.ID)
	}
	for _, r := range e.a.Reports {
		ids["reports"] = append(ids["reports"], r.ID)
	}
	var ep struct{ ID string }
	r := e.call(t, http.MethodPost, "/v1/webhook_endpoints", e.tokA, `{"url":"http://127.0.0.1:1/a","event_types":["*"]}`)
	if err := json.Unmarshal(r.body, &ep); err != nil || r.status != http.StatusCreated {
		t.Fatalf("A's webhook endpoint: %d %s", r.status, r.body)
	}
	ids["webhook_endpoints"] = []string{ep.ID}
	var d struct {
		EventID string `json:"event_id"`
	}
	r = e.call(t, http.MethodPost, "/v1/webhook_endpoints/"+ep.ID+"/test", e.tokA, "")
	if err := json.Unmarshal(r.body, &d); err != nil || r.status >= 300 {
		t.Fatalf("A's test event: %d %s", r.status, r.body)
	}
	ids["events"] = []string{d.EventID}
	ids["tokens"] = collectIDs(t, e.get(t, "/v1/tokens", e.tokA))
	// A mute rule of A, muting a finding of A.
	mute, _ := json.Marshal(map[string]string{"expression": fmt.Sprintf("finding.id == %q", e.a.Findings[0].ID),
		"reason": "a accepted it", "expires_at": time.Now().Add(24 * time.Hour).UTC().Format(time.RFC3339)})
	var mr struct{ ID string }
	r = e.call(t, http.MethodPost, "/v1/mute_rules", e.tokA, string(mute))
	if err := json.Unmarshal(r.body, &mr); err != nil || r.status != http.StatusCreated {
		t.Fatalf("A's mute rule: %d %s", r.status, r.body)
	}
	ids["mute_rules"] = []string{mr.ID}
	// A finding of A assigned to A's user, and a native id only A has: the
	// assignee and q filters of B must select none of A's findings.
	if r := e.call(t, http.MethodPatch, "/v1/findings/"+e.a.Findings[1].ID, e.tokA, `{"assignee":"`+e.userA.ID+`"}`); r.status != http.StatusOK {
		t.Fatalf("assigning A's finding: %d %s", r.status, r.body)
	}
	ids["users"] = []string{e.userA.ID}
	ids["natives"] = []string{e.a.Resources[0].NativeID}
	var page struct {
		NextCursor string `json:"next_cursor"`
	}
	_ = json.Unmarshal(e.get(t, "/v1/findings?limit=2", e.tokA).body, &page)
	ids["cursor"] = []string{page.NextCursor}
	for k, v := range ids {
		if len(v) == 0 || v[0] == "" {
			t.Fatalf("tenant A has no %s to attack", k)
		}
	}
	return ids
}

// others returns the secrets not in the request path: an error message
// may echo the id B sent, which tells B nothing new.
func others(secrets []string, path string) []string {
	return slices.DeleteFunc(slices.Clone(secrets), func(s string) bool { return strings.Contains(path, url.QueryEscape(s)) || strings.Contains(path, s) })
}

func collectIDs(t *testing.T, r response) []string {
	t.Helper()
	var page struct {
		Data []struct{ ID string } `json:"data"`
	}
	if err := json.Unmarshal(r.body, &page); err != nil {
		t.Fatalf("list: %v: %s", err, r.body)
	}
	var out []string
	for _, d := range page.Data {
		out = append(out, d.ID)
	}
	return out
}

// viewOfA is what A's admin sees of every collection, without the fields
// that change on their own (last use of a token).
func (e *idEnv) viewOfA(t *testing.T) map[string]string {
	t.Helper()
	view := map[string]string{}
	for _, p := range []string{"/v1/findings?limit=200", "/v1/resources?limit=200", "/v1/audits", "/v1/policies", "/v1/reports",
		"/v1/webhook_endpoints", "/v1/events", "/v1/tokens", "/v1/oauth_clients", "/v1/mute_rules",
		"/v1/findings?status=muted", "/v1/findings/summary?group_by=status"} {
		r := e.get(t, p, e.tokA)
		var v any
		if err := json.Unmarshal(r.body, &v); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if m, ok := v.(map[string]any); ok {
			if data, ok := m["data"].([]any); ok {
				for _, d := range data {
					if o, ok := d.(map[string]any); ok {
						delete(o, "last_used_at")
						delete(o, "open_age_seconds") // grows with the clock
					}
				}
			}
		}
		b, _ := json.Marshal(v)
		view[p] = string(b)
	}
	return view
}

func diffViews(a, b map[string]string) string {
	var out []string
	for k := range a {
		if a[k] != b[k] {
			out = append(out, k+":\n  before "+trunc(a[k])+"\n  after  "+trunc(b[k]))
		}
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}

func trunc(s string) string {
	if len(s) > 400 {
		return s[:400] + "…"
	}
	return s
}
