package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

func matchesName(dr engine.PolicyDryRun, name string) bool {
	for _, m := range dr.Matches {
		if m.Name == name {
			return true
		}
	}
	return false
}

func jsonHeader(ct string) http.Header { return http.Header{"Content-Type": {ct}} }

func decodeBody[T any](t *testing.T, r response) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("decoding %s: %v", r.body, err)
	}
	return v
}

// TestAuditWrites drives the write side of the 4D audit through /v1:
// inventory in (NDJSON with bad lines), an audit started and run, a
// finding accepted as a risk, policies created, dry-run, updated, deleted.
func TestAuditWrites(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 5, findingsB: 5})
	ctx := context.Background()
	ndjson := strings.Join([]string{
		`{"provider":"aws","account":"123456789012","region":"eu-west-1","type":"aws_s3_bucket","native_id":"arn:aws:s3:::zürich-backup","name":"zürich-backup","tags":{"env":"prod"},"attributes":{"bucket":"zürich-backup","sse_algorithm":"","versioning":"","public_access_block":null}}`,
		`{"provider":"aws","type":"aws_s3_bucket"}`,
		`not json`,
		`{"provider":"aws","account":"123456789012","region":"eu-west-1","type":"aws_ebs_volume","native_id":"vol-1","name":"data","attributes":{"encrypted":false}}`,
	}, "\n")
	r := do(t, e.client, http.MethodPost, e.url+"/v1/resources", e.tokA, []byte(ndjson), jsonHeader("application/x-ndjson"))
	if r.status != http.StatusOK {
		t.Fatalf("POST /v1/resources: %d %s", r.status, r.body)
	}
	ing := decodeBody[engine.IngestResult](t, r)
	if ing.Accepted != 2 || ing.New != 2 || ing.Rejected != 2 || ing.Errors[0].Index != 1 || ing.Errors[1].Index != 2 {
		t.Fatalf("ingest result: %+v", ing)
	}
	// Their resource.added are in the outbox and, once the request
	// returned, in the event log (read through its buffer, which holds a
	// small write's events for a while), with the same ids and data; none
	// is another tenant's.
	outbox, err := e.pg.ListEvents(ctx, engine.EventQuery{TenantID: e.a.ID, Type: engine.EventResourceAdded, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	canonical := func(id, data string) string { // the same JSON, whatever its layout
		var v any
		if err := json.Unmarshal([]byte(data), &v); err != nil {
			t.Fatalf("event %s: %v", id, err)
		}
		b, _ := json.Marshal(v)
		return id + " " + string(b)
	}
	var want, logged []string
	for _, ev := range outbox {
		want = append(want, canonical(ev.ID, string(ev.Data)))
	}
	slices.Sort(want)
	for _, row := range chtest.Strings(t, e.ch, "SELECT concat(id, ' ', data) FROM events_buffer WHERE tenant_id = ? AND type = 'resource.added' ORDER BY id", e.a.ID) {
		id, data, _ := strings.Cut(row, " ")
		logged = append(logged, canonical(id, data))
	}
	if len(want) != 2 || !slices.Equal(want, logged) {
		t.Fatalf("event log %q; want the outbox's 2 resource.added %q", logged, want)
	}
	if n := chtest.Strings(t, e.ch, "SELECT toString(count()) FROM events_buffer WHERE tenant_id = ?", e.b.ID); n[0] != "0" {
		t.Fatalf("tenant B has %s events logged", n[0])
	}
	// The same batch as a JSON array is idempotent: nothing new.
	arr := `[` + strings.Split(ndjson, "\n")[0] + `]`
	r = do(t, e.client, http.MethodPost, e.url+"/v1/resources", e.tokA, []byte(arr), jsonHeader("application/json"))
	if ing := decodeBody[engine.IngestResult](t, r); r.status != 200 || ing.Accepted != 1 || ing.New != 0 {
		t.Fatalf("second ingest: %d %s", r.status, r.body)
	}

	r = do(t, e.client, http.MethodPost, e.url+"/v1/audits", e.tokA, nil, nil)
	if r.status != http.StatusAccepted {
		t.Fatalf("POST /v1/audits: %d %s", r.status, r.body)
	}
	queued := decodeBody[engine.Audit](t, r)
	if r := do(t, e.client, http.MethodPost, e.url+"/v1/audits", e.tokA, nil, nil); r.status != http.StatusConflict {
		t.Errorf("a second audit: %d, want 409", r.status)
	}
	claimed, err := e.pg.ClaimAudit(ctx, "test", time.Minute)
	if err != nil || claimed.ID != queued.ID {
		t.Fatalf("claim: %v %v", claimed.ID, err)
	}
	if done := e.runner.RunAudit(ctx, claimed); done.Status != engine.AuditCompleted {
		t.Fatalf("audit: %s %s", done.Status, done.Error)
	}
	got := getJSON[engine.Audit](t, e, "/v1/audits/"+queued.ID, e.tokA)
	if got.Status != engine.AuditCompleted || got.Summary == nil || got.Summary.FindingsOpen == 0 {
		t.Fatalf("GET audit: %+v", got)
	}

	// Accept the first open finding as a risk; it leaves the open list.
	open := getJSON[listBody[engine.Finding]](t, e, "/v1/findings?status=open&limit=200", e.tokA)
	if len(open.Data) == 0 {
		t.Fatal("no open findings after the audit")
	}
	target := open.Data[0]
	body := `{"status":"resolved","resolution":"accepted_risk","note":"legacy, retiring"}`
	r = do(t, e.client, http.MethodPatch, e.url+"/v1/findings/"+target.ID, e.tokA, []byte(body), jsonHeader("application/json"))
	if f := decodeBody[engine.Finding](t, r); r.status != 200 || f.Resolution != engine.ResolutionAcceptedRisk {
		t.Fatalf("PATCH finding: %d %s", r.status, r.body)
	}
	after := getJSON[listBody[engine.Finding]](t, e, "/v1/findings?status=open&limit=200", e.tokA)
	if len(after.Data) != len(open.Data)-1 {
		t.Errorf("open findings %d → %d after accepting one", len(open.Data), len(after.Data))
	}

	// Policies: dry run, create, test, update (new version), delete.
	pol := `{"name":"prod buckets","expression":"resource.type == \"aws_s3_bucket\" && resource.tags[?\"env\"].orValue(\"\") == \"prod\"","dimension":"compliance","severity":"high"}`
	r = do(t, e.client, http.MethodPost, e.url+"/v1/policies/dry_run", e.tokA, []byte(pol), jsonHeader("application/json"))
	dry := decodeBody[engine.PolicyDryRun](t, r)
	if r.status != 200 || dry.Matched < 1 || !matchesName(dry, "zürich-backup") {
		t.Fatalf("dry run: %d %s", r.status, r.body)
	}
	// POST /v1/policies answers one shape: dry_run is not a field of it.
	r = do(t, e.client, http.MethodPost, e.url+"/v1/policies", e.tokA, []byte(pol[:len(pol)-1]+`,"dry_run":true}`), jsonHeader("application/json"))
	if r.status != http.StatusUnprocessableEntity || errCode(r.body) != engine.CodeValidationFailed || !strings.Contains(string(r.body), "/v1/policies/dry_run") {
		t.Fatalf("POST /v1/policies with dry_run: %d %s", r.status, r.body)
	}
	r = do(t, e.client, http.MethodPost, e.url+"/v1/policies", e.tokA, []byte(pol), jsonHeader("application/json"))
	if r.status != http.StatusCreated {
		t.Fatalf("create policy: %d %s", r.status, r.body)
	}
	p := decodeBody[engine.Policy](t, r)
	r = do(t, e.client, http.MethodPost, e.url+"/v1/policies/"+p.ID+"/test?limit=5", e.tokA, nil, nil)
	if dr := decodeBody[engine.PolicyDryRun](t, r); r.status != 200 || dr.Matched != dry.Matched || !matchesName(dr, "zürich-backup") {
		t.Fatalf("test policy: %d %s", r.status, r.body)
	}
	r = do(t, e.client, http.MethodPatch, e.url+"/v1/policies/"+p.ID, e.tokA, []byte(`{"enabled":false}`), jsonHeader("application/json"))
	if up := decodeBody[engine.Policy](t, r); r.status != 200 || up.Version != 2 || up.Enabled {
		t.Fatalf("update policy: %d %s", r.status, r.body)
	}
	if r := do(t, e.client, http.MethodDelete, e.url+"/v1/policies/"+p.ID, e.tokA, nil, nil); r.status != http.StatusNoContent {
		t.Fatalf("delete policy: %d %s", r.status, r.body)
	}
	if r := e.get(t, "/v1/policies/"+p.ID, e.tokA); r.status != http.StatusNotFound {
		t.Errorf("deleted policy: %d", r.status)
	}

	// Reanalyze the completed audit, then cancel the new one.
	r = do(t, e.client, http.MethodPost, e.url+"/v1/audits/"+queued.ID+"/reanalyze", e.tokA, nil, nil)
	re := decodeBody[engine.Audit](t, r)
	if r.status != http.StatusAccepted || re.ParentID != queued.ID {
		t.Fatalf("reanalyze: %d %s", r.status, r.body)
	}
	if r := do(t, e.client, http.MethodDelete, e.url+"/v1/audits/"+re.ID, e.tokA, nil, nil); r.status != 200 {
		t.Fatalf("cancel: %d %s", r.status, r.body)
	}
	if r := do(t, e.client, http.MethodPost, e.url+"/v1/audits/"+re.ID+"/cancel", e.tokA, nil, nil); r.status != http.StatusConflict {
		t.Errorf("canceling twice: %d, want 409", r.status)
	}
}

// TestAuditWritesBadInput checks each write endpoint's documented errors,
// tenant isolation included.
func TestAuditWritesBadInput(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 5, findingsB: 5})
	fA := e.a.Findings[0].ID
	ct := jsonHeader("application/json")
	tests := []struct {
		name, method, path, token string
		body                      string
		header                    http.Header
		status                    int
		code                      string
	}{
		{"ingest without scope", "POST", "/v1/resources", e.tokAFindingsOnly, `[]`, ct, 403, engine.CodeInsufficientScope},
		{"ingest wrong content type", "POST", "/v1/resources", e.tokA, `x`, jsonHeader("text/csv"), 400, engine.CodeInvalidRequest},
		{"ingest garbage", "POST", "/v1/resources", e.tokA, `<xml/>`, ct, 400, engine.CodeInvalidRequest},
		{"ingest anonymous", "POST", "/v1/resources", "", `[]`, ct, 401, engine.CodeUnauthorized},
		{"patch unknown field", "PATCH", "/v1/findings/" + fA, e.tokA, `{"status":"resolved","colour":"red"}`, ct, 422, engine.CodeValidationFailed},
		{"patch as fixed", "PATCH", "/v1/findings/" + fA, e.tokA, `{"status":"resolved","resolution":"fixed"}`, ct, 422, engine.CodeValidationFailed},
		{"patch bad status", "PATCH", "/v1/findings/" + fA, e.tokA, `{"status":"closed"}`, ct, 422, engine.CodeValidationFailed},
		{"patch past expiry", "PATCH", "/v1/findings/" + fA, e.tokA, `{"status":"resolved","resolution":"accepted_risk","expires_at":"2001-01-01T00:00:00Z"}`, ct, 422, engine.CodeValidationFailed},
		{"patch malformed", "PATCH", "/v1/findings/" + fA, e.tokA, `{"status":`, ct, 400, engine.CodeInvalidRequest},
		{"patch other tenant", "PATCH", "/v1/findings/" + fA, e.tokB, `{"status":"resolved","resolution":"accepted_risk"}`, ct, 404, engine.CodeNotFound},
		{"patch read-only", "PATCH", "/v1/findings/" + fA, e.tokAFindingsOnly, `{"status":"resolved","resolution":"accepted_risk"}`, ct, 403, engine.CodeInsufficientScope},
		{"reanalyze other tenant", "POST", "/v1/audits/" + e.a.Audit.ID + "/reanalyze", e.tokB, ``, nil, 404, engine.CodeNotFound},
		{"reanalyze bad id", "POST", "/v1/audits/fnd_x/reanalyze", e.tokA, ``, nil, 404, engine.CodeNotFound},
		{"cancel completed", "POST", "/v1/audits/" + e.a.Audit.ID + "/cancel", e.tokA, ``, nil, 409, engine.CodeConflict},
		{"cancel other tenant", "DELETE", "/v1/audits/" + e.a.Audit.ID, e.tokB, ``, nil, 404, engine.CodeNotFound},
		{"policy syntax error", "POST", "/v1/policies", e.tokA, `{"name":"x","expression":"resource.type ==","dimension":"cost","severity":"low"}`, ct, 422, engine.CodeValidationFailed},
		{"policy type error", "POST", "/v1/policies", e.tokA, `{"name":"x","expression":"resource.tags + 1","dimension":"cost","severity":"low"}`, ct, 422, engine.CodeValidationFailed},
		{"policy bad severity", "POST", "/v1/policies", e.tokA, `{"name":"x","expression":"true","dimension":"cost","severity":"urgent"}`, ct, 422, engine.CodeValidationFailed},
		{"policy dry run bad limit", "POST", "/v1/policies/dry_run?limit=5000", e.tokA, `{"name":"x","expression":"true","dimension":"cost","severity":"low"}`, ct, 422, engine.CodeInvalidLimit},
		{"policy other tenant", "PATCH", "/v1/policies/" + e.a.Policies[0].ID, e.tokB, `{"enabled":false}`, ct, 404, engine.CodeNotFound},
		{"delete policy other tenant", "DELETE", "/v1/policies/" + e.a.Policies[0].ID, e.tokB, ``, nil, 404, engine.CodeNotFound},
		{"test policy other tenant", "POST", "/v1/policies/" + e.a.Policies[0].ID + "/test", e.tokB, ``, nil, 404, engine.CodeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body []byte
			if tt.body != "" {
				body = []byte(tt.body)
			}
			r := do(t, e.client, tt.method, e.url+tt.path, tt.token, body, tt.header)
			var env struct {
				Error struct{ Code, Message string } `json:"error"`
			}
			_ = json.Unmarshal(r.body, &env)
			if r.status != tt.status || env.Error.Code != tt.code {
				t.Errorf("%s %s: %d %s; want %d %s", tt.method, tt.path, r.status, r.body, tt.status, tt.code)
			}
		})
	}
	// A CEL error names its position.
	r := do(t, e.client, "POST", e.url+"/v1/policies", e.tokA, []byte(`{"name":"x","expression":"resorce.type == 1","dimension":"cost","severity":"low"}`), ct)
	if !strings.Contains(string(r.body), "1:1") {
		t.Errorf("CEL error without position: %s", r.body)
	}
	// Issue 28: an expression that doubles a string 24 times (479 bytes)
	// is refused when written, and when dry-run, naming the reason.
	expr := "resource.name"
	for range 24 {
		expr = "[" + expr + "].map(a, a + a)[0]"
	}
	expr = "size(" + expr + ") > 0"
	for _, q := range []string{"", "dry run"} {
		body, _ := json.Marshal(map[string]any{"name": "x", "expression": expr, "dimension": "cost", "severity": "low"})
		path := "/v1/policies"
		if q != "" {
			path = "/v1/policies/dry_run"
		}
		r = do(t, e.client, "POST", e.url+path, e.tokA, body, ct)
		if r.status != 422 || !strings.Contains(string(r.body), "too large to evaluate: it can build a string of up to") {
			t.Errorf("POST /v1/policies (dry run %v) with 24 doublings: %d %s; want 422 naming the size", q != "", r.status, r.body)
		}
	}
	_ = fmt.Sprint()
}

// A large POST /v1/resources logs its resource.added past the first
// 10,000 as a stream straight into events: all of them are in the event
// log when the request returns, once each, and the same as the outbox's.
func TestIngestEventLogStream(t *testing.T) {
	e := newEnv(t, envOptions{})
	ctx := context.Background()
	const n = 12_500
	var body strings.Builder
	for i := range n {
		fmt.Fprintf(&body, `{"provider":"aws","account":"123456789012","region":"eu-west-1","type":"aws_s3_bucket","native_id":"arn:aws:s3:::b-%d","name":"b-%d","attributes":{}}`+"\n", i, i)
	}
	r := do(t, e.client, http.MethodPost, e.url+"/v1/resources", e.tokA, []byte(body.String()), jsonHeader("application/x-ndjson"))
	if ing := decodeBody[engine.IngestResult](t, r); r.status != 200 || ing.New != n {
		t.Fatalf("POST /v1/resources: %d %s", r.status, r.body)
	}
	count := func(table string) string {
		return chtest.Strings(t, e.ch, "SELECT toString(count()) FROM "+table+" WHERE tenant_id = ? AND type = 'resource.added'", e.a.ID)[0]
	}
	// events_buffer reads the buffer and events; the stream wrote the
	// events past the first batch straight into events.
	if all, direct := count("events_buffer"), count("events"); all != fmt.Sprint(n) || direct == "0" {
		t.Fatalf("%s events logged, %s of them in events; want %d, some", all, direct, n)
	}
	uniq := chtest.Strings(t, e.ch, "SELECT toString(uniqExact(id)) FROM events_buffer WHERE tenant_id = ?", e.a.ID)[0]
	last, err := e.pg.ListEvents(ctx, engine.EventQuery{TenantID: e.a.ID, Type: engine.EventResourceAdded, Limit: 1})
	if err != nil || len(last) != 1 {
		t.Fatalf("outbox: %v, %d", err, len(last))
	}
	logged := chtest.Strings(t, e.ch, "SELECT data FROM events_buffer WHERE id = ?", last[0].ID)
	var a, b any
	if len(logged) != 1 || json.Unmarshal([]byte(logged[0]), &a) != nil || json.Unmarshal(last[0].Data, &b) != nil || !reflect.DeepEqual(a, b) {
		t.Fatalf("the last event logged %q; the outbox has %s", logged, last[0].Data)
	}
	if uniq != fmt.Sprint(n) {
		t.Fatalf("%s distinct ids logged; want %d", uniq, n)
	}
}
