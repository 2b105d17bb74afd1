package rest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// TestResourcesCapturedAt: a configuration's capture time goes in through
// fourd's NDJSON (captured_at, RFC 3339 with a zone) and comes out as
// captured_at on GET /v1/resources/{id}, the list and both exports (the
// responses checked against openapi.json by do): in UTC, null (empty in
// CSV) when the line did not say. A bad value rejects its line with its
// number and the field, and the lines around it are stored. Another
// tenant sees none of it.
func TestResourcesCapturedAt(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 4, findingsB: 4})
	line := func(name, captured string) string {
		l := `{"provider":"aws","account":"123456789012","region":"eu-west-1","type":"aws_s3_bucket","native_id":"arn:aws:s3:::` +
			name + `","name":"` + name + `","attributes":{"bucket":"` + name + `"}`
		if captured != "" {
			l += `,"captured_at":` + captured
		}
		return l + "}"
	}
	body := strings.Join([]string{
		line("captured", `"2026-11-20T10:14:05+01:00"`),
		line("unknown", ``),
		line("garbled", `"20/11/2026 09:14"`),
		line("nulled", `null`),
	}, "\n")
	r := do(t, e.client, http.MethodPost, e.url+"/v1/resources", e.tokA, []byte(body), jsonHeader("application/x-ndjson"))
	ing := decodeBody[engine.IngestResult](t, r)
	if r.status != http.StatusOK || ing.Accepted != 3 || ing.Rejected != 1 || len(ing.Errors) != 1 {
		t.Fatalf("ingest: %d %s", r.status, r.body)
	}
	if ie := ing.Errors[0]; ie.Index != 2 || ie.Code != engine.CodeValidationFailed || ie.Field != "captured_at" ||
		!strings.Contains(ie.Message, "line 3") || !strings.Contains(ie.Message, "RFC 3339") {
		t.Errorf("the garbled line's error: %+v", ie)
	}

	const want = "2026-11-20T09:14:05Z"
	ids := map[string]string{}
	for _, name := range []string{"captured", "unknown", "nulled"} {
		ids[name] = engine.ResourceID(e.a.ID, "aws", "arn:aws:s3:::"+name)
	}
	captured := func(where string, raw json.RawMessage) string {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		v, ok := m["captured_at"]
		if !ok {
			t.Errorf("%s has no captured_at: %s", where, raw)
		}
		return string(v)
	}
	for name, id := range ids {
		wantJSON := "null"
		if name == "captured" {
			wantJSON = `"` + want + `"`
		}
		if got := captured("GET "+name, e.get(t, "/v1/resources/"+id, e.tokA).body); got != wantJSON {
			t.Errorf("GET %s: captured_at %s, want %s", name, got, wantJSON)
		}
		if r := e.get(t, "/v1/resources/"+id, e.tokB); r.status != http.StatusNotFound {
			t.Errorf("tenant B reads %s: %d %s", name, r.status, r.body)
		}
	}
	list := getJSON[listBody[json.RawMessage]](t, e, "/v1/resources?type=aws_s3_bucket&region=eu-west-1&limit=200", e.tokA)
	seen := 0
	for _, raw := range list.Data {
		var res engine.Resource
		_ = json.Unmarshal(raw, &res)
		if name := strings.TrimPrefix(res.NativeID, "arn:aws:s3:::"); ids[name] == res.ID {
			seen++
			if got := captured("list "+name, raw); (name == "captured") != (got == `"`+want+`"`) || name != "captured" && got != "null" {
				t.Errorf("list %s: captured_at %s", name, got)
			}
		}
	}
	if seen != 3 {
		t.Errorf("the list shows %d of the 3 ingested resources", seen)
	}

	nd := e.get(t, "/v1/resources/export?format=ndjson&region=eu-west-1&type=aws_s3_bucket", e.tokA)
	header, rows := exportedCSV(t, e.get(t, "/v1/resources/export?format=csv&region=eu-west-1&type=aws_s3_bucket", e.tokA))
	col := slices.Index(header, "captured_at")
	if col < 0 {
		t.Fatalf("the CSV has no captured_at column: %v", header)
	}
	inCSV := map[string]string{}
	for _, row := range rows {
		inCSV[row[0]] = row[col]
	}
	inNDJSON := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(nd.body)), "\n") {
		var res engine.Resource
		_ = json.Unmarshal([]byte(l), &res)
		inNDJSON[res.ID] = captured("ndjson export", json.RawMessage(l))
	}
	for name, id := range ids {
		wantCSV, wantJSON := "", "null"
		if name == "captured" {
			wantCSV, wantJSON = want, `"`+want+`"`
		}
		if got, ok := inCSV[id]; !ok || got != wantCSV {
			t.Errorf("csv export %s: captured_at %q (listed %v), want %q", name, got, ok, wantCSV)
		}
		if got := inNDJSON[id]; got != wantJSON {
			t.Errorf("ndjson export %s: captured_at %s, want %s", name, got, wantJSON)
		}
	}

	// The NDJSON export reads back: the capture time is kept (an
	// unchanged re-import).
	r = do(t, e.client, http.MethodPost, e.url+"/v1/resources", e.tokA, nd.body, jsonHeader("application/x-ndjson"))
	if ing := decodeBody[engine.IngestResult](t, r); r.status != http.StatusOK || ing.Rejected != 0 || ing.New != 0 {
		t.Fatalf("re-importing the export: %d %s", r.status, r.body)
	}
	if got := captured("after re-import", e.get(t, "/v1/resources/"+ids["captured"], e.tokA).body); got != `"`+want+`"` {
		t.Errorf("after re-importing the export: captured_at %s", got)
	}
}
