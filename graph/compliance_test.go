package graph_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/testserver"
)

// complianceEnv is newEnv (whose services judge the compliance posture,
// as fourd serve's do) with tenant A's latest audit one with known
// findings (complianceFixture).
func complianceEnv(t *testing.T) (*env, engine.Audit) {
	t.Helper()
	e := newEnv(t, envOptions{findingsA: 24, findingsB: 4})
	return e, complianceFixture(t, e)
}

// complianceFixture gives tenant A two RDS instances and a new latest audit
// whose snapshot holds findings of checks mapped to CIS AWS v4.0.1:
//   - 2.1.1 (aws-s3-005): open on two buckets → fail, 2 resources;
//   - 2.1.4 (aws-s3-001, -002, -003): open on one bucket each for -001 and
//     -002 → fail, 2 resources, 2 findings;
//   - 2.1.2 (aws-s3-009): its one finding accepted as a risk → pass;
//   - 2.2.1 (aws-rds-002): both instances not evaluated → insufficient_data;
//   - 2.2.2 (aws-rds-008): nothing found, instances judged → pass;
//   - 2.2.3 (aws-rds-001): open on one instance → fail, 1 resource;
//   - 2.3.1 (aws-efs-003): no EFS file system → not_applicable;
//   - 2.1.3: manual; 1.13: not assessed, with its reason.
func complianceFixture(t *testing.T, e *env) engine.Audit {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	var buckets []engine.Resource
	for _, r := range e.a.Resources {
		if r.Type == "aws_s3_bucket" {
			buckets = append(buckets, r)
		}
	}
	if len(buckets) < 3 {
		t.Fatalf("tenant A has %d buckets; the fixture needs 3", len(buckets))
	}
	var dbs []engine.Resource
	for i := range 2 {
		native := fmt.Sprintf("arn:aws:rds:eu-west-1:111122223333:db:db-%d", i)
		dbs = append(dbs, engine.Resource{ID: engine.ResourceID(e.a.ID, "aws", native), TenantID: e.a.ID, Provider: "aws",
			Account: "111122223333", Region: "eu-west-1", Type: "aws_db_instance", NativeID: native, Name: fmt.Sprintf("db-%d", i),
			Attributes: json.RawMessage(`{}`), FirstSeenAt: now, LastSeenAt: now})
	}
	if _, err := e.ch.WriteResources(ctx, e.a.ID, testserver.SeqOf(dbs)); err != nil {
		t.Fatal(err)
	}
	at := now.Add(-10 * time.Minute)
	a := engine.Audit{ID: engine.NewID(engine.PrefixAudit, at), TenantID: e.a.ID, Status: engine.AuditQueued, RequestedBy: "system", CreatedAt: at}
	if err := e.pg.CreateAudit(ctx, a); err != nil {
		t.Fatal(err)
	}
	started, done := at.Add(time.Second), at.Add(time.Minute)
	a.Status, a.StartedAt, a.CompletedAt = engine.AuditCompleted, &started, &done
	a.Summary = &engine.AuditSummary{BySeverity: map[engine.Severity]int64{}, ByDimension: map[engine.Dimension]int64{},
		NotEvaluated: map[string]int64{"aws-rds-002": 2}}
	if err := e.pg.UpdateAudit(ctx, a); err != nil {
		t.Fatal(err)
	}
	finding := func(rule string, r engine.Resource) engine.Finding {
		return engine.Finding{ID: engine.FindingID(e.a.ID, rule, r.ID), TenantID: e.a.ID, AuditID: a.ID, ResourceID: r.ID,
			RuleID: rule, Dimension: engine.DimensionSecurity, Severity: engine.SeverityHigh, Status: engine.StatusOpen,
			Title: rule, Description: "d", Remediation: "r", Evidence: json.RawMessage(`{}`), ResourceType: r.Type,
			Provider: r.Provider, Account: r.Account, Region: r.Region, FirstSeenAt: now, LastSeenAt: now}
	}
	fs := []engine.Finding{finding("aws-s3-005", buckets[0]), finding("aws-s3-005", buckets[1]),
		finding("aws-s3-001", buckets[0]), finding("aws-s3-002", buckets[1]), finding("aws-s3-009", buckets[2]),
		finding("aws-rds-001", dbs[0])}
	if _, err := e.ch.WriteSnapshot(ctx, e.a.ID, a.ID, testserver.SeqOf(fs)); err != nil {
		t.Fatal(err)
	}
	u, err := e.pg.EnsureUser(ctx, e.a.ID, "auditor@a.test", engine.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	p := engine.Principal{TenantID: e.a.ID, UserID: u.ID, Scopes: engine.AllScopes}
	if _, err := e.stack.Triage.UpdateFinding(ctx, p, fs[4].ID, engine.FindingUpdate{Status: engine.StatusResolved,
		Resolution: engine.ResolutionAcceptedRisk, Note: "buckets of the archive account keep versions without MFA delete"}); err != nil {
		t.Fatal(err)
	}
	got, err := e.pg.GetAudit(ctx, e.a.ID, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// restFramework is the answer of GET /v1/compliance/frameworks/{id}.
type restFramework struct {
	Framework  engine.CompliancePosture `json:"framework"`
	Data       []engine.ControlPosture  `json:"data"`
	NextCursor *string                  `json:"next_cursor"`
	HasMore    bool                     `json:"has_more"`
}

// restFrameworkAll walks every page of a framework's controls.
func restFrameworkAll(t *testing.T, e *env, id, query string, limit int) (engine.CompliancePosture, []engine.ControlPosture) {
	t.Helper()
	var all []engine.ControlPosture
	var fw engine.CompliancePosture
	cursor := ""
	for range 100 {
		p := fmt.Sprintf("/v1/compliance/frameworks/%s?limit=%d%s", id, limit, query)
		if cursor != "" {
			p += "&cursor=" + url.QueryEscape(cursor)
		}
		var page restFramework
		if st := e.rest(t, p, e.tokA, &page); st != 200 {
			t.Fatalf("GET %s: %d", p, st)
		}
		if len(page.Data) > limit {
			t.Fatalf("GET %s: %d controls", p, len(page.Data))
		}
		fw, all = page.Framework, append(all, page.Data...)
		if !page.HasMore {
			return fw, all
		}
		cursor = *page.NextCursor
	}
	t.Fatal("more than 100 pages")
	return fw, nil
}

// TestCompliancePostureValues reads the posture of an audit with known
// findings (complianceFixture) through REST: each control's status,
// failing resources and reason, the counts and the score; the list agrees
// with the framework; paging through NIST's 500+ controls returns each
// once; the status filter keeps only its status.
func TestCompliancePostureValues(t *testing.T) {
	e, a := complianceEnv(t)
	fw, controls := restFrameworkAll(t, e, "CIS-AWS-4.0.1", "", 200)
	if fw.AuditID != a.ID || fw.Controls != 64 || len(controls) != 64 {
		t.Fatalf("CIS v4.0.1: audit %s (want %s), %d controls, %d listed", fw.AuditID, a.ID, fw.Controls, len(controls))
	}
	byID := map[string]engine.ControlPosture{}
	for _, c := range controls {
		byID[c.ID] = c
	}
	for _, w := range []struct {
		id                         string
		status                     engine.ControlStatus
		failingResources, findings int64
		reasonWanted, checksWanted bool
	}{
		{"2.1.1", engine.ControlFail, 2, 2, false, true},
		{"2.1.4", engine.ControlFail, 2, 2, false, true},
		{"2.1.2", engine.ControlPass, 0, 0, false, true},
		{"2.2.1", engine.ControlInsufficientData, 0, 0, true, true},
		{"2.2.2", engine.ControlPass, 0, 0, false, true},
		{"2.2.3", engine.ControlFail, 1, 1, false, true},
		{"2.3.1", engine.ControlNotApplicable, 0, 0, true, true},
		{"2.1.3", engine.ControlManual, 0, 0, true, false},
		{"1.13", engine.ControlNotAssessed, 0, 0, true, false},
	} {
		c := byID[w.id]
		if c.Status != w.status || c.FailingResources != w.failingResources || c.FailingFindings != w.findings ||
			(c.Reason != "") != w.reasonWanted || (len(c.Checks) > 0) != w.checksWanted {
			t.Errorf("control %s: %+v; want status %s, %d failing resources, %d findings, reason %v, checks %v",
				w.id, c, w.status, w.failingResources, w.findings, w.reasonWanted, w.checksWanted)
		}
	}
	if c := byID["2.2.1"]; c.ResourcesNotEvaluated != 2 || c.ResourcesChecked != 2 {
		t.Errorf("2.2.1: %d checked, %d not evaluated; want 2 and 2", c.ResourcesChecked, c.ResourcesNotEvaluated)
	}
	if c := byID["1.13"]; c.Reason == "" || c.Reason == "no fourd check maps to this control" {
		t.Errorf("1.13 reason %q; want the catalog's gap", c.Reason)
	}
	var want engine.ControlCounts
	for _, c := range controls {
		switch c.Status {
		case engine.ControlPass:
			want.Passed++
		case engine.ControlFail:
			want.Failed++
		case engine.ControlInsufficientData:
			want.InsufficientData++
		case engine.ControlNotApplicable:
			want.NotApplicable++
		case engine.ControlManual:
			want.Manual++
		case engine.ControlNotAssessed:
			want.NotAssessed++
		}
	}
	if diff := cmp.Diff(want, fw.Counts); diff != "" {
		t.Errorf("counts vs the controls listed (-controls +counts):\n%s", diff)
	}
	if want.Failed != 3 || fw.ScorePercent == nil ||
		*fw.ScorePercent != float64(int(1000*float64(want.Passed)/float64(want.Passed+want.Failed)+0.5))/10 {
		t.Errorf("failed %d (want 3), score %v for %d passed", want.Failed, fw.ScorePercent, want.Passed)
	}

	var list struct {
		Data []engine.CompliancePosture `json:"data"`
	}
	if st := e.rest(t, "/v1/compliance/frameworks", e.tokA, &list); st != 200 || len(list.Data) != 5 {
		t.Fatalf("GET /v1/compliance/frameworks: %d, %d frameworks", st, len(list.Data))
	}
	for _, f := range list.Data {
		if f.ID != "CIS-AWS-4.0.1" {
			continue
		}
		if diff := cmp.Diff(fw, f); diff != "" {
			t.Errorf("list vs framework (-framework +list):\n%s", diff)
		}
	}

	// NIST: pages of 100 return every control once, in catalog order.
	nist, all := restFrameworkAll(t, e, "NIST-800-53-r5", "", 100)
	seen := map[string]bool{}
	for _, c := range all {
		if seen[c.ID] {
			t.Errorf("NIST control %s listed twice", c.ID)
		}
		seen[c.ID] = true
	}
	if len(all) != nist.Controls || nist.Controls < 500 {
		t.Errorf("NIST: %d controls listed of %d", len(all), nist.Controls)
	}
	_, failed := restFrameworkAll(t, e, "NIST-800-53-r5", "&status=failed", 7)
	if len(failed) != nist.Counts.Failed || len(failed) == 0 {
		t.Errorf("NIST status=failed: %d controls; counts say %d", len(failed), nist.Counts.Failed)
	}
	for _, c := range failed {
		if c.Status != engine.ControlFail {
			t.Errorf("status=failed listed %s (%s)", c.ID, c.Status)
		}
	}
	// The wire names are issue 33 §4's: passed, failed, insufficient_data
	// (and not_applicable, manual, not_assessed).
	var raw struct {
		Data []struct {
			Status string `json:"status"`
		} `json:"data"`
	}
	names := map[string]int{}
	if st := e.rest(t, "/v1/compliance/frameworks/CIS-AWS-4.0.1?limit=200", e.tokA, &raw); st != 200 {
		t.Fatalf("CIS controls: %d", st)
	}
	for _, c := range raw.Data {
		names[c.Status]++
	}
	for name := range names {
		if !slices.Contains([]string{"passed", "failed", "insufficient_data", "not_applicable", "manual", "not_assessed"}, name) {
			t.Errorf("REST control status %q is not one of the documented names", name)
		}
	}
	for _, name := range []string{"passed", "failed", "insufficient_data", "manual"} {
		if names[name] == 0 {
			t.Errorf("no CIS control is %q in the fixture (statuses seen: %v)", name, names)
		}
	}

	// An older audit reads its own snapshot: the seeded one has no
	// finding of a mapped check.
	old, _ := restFrameworkAll(t, e, "CIS-AWS-4.0.1", "&audit_id="+e.a.Audit.ID, 200)
	if old.AuditID != e.a.Audit.ID || old.Counts.Failed != 0 {
		t.Errorf("older audit: %s with %d failed; want %s with 0", old.AuditID, old.Counts.Failed, e.a.Audit.ID)
	}

	// A mute rule silencing 2.2.3's one finding: the control passes at
	// once, as Security Hub leaves suppressed findings out.
	exp := time.Now().Add(24 * time.Hour).UTC().Format(time.RFC3339)
	r := e.gql(t, e.tokA, `mutation($in: MuteRuleInput!) { createMuteRule(input: $in) { id applied { matched } } }`,
		map[string]any{"in": map[string]any{"expression": "finding.rule_id == 'aws-rds-001'", "reason": "test database", "expiresAt": exp}})
	if r.code() != "" {
		t.Fatalf("createMuteRule: %s %s", r.code(), r.Data)
	}
	muted, controls := restFrameworkAll(t, e, "CIS-AWS-4.0.1", "", 200)
	for _, c := range controls {
		if c.ID == "2.2.3" && (c.Status != engine.ControlPass || c.FailingResources != 0) {
			t.Errorf("2.2.3 with its finding muted: %+v; want pass", c)
		}
	}
	if muted.Counts.Failed != 2 || muted.Counts.Passed != fw.Counts.Passed+1 {
		t.Errorf("after the mute: %+v; want one control moved from failed to passed (before %+v)", muted.Counts, fw.Counts)
	}
}

// TestCompliancePostureBadInput: unknown framework, bad status, audit id,
// limit and cursor, a token without findings:read, and no token are coded
// errors; tenant B reads its own posture, never A's audit.
func TestCompliancePostureBadInput(t *testing.T) {
	e, a := complianceEnv(t)
	for _, tc := range []struct {
		path, token string
		status      int
		code        string
	}{
		{"/v1/compliance/frameworks/CIS-AWS-9.9", e.tokA, 404, engine.CodeNotFound},
		{"/v1/compliance/frameworks/CIS-AWS-9.9/trend", e.tokA, 404, engine.CodeNotFound},
		{"/v1/compliance/frameworks/CIS-AWS-4.0.1?status=failing", e.tokA, 422, engine.CodeValidationFailed},
		// The names (passed, failed), not the old pass and fail.
		{"/v1/compliance/frameworks/CIS-AWS-4.0.1?status=pass", e.tokA, 422, engine.CodeValidationFailed},
		{"/v1/compliance/frameworks/CIS-AWS-4.0.1?status=fail", e.tokA, 422, engine.CodeValidationFailed},
		{"/v1/compliance/frameworks/CIS-AWS-4.0.1?status=PASSED", e.tokA, 422, engine.CodeValidationFailed},
		{"/v1/compliance/frameworks/CIS-AWS-4.0.1?limit=0", e.tokA, 422, engine.CodeInvalidLimit},
		{"/v1/compliance/frameworks/CIS-AWS-4.0.1?limit=201", e.tokA, 422, engine.CodeInvalidLimit},
		{"/v1/compliance/frameworks/CIS-AWS-4.0.1/trend?limit=x", e.tokA, 422, engine.CodeInvalidLimit},
		{"/v1/compliance/frameworks/CIS-AWS-4.0.1?cursor=abc", e.tokA, 400, engine.CodeInvalidCursor},
		{"/v1/compliance/frameworks?audit_id=aud_nope", e.tokA, 422, engine.CodeValidationFailed},
		{"/v1/compliance/frameworks?audit_id=" + engine.NewID(engine.PrefixAudit, time.Now()), e.tokA, 404, engine.CodeNotFound},
		{"/v1/compliance/frameworks?audit_id=" + a.ID, e.tokB, 404, engine.CodeNotFound},
		{"/v1/compliance/frameworks?severity=high", e.tokA, 400, engine.CodeInvalidRequest},
		{"/v1/compliance/frameworks", e.tokAResources, 403, engine.CodeInsufficientScope},
		{"/v1/compliance/frameworks", "", 401, engine.CodeUnauthorized},
	} {
		var body restError
		if st := e.rest(t, tc.path, tc.token, &body); st != tc.status || body.Error.Code != tc.code {
			t.Errorf("GET %s: %d %q; want %d %q", tc.path, st, body.Error.Code, tc.status, tc.code)
		}
	}
	// A cursor made for one status is refused for another.
	var page restFramework
	if st := e.rest(t, "/v1/compliance/frameworks/NIST-800-53-r5?limit=2", e.tokA, &page); st != 200 || page.NextCursor == nil {
		t.Fatalf("NIST first page: %d %+v", st, page.HasMore)
	}
	var body restError
	if st := e.rest(t, "/v1/compliance/frameworks/NIST-800-53-r5?limit=2&status=passed&cursor="+url.QueryEscape(*page.NextCursor), e.tokA, &body); st != 400 || body.Error.Code != engine.CodeInvalidCursor {
		t.Errorf("cursor for other filters: %d %q", st, body.Error.Code)
	}
	var list struct {
		Data []engine.CompliancePosture `json:"data"`
	}
	if st := e.rest(t, "/v1/compliance/frameworks", e.tokB, &list); st != 200 || len(list.Data) == 0 || list.Data[0].AuditID != e.b.Audit.ID {
		t.Errorf("B's posture: %d %+v; want B's audit %s", st, list.Data, e.b.Audit.ID)
	}
}

// TestComplianceTrend runs a real audit of tenant A (after the fixture's)
// and reads the trend: the audit's recorded posture equals the posture
// the framework endpoint computes for it, the fixture's audit (written
// without the engine's audit run) has no point, and B sees none of A's.
func TestComplianceTrend(t *testing.T) {
	e, _ := complianceEnv(t)
	ctx := context.Background()
	u, err := e.pg.EnsureUser(ctx, e.a.ID, "auditor@a.test", engine.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	p := engine.Principal{TenantID: e.a.ID, UserID: u.ID, Scopes: engine.AllScopes}
	queued, err := e.audits.StartAudit(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	claimed, err := e.pg.ClaimAudit(ctx, "test", time.Minute)
	if err != nil || claimed.ID != queued.ID {
		t.Fatalf("claim: %v %v", claimed.ID, err)
	}
	if done := e.runner.RunAudit(ctx, claimed); done.Status != engine.AuditCompleted {
		t.Fatalf("audit: %s %s", done.Status, done.Error)
	}
	for _, id := range []string{"CIS-AWS-4.0.1", "SOC2"} {
		var trend struct {
			Data []engine.CompliancePosture `json:"data"`
		}
		if st := e.rest(t, "/v1/compliance/frameworks/"+id+"/trend", e.tokA, &trend); st != 200 || len(trend.Data) != 1 {
			t.Fatalf("%s trend: %d, %d points; want the new audit's only", id, st, len(trend.Data))
		}
		live, _ := restFrameworkAll(t, e, id, "&audit_id="+queued.ID, 200)
		if diff := cmp.Diff(live, trend.Data[0]); diff != "" {
			t.Errorf("%s: live vs recorded posture (-live +recorded):\n%s", id, diff)
		}
		if st := e.rest(t, "/v1/compliance/frameworks/"+id+"/trend", e.tokB, &trend); st != 200 || len(trend.Data) != 0 {
			t.Errorf("B's %s trend: %d %+v", id, st, trend.Data)
		}
		for _, tc := range []struct {
			token string
			want  int
		}{{e.tokA, 1}, {e.tokB, 0}} {
			got := data[struct {
				ComplianceFramework struct {
					Trend struct {
						Nodes []gqlPosture `json:"nodes"`
					} `json:"trend"`
				} `json:"complianceFramework"`
			}](t, e.gql(t, tc.token, `query($id: String!) { complianceFramework(id: $id) { trend(first: 5) { nodes { `+gqlPostureFields+` } } } }`,
				map[string]any{"id": id}))
			if n := got.ComplianceFramework.Trend.Nodes; len(n) != tc.want {
				t.Errorf("%s GraphQL trend: %d points; want %d", id, len(n), tc.want)
			} else if tc.want == 1 {
				if diff := cmp.Diff(live, n[0].asREST(t)); diff != "" {
					t.Errorf("%s GraphQL trend point (-rest +graphql):\n%s", id, diff)
				}
			}
		}
	}
}

// gqlPosture is a CompliancePosture as the GraphQL queries below select it.
type gqlPosture struct {
	ID           string   `json:"id"`
	Name         string   `json:"name"`
	Version      string   `json:"version"`
	ControlCount int      `json:"controlCount"`
	ScorePercent *float64 `json:"scorePercent"`
	AuditID      *string  `json:"auditId"`
	AuditAt      *string  `json:"auditCompletedAt"`
	Counts       struct {
		Passed           int `json:"passed"`
		Failed           int `json:"failed"`
		InsufficientData int `json:"insufficientData"`
		NotApplicable    int `json:"notApplicable"`
		Manual           int `json:"manual"`
		NotAssessed      int `json:"notAssessed"`
	} `json:"counts"`
}

const gqlPostureFields = `id name version controlCount scorePercent auditId auditCompletedAt
  counts { passed failed insufficientData notApplicable manual notAssessed }`

// asREST converts a GraphQL posture to the REST shape.
func (g gqlPosture) asREST(t *testing.T) engine.CompliancePosture {
	t.Helper()
	p := engine.CompliancePosture{ID: g.ID, Name: g.Name, Version: g.Version, Controls: g.ControlCount, ScorePercent: g.ScorePercent,
		Counts: engine.ControlCounts(g.Counts)}
	if g.AuditID != nil {
		p.AuditID = *g.AuditID
	}
	if g.AuditAt != nil {
		at, err := time.Parse(time.RFC3339Nano, *g.AuditAt)
		if err != nil {
			t.Fatal(err)
		}
		at = at.UTC()
		p.AuditCompletedAt = &at
	}
	return p
}

// gqlControl is a ControlPosture as GraphQL names its fields.
type gqlControl struct {
	ID                    string   `json:"id"`
	Title                 string   `json:"title"`
	Section               string   `json:"section"`
	Level                 string   `json:"level"`
	Assessment            string   `json:"assessment"`
	Status                string   `json:"status"`
	Reason                string   `json:"reason"`
	Checks                []string `json:"checks"`
	FailingResources      int64    `json:"failingResources"`
	FailingFindings       int64    `json:"failingFindings"`
	ResourcesChecked      int64    `json:"resourcesChecked"`
	ResourcesNotEvaluated int64    `json:"resourcesNotEvaluated"`
}

// gqlControls walks every page of a framework's controls through GraphQL.
func gqlControls(t *testing.T, e *env, token, id string, first int) (gqlPosture, []engine.ControlPosture) {
	t.Helper()
	type page struct {
		ComplianceFramework struct {
			gqlPosture
			Controls struct {
				Edges []struct {
					Cursor string `json:"cursor"`
				} `json:"edges"`
				Nodes    []gqlControl `json:"nodes"`
				PageInfo struct {
					HasNextPage bool    `json:"hasNextPage"`
					EndCursor   *string `json:"endCursor"`
				} `json:"pageInfo"`
			} `json:"controls"`
		} `json:"complianceFramework"`
	}
	q := `query($id: String!, $first: Int, $after: String) { complianceFramework(id: $id) { ` + gqlPostureFields + `
  controls(first: $first, after: $after) { edges { cursor } nodes { id title section level assessment status reason checks
    failingResources failingFindings resourcesChecked resourcesNotEvaluated } pageInfo { hasNextPage endCursor } } } }`
	vars := map[string]any{"id": id, "first": first}
	var all []engine.ControlPosture
	for range 100 {
		got := data[page](t, e.gql(t, token, q, vars))
		c := got.ComplianceFramework.Controls
		for _, n := range c.Nodes {
			all = append(all, engine.ControlPosture{ID: n.ID, Title: n.Title, Section: n.Section, Level: n.Level,
				Assessment: n.Assessment, Status: engine.ControlStatus(strings.ToLower(n.Status)), Reason: n.Reason, Checks: n.Checks, FailingResources: n.FailingResources,
				FailingFindings: n.FailingFindings, ResourcesChecked: n.ResourcesChecked, ResourcesNotEvaluated: n.ResourcesNotEvaluated})
		}
		if len(c.Edges) != len(c.Nodes) || len(c.Nodes) > first {
			t.Fatalf("%s: %d edges, %d nodes for first %d", id, len(c.Edges), len(c.Nodes), first)
		}
		if !c.PageInfo.HasNextPage {
			return got.ComplianceFramework.gqlPosture, all
		}
		vars["after"] = *c.PageInfo.EndCursor
	}
	t.Fatal("more than 100 pages")
	return gqlPosture{}, nil
}

// TestCompliancePostureGraphQLEqualsREST: complianceFrameworks,
// complianceFramework with every page of its controls, and the trend
// answer what REST answers for the same audit; bad input is coded; tenant
// B cannot read A's audit nor use A's cursor.
func TestCompliancePostureGraphQLEqualsREST(t *testing.T) {
	e, a := complianceEnv(t)
	for _, id := range []string{"CIS-AWS-4.0.1", "NIST-800-53-r5"} {
		restFW, restControls := restFrameworkAll(t, e, id, "", 200)
		gqlFW, gqlCtls := gqlControls(t, e, e.tokA, id, 60)
		if diff := cmp.Diff(restFW, gqlFW.asREST(t)); diff != "" {
			t.Errorf("%s posture (-rest +graphql):\n%s", id, diff)
		}
		// level and assessment are "" for other frameworks in GraphQL, absent in REST: the same value.
		if diff := cmp.Diff(restControls, gqlCtls); diff != "" {
			t.Errorf("%s controls (-rest +graphql):\n%s", id, diff)
		}
		if id == "CIS-AWS-4.0.1" && gqlFW.Counts.Failed != 3 {
			t.Errorf("GraphQL: %d CIS controls fail; want 3", gqlFW.Counts.Failed)
		}
	}
	// The status argument is the ControlStatus enum; FAILED keeps the
	// failing controls, as REST's status=failed.
	filtered := data[struct {
		ComplianceFramework struct {
			Controls struct {
				Nodes []gqlControl `json:"nodes"`
			} `json:"controls"`
		} `json:"complianceFramework"`
	}](t, e.gql(t, e.tokA, `{ complianceFramework(id: "CIS-AWS-4.0.1") { controls(status: FAILED, first: 200) { nodes { id status } } } }`, nil))
	_, restFailed := restFrameworkAll(t, e, "CIS-AWS-4.0.1", "&status=failed", 200)
	var gqlFailed, restIDs []string
	for _, n := range filtered.ComplianceFramework.Controls.Nodes {
		if n.Status != "FAILED" {
			t.Errorf("controls(status: FAILED) listed %s as %s", n.ID, n.Status)
		}
		gqlFailed = append(gqlFailed, n.ID)
	}
	for _, c := range restFailed {
		restIDs = append(restIDs, c.ID)
	}
	if len(gqlFailed) != 3 || !slices.Equal(gqlFailed, restIDs) {
		t.Errorf("controls(status: FAILED): %v; REST status=failed: %v; want the same 3", gqlFailed, restIDs)
	}
	var list struct {
		Data []engine.CompliancePosture `json:"data"`
	}
	if st := e.rest(t, "/v1/compliance/frameworks", e.tokA, &list); st != 200 {
		t.Fatalf("REST list: %d", st)
	}
	got := data[struct {
		ComplianceFrameworks []gqlPosture `json:"complianceFrameworks"`
	}](t, e.gql(t, e.tokA, `{ complianceFrameworks { `+gqlPostureFields+` } }`, nil))
	var gl []engine.CompliancePosture
	for _, g := range got.ComplianceFrameworks {
		gl = append(gl, g.asREST(t))
	}
	if diff := cmp.Diff(list.Data, gl); diff != "" {
		t.Errorf("frameworks (-rest +graphql):\n%s", diff)
	}

	for _, tc := range []struct {
		token, query string
		vars         map[string]any
		code         string
	}{
		{e.tokA, `query($id: String!) { complianceFramework(id: $id) { id } }`, map[string]any{"id": "CIS-AWS-9.9"}, engine.CodeNotFound},
		// status is the ControlStatus enum: a string, an unknown or an old name is refused.
		{e.tokA, `{ complianceFramework(id: "SOC2") { controls(status: "failed") { nodes { id } } } }`, nil, engine.CodeInvalidRequest},
		{e.tokA, `{ complianceFramework(id: "SOC2") { controls(status: FAIL) { nodes { id } } } }`, nil, engine.CodeInvalidRequest},
		{e.tokA, `query($s: ControlStatus) { complianceFramework(id: "SOC2") { controls(status: $s) { nodes { id } } } }`, map[string]any{"s": "pass"}, engine.CodeInvalidRequest},
		{e.tokA, `{ complianceFramework(id: "SOC2") { controls(first: 201) { nodes { id } } } }`, nil, engine.CodeInvalidLimit},
		{e.tokA, `{ complianceFramework(id: "SOC2") { trend(after: "x") { nodes { id } } } }`, nil, engine.CodeInvalidCursor},
		{e.tokA, `{ complianceFrameworks(auditId: "aud_nope") { id } }`, nil, engine.CodeValidationFailed},
		{e.tokB, `query($a: ID) { complianceFramework(id: "SOC2", auditId: $a) { id } }`, map[string]any{"a": a.ID}, engine.CodeNotFound},
		{e.tokB, `query($a: ID) { complianceFrameworks(auditId: $a) { id } }`, map[string]any{"a": a.ID}, engine.CodeNotFound},
		{e.tokAResources, `{ complianceFrameworks { id } }`, nil, engine.CodeInsufficientScope},
	} {
		if r := e.gql(t, tc.token, tc.query, tc.vars); r.code() != tc.code {
			t.Errorf("%s: code %q; want %q (%s)", tc.query, r.code(), tc.code, r.Data)
		}
	}
	// A's cursor is refused to B.
	type pg struct {
		ComplianceFramework struct {
			Controls struct {
				PageInfo struct {
					EndCursor string `json:"endCursor"`
				} `json:"pageInfo"`
			} `json:"controls"`
		} `json:"complianceFramework"`
	}
	const q = `query($after: String) { complianceFramework(id: "NIST-800-53-r5") { controls(first: 2, after: $after) { pageInfo { endCursor } nodes { id } } } }`
	cur := data[pg](t, e.gql(t, e.tokA, q, nil)).ComplianceFramework.Controls.PageInfo.EndCursor
	if r := e.gql(t, e.tokB, q, map[string]any{"after": cur}); r.code() != engine.CodeInvalidCursor {
		t.Errorf("B with A's cursor: %q %s", r.code(), r.Data)
	}
	// B's posture is B's own audit's.
	gotB := data[struct {
		ComplianceFrameworks []gqlPosture `json:"complianceFrameworks"`
	}](t, e.gql(t, e.tokB, `{ complianceFrameworks { `+gqlPostureFields+` } }`, nil))
	for _, f := range gotB.ComplianceFrameworks {
		if f.AuditID == nil || *f.AuditID != e.b.Audit.ID {
			t.Errorf("B's %s judged audit %v; want %s", f.ID, f.AuditID, e.b.Audit.ID)
		}
	}
}
