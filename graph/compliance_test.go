package graph_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/audit"
	"github.com/fourd-dev/fourd/store/clickhouse"
)

// complianceEnv is newEnv with the compliance posture configured (the
// report analytics and the rule catalog) and tenant A's latest audit one
// with known findings (complianceFixture).
func complianceEnv(t *testing.T) (*env, engine.Audit) {
	t.Helper()
	e := newEnv(t, envOptions{findingsA: 24, findingsB: 4, engine: func(c *engine.Config) {
		c.Reporting = engine.ReportConfig{Analytics: c.Snapshots.(*clickhouse.Store), Catalog: audit.NewCatalog()}
	}})
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
	for _, r := range e.a.resources {
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
		dbs = append(dbs, engine.Resource{ID: engine.ResourceID(e.a.id, "aws", native), TenantID: e.a.id, Provider: "aws",
			Account: "111122223333", Region: "eu-west-1", Type: "aws_db_instance", NativeID: native, Name: fmt.Sprintf("db-%d", i),
			Attributes: json.RawMessage(`{}`), FirstSeenAt: now, LastSeenAt: now})
	}
	if _, err := e.ch.WriteResources(ctx, e.a.id, seqOf(dbs)); err != nil {
		t.Fatal(err)
	}
	at := now.Add(-10 * time.Minute)
	a := engine.Audit{ID: engine.NewID(engine.PrefixAudit, at), TenantID: e.a.id, Status: engine.AuditQueued, RequestedBy: "system", CreatedAt: at}
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
		return engine.Finding{ID: engine.FindingID(e.a.id, rule, r.ID), TenantID: e.a.id, AuditID: a.ID, ResourceID: r.ID,
			RuleID: rule, Dimension: engine.DimensionSecurity, Severity: engine.SeverityHigh, Status: engine.StatusOpen,
			Title: rule, Description: "d", Remediation: "r", Evidence: json.RawMessage(`{}`), ResourceType: r.Type,
			Provider: r.Provider, Account: r.Account, Region: r.Region, FirstSeenAt: now, LastSeenAt: now}
	}
	fs := []engine.Finding{finding("aws-s3-005", buckets[0]), finding("aws-s3-005", buckets[1]),
		finding("aws-s3-001", buckets[0]), finding("aws-s3-002", buckets[1]), finding("aws-s3-009", buckets[2]),
		finding("aws-rds-001", dbs[0])}
	if _, err := e.ch.WriteSnapshot(ctx, e.a.id, a.ID, seqOf(fs)); err != nil {
		t.Fatal(err)
	}
	u, err := e.pg.EnsureUser(ctx, e.a.id, "auditor@a.test", engine.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	p := engine.Principal{TenantID: e.a.id, UserID: u.ID, Scopes: engine.AllScopes}
	if _, err := e.svc.UpdateFinding(ctx, p, fs[4].ID, engine.FindingUpdate{Status: engine.StatusResolved,
		Resolution: engine.ResolutionAcceptedRisk, Note: "buckets of the archive account keep versions without MFA delete"}); err != nil {
		t.Fatal(err)
	}
	got, err := e.pg.GetAudit(ctx, e.a.id, a.ID)
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
		id, status                 string
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
	_, failed := restFrameworkAll(t, e, "NIST-800-53-r5", "&status=fail", 7)
	if len(failed) != nist.Counts.Failed || len(failed) == 0 {
		t.Errorf("NIST status=fail: %d controls; counts say %d", len(failed), nist.Counts.Failed)
	}
	for _, c := range failed {
		if c.Status != engine.ControlFail {
			t.Errorf("status=fail listed %s (%s)", c.ID, c.Status)
		}
	}

	// An older audit reads its own snapshot: the seeded one has no
	// finding of a mapped check.
	old, _ := restFrameworkAll(t, e, "CIS-AWS-4.0.1", "&audit_id="+e.a.audit.ID, 200)
	if old.AuditID != e.a.audit.ID || old.Counts.Failed != 0 {
		t.Errorf("older audit: %s with %d failed; want %s with 0", old.AuditID, old.Counts.Failed, e.a.audit.ID)
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
	if st := e.rest(t, "/v1/compliance/frameworks/NIST-800-53-r5?limit=2&status=pass&cursor="+url.QueryEscape(*page.NextCursor), e.tokA, &body); st != 400 || body.Error.Code != engine.CodeInvalidCursor {
		t.Errorf("cursor for other filters: %d %q", st, body.Error.Code)
	}
	var list struct {
		Data []engine.CompliancePosture `json:"data"`
	}
	if st := e.rest(t, "/v1/compliance/frameworks", e.tokB, &list); st != 200 || len(list.Data) == 0 || list.Data[0].AuditID != e.b.audit.ID {
		t.Errorf("B's posture: %d %+v; want B's audit %s", st, list.Data, e.b.audit.ID)
	}
}

// TestComplianceTrend runs a real audit of tenant A (after the fixture's)
// and reads the trend: the audit's recorded posture equals the posture
// the framework endpoint computes for it, the fixture's audit (written
// without the engine's audit run) has no point, and B sees none of A's.
func TestComplianceTrend(t *testing.T) {
	e, _ := complianceEnv(t)
	ctx := context.Background()
	u, err := e.pg.EnsureUser(ctx, e.a.id, "auditor@a.test", engine.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	p := engine.Principal{TenantID: e.a.id, UserID: u.ID, Scopes: engine.AllScopes}
	queued, err := e.svc.StartAudit(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	claimed, err := e.pg.ClaimAudit(ctx, "test", time.Minute)
	if err != nil || claimed.ID != queued.ID {
		t.Fatalf("claim: %v %v", claimed.ID, err)
	}
	if done := e.svc.RunAudit(ctx, claimed); done.Status != engine.AuditCompleted {
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
	}
}
