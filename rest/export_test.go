package rest

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// exportedCSV parses a findings CSV export: its header and rows.
func exportedCSV(t *testing.T, r response) ([]string, [][]string) {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("export: %d %s", r.status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "text/csv; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	recs, err := csv.NewReader(bytes.NewReader(r.body)).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("export is not CSV (%v): %.300s", err, r.body)
	}
	return recs[0], recs[1:]
}

// attachmentName is the file name of a Content-Disposition: attachment.
func attachmentName(t *testing.T, r response) string {
	t.Helper()
	kind, ps, err := mime.ParseMediaType(r.header.Get("Content-Disposition"))
	if err != nil || kind != "attachment" {
		t.Fatalf("Content-Disposition %q: %v", r.header.Get("Content-Disposition"), err)
	}
	return ps["filename"]
}

// TestExportFindingsCSV pages the store in small pages (7 rows) and checks
// that the CSV export holds exactly the findings the filters select, with
// the documented header, over every page.
func TestExportFindingsCSV(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 60, findingsB: 20, engine: func(c *engine.Config) { c.ExportPageSize = 7 }})
	r := e.get(t, "/v1/findings/export?format=csv", e.tokA)
	header, rows := exportedCSV(t, r)
	if name := attachmentName(t, r); !strings.HasPrefix(name, "fourd-findings-") || !strings.HasSuffix(name, ".csv") {
		t.Errorf("filename %q", name)
	}
	if !slices.Equal(header, engine.FindingCSVColumns) {
		t.Fatalf("header %v, want %v", header, engine.FindingCSVColumns)
	}
	if !bytes.HasSuffix(r.body, []byte("\r\n")) || bytes.Count(r.body, []byte("\r\n")) != len(rows)+1 {
		t.Errorf("rows do not end with CRLF (RFC 4180)")
	}
	want := map[string]engine.Finding{}
	for _, f := range e.a.findings {
		want[f.ID] = f
	}
	seen := map[string]bool{}
	for _, row := range rows {
		f, ok := want[row[0]]
		if !ok || seen[row[0]] {
			t.Fatalf("row %v: not one of A's findings, or twice", row)
		}
		seen[row[0]] = true
		if row[5] != string(f.Severity) || row[8] != f.Title || row[11] != strings.Join(f.Compliance, ";") || row[14] != f.Account {
			t.Errorf("row %v does not match finding %+v", row, f)
		}
	}
	if len(rows) != len(e.a.findings) {
		t.Errorf("%d rows, want %d", len(rows), len(e.a.findings))
	}

	// The list's filters select the same rows in the export.
	for _, q := range []string{"severity=high", "status=resolved", "dimension=cost&region=eu-west-1", "rule_id=" + e.a.findings[3].RuleID} {
		var listed []string
		for _, f := range getJSON[listBody[engine.Finding]](t, e, "/v1/findings?limit=200&"+q, e.tokA).Data {
			listed = append(listed, f.ID)
		}
		_, rows := exportedCSV(t, e.get(t, "/v1/findings/export?"+q, e.tokA)) // csv is the default
		var got []string
		for _, row := range rows {
			got = append(got, row[0])
		}
		if len(listed) == 0 || !slices.Equal(got, listed) {
			t.Errorf("%s: export %v, list %v (same rows in the same order)", q, got, listed)
		}
	}
}

// TestExportFindingsCSVQuoting writes a snapshot whose texts carry commas,
// quotes, line breaks and would-be formulas, and checks the CSV quotes them
// (RFC 4180) and defuses the formulas with a leading apostrophe.
func TestExportFindingsCSVQuoting(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 24})
	ctx := context.Background()
	a := completeAudit(t, e.pg, e.a.id, time.Now().UTC())
	titles := map[string]string{
		"=HYPERLINK(\"http://x\")": "'=HYPERLINK(\"http://x\")", "+1+2": "'+1+2", "-2": "'-2", "@SUM(A1)": "'@SUM(A1)",
		"a, \"quoted\"\nline": "a, \"quoted\"\nline", "plain": "plain",
	}
	var fs []engine.Finding
	i := 0
	for title := range titles {
		f := makeFindings(e.a.id, a.ID, e.a.resources[i:i+1], 1, 0, time.Now().UTC())[0]
		f.Title = title
		fs = append(fs, f)
		i++
	}
	if _, err := e.ch.WriteSnapshot(ctx, e.a.id, a.ID, seqOf(fs)); err != nil {
		t.Fatal(err)
	}
	_, rows := exportedCSV(t, e.get(t, "/v1/findings/export?format=csv&audit_id="+a.ID, e.tokA))
	var got []string
	for _, row := range rows {
		got = append(got, row[8])
	}
	var want []string
	for _, w := range titles {
		want = append(want, w)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("titles %q, want %q", got, want)
	}
}

// TestExportFindingsNDJSON checks each line is the finding as the list
// shows it, people's decisions included, and that status filters see them.
func TestExportFindingsNDJSON(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 30, engine: func(c *engine.Config) { c.ExportPageSize = 4 }})
	target := e.a.findings[0]
	body := `{"status":"resolved","resolution":"accepted_risk","note":"accepted for the export test"}`
	if r := do(t, e.client, http.MethodPatch, e.url+"/v1/findings/"+target.ID, e.tokA, []byte(body), jsonHeader("application/json")); r.status != 200 {
		t.Fatalf("PATCH: %d %s", r.status, r.body)
	}
	list := getJSON[map[string]json.RawMessage](t, e, "/v1/findings?limit=200", e.tokA)
	var items []json.RawMessage
	if err := json.Unmarshal(list["data"], &items); err != nil {
		t.Fatal(err)
	}
	r := e.get(t, "/v1/findings/export?format=ndjson", e.tokA)
	if r.status != 200 || r.header.Get("Content-Type") != "application/x-ndjson" || !strings.HasSuffix(attachmentName(t, r), ".ndjson") {
		t.Fatalf("export: %d %v", r.status, r.header)
	}
	lines := strings.Split(strings.TrimSuffix(string(r.body), "\n"), "\n")
	if len(lines) != len(items) || len(items) != len(e.a.findings) {
		t.Fatalf("%d lines, list has %d, seeded %d", len(lines), len(items), len(e.a.findings))
	}
	for i, line := range lines {
		var got, want any
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		_ = json.Unmarshal(items[i], &want)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("line %d:\n%s\nlist:\n%s", i, line, items[i])
		}
	}
	r = e.get(t, "/v1/findings/export?format=ndjson&status=open", e.tokA)
	if strings.Contains(string(r.body), target.ID) {
		t.Errorf("status=open export has the finding accepted as a risk")
	}
	r = e.get(t, "/v1/findings/export?format=ndjson&status=resolved", e.tokA)
	if !strings.Contains(string(r.body), target.ID) || !strings.Contains(string(r.body), `"accepted_risk"`) {
		t.Errorf("status=resolved export misses the accepted finding: %.300s", r.body)
	}
}

// TestExportFindingsBadInput: an unknown format is 422 validation_failed,
// bad filters are answered as the list answers them, and the scope is
// findings:read.
func TestExportFindingsBadInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 5})
	for _, c := range []struct{ q, want, like string }{
		{q: "format=xml", want: "validation_failed"},
		{q: "format=ocsf2", want: "validation_failed"}, {q: "severity=urgent", want: "invalid_severity_filter"},
		{q: "status=maybe", want: "validation_failed"}, {q: "audit_id=nope", want: "validation_failed"},
		{q: "colour=red", like: "colour=red"}, {q: "format=csv&format=ndjson", like: "limit=1&limit=2"},
	} {
		want := c.want
		if c.like != "" {
			want = errCode(e.get(t, "/v1/findings?"+c.like, e.tokA).body) // as the list answers it
		}
		r := e.get(t, "/v1/findings/export?"+c.q, e.tokA)
		if r.status < 400 || r.status >= 500 || want == "" || errCode(r.body) != want {
			t.Errorf("%s: %d %s, want %s", c.q, r.status, r.body, want)
		}
	}
	if r := e.get(t, "/v1/findings/export", e.tokAResourcesOnly); r.status != http.StatusForbidden {
		t.Errorf("without findings:read: %d %s", r.status, r.body)
	}
	if r := e.get(t, "/v1/findings/export", e.tokAFindingsOnly); r.status != http.StatusOK {
		t.Errorf("with findings:read: %d %s", r.status, r.body)
	}
}

// blockingFindings is a FindingStore whose second and later pages wait for
// their context to end (20 s at most), recording that it did.
type blockingFindings struct {
	engine.FindingStore
	mu       sync.Mutex
	calls    int
	canceled chan struct{}
}

func (b *blockingFindings) ListFindings(ctx context.Context, q engine.FindingQuery) ([]engine.Finding, error) {
	b.mu.Lock()
	b.calls++
	n := b.calls
	b.mu.Unlock()
	if q.After == nil || n == 1 {
		return b.FindingStore.ListFindings(ctx, q)
	}
	select {
	case <-ctx.Done():
		close(b.canceled)
		return nil, ctx.Err()
	case <-time.After(20 * time.Second):
		return b.FindingStore.ListFindings(ctx, q)
	}
}

func (b *blockingFindings) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.calls
}

// TestExportFindingsClientGone: a client that reads the first page and
// hangs up cancels the store's query for the next one.
func TestExportFindingsClientGone(t *testing.T) {
	t.Parallel()
	var store *blockingFindings
	e := newEnv(t, envOptions{findingsA: 40, engine: func(c *engine.Config) {
		store = &blockingFindings{FindingStore: c.Findings, canceled: make(chan struct{})}
		c.Findings, c.ExportPageSize = store, 5
	}})
	req, _ := http.NewRequest(http.MethodGet, e.url+"/v1/findings/export?format=ndjson", nil)
	req.Header.Set("Authorization", "Bearer "+e.tokA)
	res, err := e.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	if _, err := io.ReadFull(res.Body, buf); err != nil { // the first page arrived before the second was read
		t.Fatalf("reading the first page: %v", err)
	}
	for deadline := time.Now().Add(15 * time.Second); store.count() < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the export did not ask the store for its second page")
		}
	}
	res.Body.Close() // hang up mid-stream, while the second page's query runs
	select {
	case <-store.canceled:
	case <-time.After(15 * time.Second):
		t.Fatal("the store's query for the next page was not canceled after the client went away")
	}
	time.Sleep(200 * time.Millisecond)
	store.mu.Lock()
	defer store.mu.Unlock()
	if store.calls != 2 {
		t.Errorf("%d store queries, want 2 (none after the cancellation)", store.calls)
	}
}
