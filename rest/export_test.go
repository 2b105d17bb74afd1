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
	"sync/atomic"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/exports"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/fourd-dev/fourd/internal/testserver"
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
	e := newEnv(t, envOptions{findingsA: 60, findingsB: 20, engine: func(c *findings.Config) { c.ExportPageSize = 7 }})
	r := e.get(t, "/v1/findings/export?format=csv", e.tokA)
	header, rows := exportedCSV(t, r)
	if name := attachmentName(t, r); !strings.HasPrefix(name, "fourd-findings-") || !strings.HasSuffix(name, ".csv") {
		t.Errorf("filename %q", name)
	}
	if !slices.Equal(header, exports.FindingCSVColumns) {
		t.Fatalf("header %v, want %v", header, exports.FindingCSVColumns)
	}
	if !bytes.HasSuffix(r.body, []byte("\r\n")) || bytes.Count(r.body, []byte("\r\n")) != len(rows)+1 {
		t.Errorf("rows do not end with CRLF (RFC 4180)")
	}
	want := map[string]engine.Finding{}
	for _, f := range e.a.Findings {
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
	if len(rows) != len(e.a.Findings) {
		t.Errorf("%d rows, want %d", len(rows), len(e.a.Findings))
	}

	// The list's filters select the same rows in the export.
	for _, q := range []string{"severity=high", "status=resolved", "dimension=cost&region=eu-west-1", "rule_id=" + e.a.Findings[3].RuleID} {
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
	a := testserver.CompleteAudit(t, e.pg, e.a.ID, time.Now().UTC())
	titles := map[string]string{
		"=HYPERLINK(\"http://x\")": "'=HYPERLINK(\"http://x\")", "+1+2": "'+1+2", "-2": "'-2", "@SUM(A1)": "'@SUM(A1)",
		"a, \"quoted\"\nline": "a, \"quoted\"\nline", "plain": "plain",
	}
	var fs []engine.Finding
	i := 0
	for title := range titles {
		f := testserver.MakeFindings(e.a.ID, a.ID, e.a.Resources[i:i+1], 1, 0, time.Now().UTC())[0]
		f.Title = title
		fs = append(fs, f)
		i++
	}
	if _, err := e.ch.WriteSnapshot(ctx, e.a.ID, a.ID, testserver.SeqOf(fs)); err != nil {
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
	e := newEnv(t, envOptions{findingsA: 30, engine: func(c *findings.Config) { c.ExportPageSize = 4 }})
	target := e.a.Findings[0]
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
	if len(lines) != len(items) || len(items) != len(e.a.Findings) {
		t.Fatalf("%d lines, list has %d, seeded %d", len(lines), len(items), len(e.a.Findings))
	}
	for i, line := range lines {
		var got, want any
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		_ = json.Unmarshal(items[i], &want)
		// open_age_seconds counts seconds to the moment of the read: the
		// list and the export may be read on either side of a second.
		g, w := got.(map[string]any), want.(map[string]any)
		if ga, wa := g["open_age_seconds"], w["open_age_seconds"]; ga != nil && wa != nil {
			if d := ga.(float64) - wa.(float64); d < 0 || d > 5 {
				t.Errorf("line %d: open_age_seconds %v in the export, %v in the earlier list", i, ga, wa)
			}
			delete(g, "open_age_seconds")
			delete(w, "open_age_seconds")
		}
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
		{q: "format=ocsf2", want: "validation_failed"}, {q: "format=OCSF", want: "validation_failed"}, {q: "severity=urgent", want: "invalid_severity_filter"},
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
	e := newEnv(t, envOptions{findingsA: 40, engine: func(c *findings.Config) {
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

// ocsfRequired lists, per OCSF 1.3.0 class, the attributes the schema
// (github.com/ocsf/ocsf-schema at tag 1.3.0, re-read in session 26) marks
// "requirement": "required", inherited ones included, as paths into an
// event:
//   - events/base_event.json: metadata, severity_id; its $include
//     includes/classification.json: activity_id, category_uid, class_uid,
//     type_uid; includes/occurrence.json: time.
//   - events/findings/finding.json (extends base_event): finding_info.
//   - events/findings/detection_finding.json (uid 4, extends finding):
//     none of its own (remediation optional, resources recommended).
//   - events/findings/compliance_finding.json (uid 3, extends finding):
//     compliance (remediation, resources recommended).
//   - objects: finding_info.json uid, title; metadata.json product,
//     version; product.json vendor_name; remediation.json desc (when the
//     object is present); compliance.json standards.
//   - constraints (ocsfAtLeastOne): product.json and resource_details.json
//     (via _resource.json) extend _entity.json, whose constraint is
//     at_least_one of name, uid.
//   - profiles: base_event.json's cloud (profiles/cloud.json: cloud
//     required), detection_finding.json's security_control (action_id
//     required), finding.json's host, and data_classification (in
//     metadata, product, _resource) bind only an event whose
//     metadata.profiles names them; the export names none.
var ocsfRequired = map[float64][]string{
	2004: {"metadata", "metadata.product", "metadata.product.vendor_name", "metadata.version", "severity_id",
		"activity_id", "category_uid", "class_uid", "type_uid", "time", "finding_info", "finding_info.uid", "finding_info.title"},
}

// ocsfDeclared are the attributes each class and object declares in
// ocsf-schema 1.3.0 (the class's own, finding.json's, base_event.json's
// and its includes'; profiles' left out, as the export names none): an
// event carries no other (a Detection Finding has no compliance).
var ocsfDeclared = map[string][]string{
	"2004": {"activity_id", "activity_name", "category_name", "category_uid", "class_name", "class_uid", "comment", "confidence",
		"confidence_id", "confidence_score", "count", "device", "duration", "end_time", "enrichments", "evidences", "finding_info",
		"impact", "impact_id", "impact_score", "message", "metadata", "observables", "raw_data", "remediation", "resources",
		"risk_details", "risk_level", "risk_level_id", "risk_score", "severity", "severity_id", "start_time", "status",
		"status_code", "status_detail", "status_id", "time", "timezone_offset", "type_name", "type_uid", "unmapped", "vulnerabilities"},
	"2003": {"activity_id", "activity_name", "category_name", "category_uid", "class_name", "class_uid", "comment", "compliance",
		"confidence", "confidence_id", "confidence_score", "count", "device", "duration", "end_time", "enrichments", "finding_info",
		"message", "metadata", "observables", "raw_data", "remediation", "resource", "resources", "severity", "severity_id",
		"start_time", "status", "status_code", "status_detail", "status_id", "time", "timezone_offset", "type_name", "type_uid", "unmapped"},
	// objects/finding_info.json
	"finding_info": {"analytic", "attacks", "created_time", "data_sources", "desc", "first_seen_time", "kill_chain", "last_seen_time",
		"modified_time", "product_uid", "related_events", "related_analytics", "src_url", "title", "types", "uid"},
	// objects/metadata.json, product.json (+ _entity.json name, uid)
	"metadata":         {"correlation_uid", "event_code", "extension", "extensions", "labels", "log_level", "log_name", "log_provider", "log_version", "logged_time", "modified_time", "loggers", "original_time", "processed_time", "product", "profiles", "sequence", "tenant_uid", "uid", "version"},
	"metadata.product": {"feature", "cpe_name", "lang", "name", "path", "uid", "url_string", "vendor_name", "version"},
	// objects/resource_details.json (+ _resource.json, _entity.json)
	"resources": {"agent_list", "cloud_partition", "criticality", "group", "namespace", "owner", "region", "version", "data", "labels", "name", "type", "uid"},
	// objects/remediation.json, compliance.json
	"remediation": {"desc", "references", "kb_articles", "kb_article_list"},
	"compliance":  {"compliance_references", "compliance_standards", "control", "requirements", "standards", "status", "status_code", "status_detail", "status_id"},
}

// ocsfUndeclared returns the keys of ev (and of its objects) that its
// class or object does not declare.
func ocsfUndeclared(ev map[string]any, class float64) []string {
	var out []string
	check := func(where string, obj any) {
		m, _ := obj.(map[string]any)
		for k := range m {
			if !slices.Contains(ocsfDeclared[where], k) {
				out = append(out, where+"."+k)
			}
		}
	}
	check(fmt.Sprint(class), ev)
	for _, where := range []string{"finding_info", "metadata", "remediation", "compliance"} {
		check(where, ev[where])
	}
	if md, ok := ev["metadata"].(map[string]any); ok {
		check("metadata.product", md["product"])
	}
	res, _ := ev["resources"].([]any)
	for _, r := range res {
		check("resources", r)
	}
	return out
}

// ocsfAtLeastOne are the _entity.json constraints: each object at the
// path (an array: each element) holds one of name, uid.
var ocsfAtLeastOne = []string{"metadata.product", "resources"}

func init() {
	ocsfRequired[2003] = append(slices.Clone(ocsfRequired[2004]), "compliance", "compliance.standards")
}

// ocsfPath returns the value at a dotted path of a decoded event.
func ocsfPath(ev map[string]any, path string) (any, bool) {
	var v any = ev
	for _, k := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok || v == nil {
			return nil, false
		}
	}
	if s, ok := v.(string); ok && s == "" {
		return nil, false
	}
	if a, ok := v.([]any); ok && len(a) == 0 {
		return nil, false
	}
	return v, true
}

// TestExportFindingsOCSF checks every line of the ocsf export against the
// required attributes of its OCSF 1.3.0 class and the documented mapping.
func TestExportFindingsOCSF(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 40, engine: func(c *findings.Config) { c.ExportPageSize = 6 }})
	var open []engine.Finding
	for _, f := range e.a.Findings {
		if f.Status == engine.StatusOpen {
			open = append(open, f)
		}
	}
	accepted, falsePos, inProgress := open[0], open[1], open[2]
	for id, body := range map[string]string{accepted.ID: `{"status":"resolved","resolution":"accepted_risk","note":"ocsf"}`,
		falsePos.ID: `{"status":"false_positive","note":"ocsf"}`, inProgress.ID: `{"status":"in_progress"}`} {
		if r := do(t, e.client, http.MethodPatch, e.url+"/v1/findings/"+id, e.tokA, []byte(body), jsonHeader("application/json")); r.status != 200 {
			t.Fatalf("PATCH: %d %s", r.status, r.body)
		}
	}
	r := e.get(t, "/v1/findings/export?format=ocsf", e.tokA)
	if r.status != 200 || r.header.Get("Content-Type") != "application/x-ndjson" || !strings.HasSuffix(attachmentName(t, r), ".ocsf.ndjson") {
		t.Fatalf("export: %d %v %.300s", r.status, r.header, r.body)
	}
	byID := map[string]engine.Finding{}
	for _, f := range e.a.Findings {
		byID[f.ID] = f
	}
	natives := map[string]string{}
	for _, res := range e.a.Resources {
		natives[res.ID] = res.NativeID
	}
	sevIDs := map[engine.Severity]float64{"info": 1, "low": 2, "medium": 3, "high": 4, "critical": 5}
	lines := strings.Split(strings.TrimSuffix(string(r.body), "\n"), "\n")
	if len(lines) != len(e.a.Findings) {
		t.Fatalf("%d lines, want %d", len(lines), len(e.a.Findings))
	}
	classes := map[float64]int{}
	for i, line := range lines {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		class, _ := ev["class_uid"].(float64)
		classes[class]++
		req, ok := ocsfRequired[class]
		if !ok {
			t.Fatalf("line %d: class_uid %v", i, ev["class_uid"])
		}
		for _, p := range req {
			if _, ok := ocsfPath(ev, p); !ok {
				t.Errorf("line %d (class %v) lacks required %s: %s", i, class, p, line)
			}
		}
		if bad := ocsfUndeclared(ev, class); len(bad) > 0 {
			t.Errorf("line %d: attributes OCSF 1.3.0 does not declare there: %v", i, bad)
		}
		for _, p := range ocsfAtLeastOne {
			v, _ := ocsfPath(ev, p)
			objs, isList := v.([]any)
			if !isList {
				objs = []any{v}
			}
			for _, o := range objs {
				m, _ := o.(map[string]any)
				_, name := ocsfPath(m, "name")
				_, uid := ocsfPath(m, "uid")
				if !name && !uid {
					t.Errorf("line %d: %s without name or uid: %s", i, p, line)
				}
			}
		}
		if rem, ok := ev["remediation"]; ok {
			if _, ok := ocsfPath(map[string]any{"r": rem}, "r.desc"); !ok {
				t.Errorf("line %d: remediation without desc", i)
			}
		}
		uid, _ := ocsfPath(ev, "finding_info.uid")
		f, ok := byID[fmt.Sprint(uid)]
		if !ok {
			t.Fatalf("line %d: finding_info.uid %v is not a finding of A", i, uid)
		}
		wantClass := 2004.0
		if f.Dimension == engine.DimensionCompliance {
			wantClass = 2003
		}
		activity, _ := ev["activity_id"].(float64)
		res, _ := ev["resources"].([]any)
		var resUID, resType any
		if len(res) == 1 {
			resUID, _ = ocsfPath(res[0].(map[string]any), "uid")
			resType, _ = ocsfPath(res[0].(map[string]any), "type")
		}
		rd, _ := ocsfPath(ev, "remediation.desc")
		if class != wantClass || ev["category_uid"] != 2.0 || ev["type_uid"] != class*100+activity ||
			ev["severity_id"] != sevIDs[f.Severity] || resUID != natives[f.ResourceID] || resType != f.ResourceType ||
			rd != f.Remediation || ev["time"] != float64(f.FirstSeenAt.Truncate(time.Second).UnixMilli()) { // stored to the second
			t.Errorf("line %d does not map finding %+v: %s", i, f, line)
		}
		if v, _ := ocsfPath(ev, "metadata.version"); v != exports.OCSFVersion {
			t.Errorf("line %d: metadata.version %v", i, v)
		}
		wantStatus := 1.0 // New
		switch {
		case f.ID == accepted.ID, f.ID == falsePos.ID:
			wantStatus = 3 // Suppressed: "reviewed, determined to be benign or a false positive"
		case f.ID == inProgress.ID:
			wantStatus = 2 // In Progress
		case f.Status == engine.StatusResolved:
			wantStatus = 4 // Resolved
		}
		if ev["status_id"] != wantStatus {
			t.Errorf("line %d: status_id %v, want %v (%s %s)", i, ev["status_id"], wantStatus, f.Status, f.Resolution)
		}
		if class == 2003 {
			std, _ := ocsfPath(ev, "compliance.standards")
			if fmt.Sprint(std) != "[CIS-AWS-4.0.1]" || ev["compliance"].(map[string]any)["control"] != "2.1.1" {
				t.Errorf("line %d: compliance %v", i, ev["compliance"])
			}
			// objects/compliance.json status_id: Pass 1 once fixed or a
			// false positive, else Fail 3.
			wantCompliance := 3.0
			if f.ID == falsePos.ID || (f.Status == engine.StatusResolved && f.ID != accepted.ID) {
				wantCompliance = 1
			}
			if got, _ := ocsfPath(ev, "compliance.status_id"); got != wantCompliance {
				t.Errorf("line %d: compliance.status_id %v, want %v", i, got, wantCompliance)
			}
		}
	}
	if classes[2003] == 0 || classes[2004] == 0 {
		t.Errorf("classes %v: want both Compliance (2003) and Detection (2004) Findings", classes)
	}
}

// TestExportResources pages the inventory in small pages and checks the CSV
// and NDJSON exports hold what the list pages through, filters included.
func TestExportResources(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 40, findingsB: 8, engine: func(c *findings.Config) { c.ExportPageSize = 4 }})
	for _, filter := range []string{"", "&type=aws_s3_bucket", "&region=eu-west-1&provider=aws"} {
		var listed []json.RawMessage
		for path := "/v1/resources?limit=200" + filter; ; {
			page := getJSON[map[string]json.RawMessage](t, e, path, e.tokA)
			var items []json.RawMessage
			_ = json.Unmarshal(page["data"], &items)
			listed = append(listed, items...)
			var next string
			if json.Unmarshal(page["next_cursor"], &next) != nil || next == "" {
				break
			}
			path = "/v1/resources?limit=200" + filter + "&cursor=" + next
		}
		if len(listed) == 0 {
			t.Fatalf("%s: the list is empty", filter)
		}
		r := e.get(t, "/v1/resources/export?format=ndjson"+filter, e.tokAResourcesOnly)
		if r.status != 200 || r.header.Get("Content-Type") != "application/x-ndjson" || !strings.HasPrefix(attachmentName(t, r), "fourd-resources-") {
			t.Fatalf("ndjson export: %d %v", r.status, r.header)
		}
		lines := strings.Split(strings.TrimSuffix(string(r.body), "\n"), "\n")
		if len(lines) != len(listed) {
			t.Fatalf("%s: %d lines, the list has %d", filter, len(lines), len(listed))
		}
		for i, line := range lines {
			var got, want any
			_ = json.Unmarshal([]byte(line), &got)
			_ = json.Unmarshal(listed[i], &want)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s line %d: %s, list %s", filter, i, line, listed[i])
			}
		}
		header, rows := exportedCSV(t, e.get(t, "/v1/resources/export?format=csv"+filter, e.tokA))
		if !slices.Equal(header, exports.ResourceCSVColumns) || len(rows) != len(listed) {
			t.Fatalf("%s: csv header %v, %d rows, want %d", filter, header, len(rows), len(listed))
		}
		for i, row := range rows {
			var want engine.Resource
			_ = json.Unmarshal(listed[i], &want)
			tags, _ := json.Marshal(want.Tags)
			if row[0] != want.ID || row[5] != want.NativeID || row[6] != want.Name || row[7] != string(tags) {
				t.Errorf("%s row %d: %v, want %+v", filter, i, row, want)
			}
		}
	}
	for q, want := range map[string]string{"format=ocsf": "validation_failed", "format=xml": "validation_failed", "kind=x": "invalid_request"} {
		if r := e.get(t, "/v1/resources/export?"+q, e.tokA); errCode(r.body) != want {
			t.Errorf("%s: %d %s, want %s", q, r.status, r.body, want)
		}
	}
	if r := e.get(t, "/v1/resources/export", e.tokAFindingsOnly); r.status != http.StatusForbidden {
		t.Errorf("without resources:read: %d %s", r.status, r.body)
	}
}

// slowFindings is a FindingStore whose every page takes delay, and which
// records the deadline each page's query was given.
type slowFindings struct {
	engine.FindingStore
	delay time.Duration
	mu    *sync.Mutex
	pages *[]slowPage
}

// slowPage is one page query: when it was asked, and its deadline (zero
// when it had none).
type slowPage struct{ at, deadline time.Time }

func (s slowFindings) ListFindings(ctx context.Context, q engine.FindingQuery) ([]engine.Finding, error) {
	dl, _ := ctx.Deadline()
	s.mu.Lock()
	*s.pages = append(*s.pages, slowPage{at: time.Now(), deadline: dl})
	s.mu.Unlock()
	select {
	case <-time.After(s.delay):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return s.FindingStore.ListFindings(ctx, q)
}

// TestExportFindingsOutlastsReadTimeout: an export longer than the read
// requests' deadline (here 2 s; 11 pages of at least 250 ms) is complete,
// since the deadline bounds each page, not the whole stream: every page's
// query has a deadline of its own, at most the read timeout after it was
// asked, and the last ones end after a deadline set for the whole request
// would have passed. Each page leaves its store query 1.75 s, so a loaded
// machine does not cut the stream (a 400 ms timeout with 120 ms pages
// left the real query 280 ms, which a busy ClickHouse overran).
func TestExportFindingsOutlastsReadTimeout(t *testing.T) {
	t.Parallel()
	const readTimeout = 2 * time.Second
	var mu sync.Mutex
	var pages []slowPage
	e := newEnv(t, envOptions{findingsA: 40,
		engine: func(c *findings.Config) {
			c.Findings = slowFindings{FindingStore: c.Findings, delay: 250 * time.Millisecond, mu: &mu, pages: &pages}
			c.ExportPageSize = 4
		},
		config: func(c *Config) { c.ReadTimeout = readTimeout }})
	start := time.Now()
	_, rows := exportedCSV(t, e.get(t, "/v1/findings/export?format=csv", e.tokA))
	took := time.Since(start)
	if len(rows) != len(e.a.Findings) || took < readTimeout {
		t.Errorf("%d rows in %s, want %d rows in more than the read timeout", len(rows), took, len(e.a.Findings))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(pages) < 11 {
		t.Fatalf("%d page queries, want 11 (40 findings, 4 a page)", len(pages))
	}
	for i, p := range pages {
		if p.deadline.IsZero() || p.deadline.After(p.at.Add(readTimeout)) {
			t.Errorf("page %d asked at +%s: deadline %v, want one within the read timeout", i, p.at.Sub(start), p.deadline)
		}
	}
	if last := pages[len(pages)-1]; !last.deadline.After(start.Add(readTimeout)) {
		t.Errorf("last page's deadline +%s: within a whole-request deadline (+%s)", last.deadline.Sub(start), readTimeout)
	}
}

// failingFindings is a FindingStore that fails every page after the first.
type failingFindings struct{ engine.FindingStore }

func (s failingFindings) ListFindings(ctx context.Context, q engine.FindingQuery) ([]engine.Finding, error) {
	if q.After != nil {
		return nil, fmt.Errorf("store down")
	}
	return s.FindingStore.ListFindings(ctx, q)
}

// TestExportFindingsStoreFailsMidway: a store error after the first page
// breaks the transfer, so the client cannot take the cut file for a whole
// one.
func TestExportFindingsStoreFailsMidway(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 20, engine: func(c *findings.Config) {
		c.Findings, c.ExportPageSize = failingFindings{c.Findings}, 5
	}})
	req, _ := http.NewRequest(http.MethodGet, e.url+"/v1/findings/export?format=csv", nil)
	req.Header.Set("Authorization", "Bearer "+e.tokA)
	res, err := e.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || err == nil {
		t.Errorf("status %d, read error %v after %d bytes; want 200 and a broken transfer", res.StatusCode, err, len(b))
	}
}

// evidenceFindings is a FindingStore that records whether the reads asked
// for the evidence.
type evidenceFindings struct {
	engine.FindingStore
	omitted, read *atomic.Int64
}

func (s evidenceFindings) ListFindings(ctx context.Context, q engine.FindingQuery) ([]engine.Finding, error) {
	if q.OmitEvidence {
		s.omitted.Add(1)
	} else {
		s.read.Add(1)
	}
	return s.FindingStore.ListFindings(ctx, q)
}

// TestExportFindingsReadsEvidenceOnlyWhenPrinted: the CSV export, which
// prints no evidence, asks the store for none (issue 33 §5: the widest
// column is neither read nor sent); NDJSON, which prints it, reads it; and
// every page of a multi-page export arrives once, in order, with the page
// after it read while it is written.
func TestExportFindingsReadsEvidenceOnlyWhenPrinted(t *testing.T) {
	t.Parallel()
	var omitted, read atomic.Int64
	e := newEnv(t, envOptions{findingsA: 23, engine: func(c *findings.Config) {
		c.Findings, c.ExportPageSize = evidenceFindings{FindingStore: c.Findings, omitted: &omitted, read: &read}, 4
	}})
	_, rows := exportedCSV(t, e.get(t, "/v1/findings/export?format=csv", e.tokA))
	if len(rows) != len(e.a.Findings) || omitted.Load() < 6 || read.Load() != 0 {
		t.Errorf("CSV: %d rows of %d; %d reads without evidence, %d with; want every row, 6+ pages without",
			len(rows), len(e.a.Findings), omitted.Load(), read.Load())
	}
	seen := map[string]bool{}
	for _, r := range rows {
		if seen[r[0]] {
			t.Errorf("CSV: %s twice", r[0])
		}
		seen[r[0]] = true
	}
	omitted.Store(0)
	r := e.get(t, "/v1/findings/export?format=ndjson", e.tokA)
	if r.status != 200 || read.Load() < 6 || omitted.Load() != 0 || !strings.Contains(string(r.body), `"evidence":{`) {
		t.Errorf("NDJSON: %d; %d reads with evidence, %d without; evidence printed: %v", r.status, read.Load(), omitted.Load(),
			strings.Contains(string(r.body), `"evidence":{`))
	}
}
