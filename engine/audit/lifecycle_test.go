package audit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"iter"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/audit"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/fourd-dev/fourd/engine/ingest"
	"github.com/fourd-dev/fourd/engine/mutes"
	"github.com/fourd-dev/fourd/engine/policies"
	"github.com/fourd-dev/fourd/engine/triage"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
	"github.com/fourd-dev/fourd/store/postgres"
	"github.com/fourd-dev/fourd/store/postgres/pgtest"
)

// recorder keeps every event the engine commits, through either path: the
// outbox (EventStore) or an audit's final commit (audit.Queue).
type recorder struct {
	mu     sync.Mutex
	events []engine.Event
}

func (r *recorder) add(e engine.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) take() []engine.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.events
	r.events = nil
	return out
}

type recordingEvents struct {
	engine.EventStore
	rec *recorder
}

func (s recordingEvents) AppendEvents(ctx context.Context, evs []engine.Event) error {
	if err := s.EventStore.AppendEvents(ctx, evs); err != nil {
		return err
	}
	for _, e := range evs { // as a store, keeping nothing of the caller's
		e.Data = bytes.Clone(e.Data)
		s.rec.add(e)
	}
	return nil
}

type recordingQueue struct {
	audit.Queue
	rec *recorder
}

func (q recordingQueue) CompleteAudit(ctx context.Context, evs iter.Seq2[engine.Event, error], final func() engine.Audit) error {
	var seen []engine.Event
	err := q.Queue.CompleteAudit(ctx, func(yield func(engine.Event, error) bool) {
		for e, err := range evs {
			if err == nil {
				seen = append(seen, e)
			}
			if !yield(e, err) {
				return
			}
		}
	}, final)
	if err == nil {
		for _, e := range seen {
			q.rec.add(e)
		}
	}
	return err
}

type harness struct {
	t   *testing.T
	pg  *postgres.Store
	svc *findings.Service
	// mutes keeps mute rules over svc's read path (engine/mutes).
	mutes *mutes.Service
	// triage changes findings over svc's read path (engine/triage).
	triage *triage.Service
	// policies keeps custom policies (engine/policies).
	policies *policies.Service
	// audits runs audits (this package's Service).
	audits *audit.Service
	runner *audit.Operator
	// intake takes inventory (engine/ingest).
	intake *ingest.Service
	queue  audit.Queue
	p      engine.Principal
	rec    *recorder
	now    time.Time
	ctx    context.Context
}

func newHarness(t *testing.T) *harness { return newHarnessWith(t, nil) }

// newHarnessWith is newHarness with the audit queue wrapped by wrap (nil:
// as it is).
func newHarnessWith(t *testing.T, wrap func(audit.Queue) audit.Queue) *harness {
	t.Helper()
	ch, pg := chtest.New(t), pgtest.New(t)
	h := &harness{t: t, pg: pg, rec: &recorder{}, now: time.Now().UTC().Truncate(time.Second), ctx: context.Background()}
	h.queue = recordingQueue{pg, h.rec}
	if wrap != nil {
		h.queue = wrap(h.queue)
	}
	now := func() time.Time { return h.now }
	svc, _, err := findings.New(findings.Config{
		Findings: ch, Resources: ch, Tenants: pg, Audits: pg,
		Snapshots: ch, Evaluators: audit.New(nil), Overrides: pg, MuteRules: pg, MuteMatches: ch,
		Events: recordingEvents{pg, h.rec}, EventLog: ch,
		Secret: []byte(strings.Repeat("k", 32)), Now: now,
	})
	if err != nil {
		t.Fatal(err)
	}
	h.svc = svc
	if h.mutes, err = mutes.New(mutes.Config{Rules: pg, Compiler: audit.New(nil), Reads: svc.MuteReads(),
		Secret: []byte(strings.Repeat("k", 32)), Now: now}); err != nil {
		t.Fatal(err)
	}
	if h.triage, err = triage.New(triage.Config{Reads: svc.TriageReads(), Decisions: pg, Users: pg, Audits: pg, Snapshots: ch,
		Secret: []byte(strings.Repeat("k", 32)), Now: now}); err != nil {
		t.Fatal(err)
	}
	if h.policies, err = policies.New(policies.Config{Store: pg, Checker: audit.New(nil), Inventory: ch,
		Secret: []byte(strings.Repeat("k", 32)), Now: now}); err != nil {
		t.Fatal(err)
	}
	if h.audits, h.runner, err = audit.NewService(audit.Config{Audits: pg, Snapshots: ch, Inventory: ch, Queue: h.queue,
		Evaluators: audit.New(nil), Findings: ch, Resources: ch, Reads: svc.AuditReads(),
		Events: recordingEvents{pg, h.rec}, EventLog: ch, Now: now}); err != nil {
		t.Fatal(err)
	}
	if h.intake, err = ingest.New(ingest.Config{Resources: ch, Events: recordingEvents{pg, h.rec}, EventLog: ch, Now: now}); err != nil {
		t.Fatal(err)
	}
	ten, err := pg.EnsureTenant(h.ctx, "lifecycle", "Lifecycle Ltd")
	if err != nil {
		t.Fatal(err)
	}
	u, err := pg.EnsureUser(h.ctx, ten.ID, "owner@lifecycle.test", engine.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	h.p = engine.Principal{TenantID: ten.ID, UserID: u.ID, Scopes: engine.AllScopes}
	return h
}

func (h *harness) ingest(rs ...engine.Resource) {
	h.t.Helper()
	res, err := h.intake.IngestResources(h.ctx, h.p, func(yield func(engine.IngestItem) bool) {
		for i, r := range rs {
			if !yield(engine.IngestItem{Index: i, Resource: r}) {
				return
			}
		}
	})
	if err != nil || res.Rejected > 0 {
		h.t.Fatalf("ingest: %+v, %v", res, err)
	}
}

// runAudit starts an audit and runs it to its end, as a worker would.
func (h *harness) runAudit() engine.Audit {
	h.t.Helper()
	h.now = h.now.Add(time.Hour)
	a, err := h.audits.StartAudit(h.ctx, h.p)
	if err != nil {
		h.t.Fatal(err)
	}
	if _, err := h.audits.StartAudit(h.ctx, h.p); engine.ErrorCode(err) != engine.CodeConflict {
		h.t.Fatalf("a second audit while one is queued: %v, want conflict", err)
	}
	claimed, err := h.queue.ClaimAudit(h.ctx, "test", time.Minute)
	if err != nil || claimed.ID != a.ID {
		h.t.Fatalf("claim: %+v, %v", claimed, err)
	}
	done := h.runner.RunAudit(h.ctx, claimed)
	if done.Status != engine.AuditCompleted {
		h.t.Fatalf("audit ended %s: %s", done.Status, done.Error)
	}
	return done
}

// finding returns the finding a rule raises on a resource, as read now.
func (h *harness) finding(rule string, r engine.Resource) engine.Finding {
	h.t.Helper()
	id := engine.FindingID(h.p.TenantID, rule, engine.ResourceID(h.p.TenantID, r.Provider, r.NativeID))
	f, err := h.svc.GetFinding(h.ctx, h.p, id)
	if err != nil {
		h.t.Fatalf("finding %s on %s: %v", rule, r.Name, err)
	}
	return f
}

// eventsFor returns the events of a type about a finding id.
func eventsFor(evs []engine.Event, typ, findingID string) []map[string]any {
	var out []map[string]any
	for _, e := range evs {
		if e.Type != typ {
			continue
		}
		var d map[string]any
		if json.Unmarshal(e.Data, &d) != nil {
			continue
		}
		if f, ok := d["finding"].(map[string]any); ok && f["id"] == findingID {
			out = append(out, d)
		}
	}
	return out
}

func bucket(name string, tags map[string]string, blockPublic bool) engine.Resource {
	attrs := map[string]any{"bucket": name, "sse_algorithm": "", "versioning": "", "public_access_block": nil}
	if blockPublic {
		attrs["public_access_block"] = map[string]bool{"block_public_acls": true, "ignore_public_acls": true,
			"block_public_policy": true, "restrict_public_buckets": true}
	}
	b, _ := json.Marshal(attrs)
	return engine.Resource{Provider: "aws", Account: "111122223333", Region: "eu-west-1", Type: "aws_s3_bucket",
		NativeID: "arn:aws:s3:::" + name, Name: name, Tags: engine.TagsFromMap(tags), Attributes: b}
}

// TestLifecycleAcrossThreeAudits follows findings through three audits:
// created, reclassified by a severity policy, resolved when fixed, and an
// accepted risk kept by every later audit.
func TestLifecycleAcrossThreeAudits(t *testing.T) {
	h := newHarness(t)
	const public, unencrypted = "aws-s3-001", "aws-s3-004"
	logs := bucket("données-logs", map[string]string{"env": "staging"}, false)
	h.ingest(logs)
	if evs := h.rec.take(); len(evs) != 1 || evs[0].Type != engine.EventResourceAdded {
		t.Fatalf("ingest events: %+v", evs)
	}

	// Audit 1: the bucket is public and unencrypted.
	a1 := h.runAudit()
	pub, enc := h.finding(public, logs), h.finding(unencrypted, logs)
	if pub.Status != engine.StatusOpen || pub.Severity != engine.SeverityHigh || enc.Status != engine.StatusOpen {
		t.Fatalf("after audit 1: %+v / %+v", pub, enc)
	}
	evs := h.rec.take()
	if len(eventsFor(evs, engine.EventFindingCreated, pub.ID)) != 1 || len(eventsFor(evs, engine.EventFindingCreated, enc.ID)) != 1 {
		t.Errorf("audit 1 did not announce both findings: %d events", len(evs))
	}
	if evs[0].Type != engine.EventAuditStarted || evs[len(evs)-1].Type != engine.EventAuditCompleted {
		t.Errorf("audit 1 events start with %s and end with %s", evs[0].Type, evs[len(evs)-1].Type)
	}
	if a1.Summary.FindingsNew != a1.Summary.FindingsOpen || a1.Summary.FindingsOpen < 2 {
		t.Errorf("audit 1 summary: %+v", a1.Summary)
	}

	// A person accepts the missing encryption as a known risk: visible at once.
	if _, err := h.triage.UpdateFinding(h.ctx, h.p, enc.ID, engine.FindingUpdate{Status: engine.StatusResolved,
		Resolution: engine.ResolutionAcceptedRisk, Note: "archive bucket, encrypted client-side"}); err != nil {
		t.Fatal(err)
	}
	if f := h.finding(unencrypted, logs); f.Status != engine.StatusResolved || f.Resolution != engine.ResolutionAcceptedRisk {
		t.Fatalf("accepted risk not visible: %+v", f)
	}
	open, err := h.svc.ListFindings(h.ctx, h.p, engine.FindingFilter{Status: engine.StatusOpen}, engine.PageRequest{Limit: 200})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range open.Items {
		if f.ID == enc.ID {
			t.Error("the accepted risk is still listed as open")
		}
	}
	sum, err := h.svc.SummarizeFindings(h.ctx, h.p, engine.FindingFilter{Status: engine.StatusOpen}, nil)
	if err != nil || sum.Total != int64(len(open.Items)) {
		t.Errorf("open count %d (%v) disagrees with the open list (%d)", sum.Total, err, len(open.Items))
	}

	// Audit 2: the bucket moved to prod, and a policy says prod is critical.
	pol, err := h.policies.CreatePolicy(h.ctx, h.p, engine.PolicyInput{Name: ptr("prod is critical"),
		Expression: ptr(`resource.tags["env"] == "prod"`), Effect: ptr(engine.PolicySeverityAtLeast),
		Dimension: ptr(engine.DimensionSecurity), Severity: ptr(engine.SeverityCritical)})
	if err != nil {
		t.Fatal(err)
	}
	logs.Tags = engine.TagsFromMap(map[string]string{"env": "prod"})
	h.ingest(logs)
	h.rec.take()
	h.runAudit()
	if f := h.finding(public, logs); f.Severity != engine.SeverityCritical || f.Status != engine.StatusOpen || !f.FirstSeenAt.Equal(pub.FirstSeenAt) {
		t.Errorf("after audit 2 the public bucket finding is %+v", f)
	}
	changed := eventsFor(h.rec.take(), engine.EventFindingSeverityChanged, pub.ID)
	if len(changed) != 1 || changed[0]["previous_severity"] != "high" || !strings.Contains(changed[0]["reason"].(string), pol.ID) {
		t.Errorf("severity_changed events: %+v", changed)
	}
	if f := h.finding(unencrypted, logs); f.Status != engine.StatusResolved || f.Resolution != engine.ResolutionAcceptedRisk {
		t.Errorf("audit 2 dropped the accepted risk: %+v", f)
	}

	// Audit 3: the bucket now blocks public access.
	h.ingest(bucket("données-logs", map[string]string{"env": "prod"}, true))
	h.rec.take()
	a3 := h.runAudit()
	fixed := h.finding(public, logs)
	if fixed.Status != engine.StatusResolved || fixed.Resolution != engine.ResolutionFixed || fixed.ResolvedAt == nil {
		t.Errorf("after audit 3 the public bucket finding is %+v", fixed)
	}
	evs = h.rec.take()
	if len(eventsFor(evs, engine.EventFindingResolved, pub.ID)) != 1 {
		t.Errorf("no finding.resolved for the fixed bucket")
	}
	if len(eventsFor(evs, engine.EventFindingResolved, enc.ID)) != 0 || len(eventsFor(evs, engine.EventFindingCreated, enc.ID)) != 0 {
		t.Errorf("the accepted risk raised events again")
	}
	if f := h.finding(unencrypted, logs); f.Status != engine.StatusResolved || f.Resolution != engine.ResolutionAcceptedRisk {
		t.Errorf("audit 3 dropped the accepted risk: %+v", f)
	}
	if a3.Summary.FindingsResolved != 1 {
		t.Errorf("audit 3 summary: %+v", a3.Summary)
	}
	resolved, err := h.svc.ListFindings(h.ctx, h.p, engine.FindingFilter{Status: engine.StatusResolved}, engine.PageRequest{Limit: 200})
	if err != nil || len(resolved.Items) != 2 {
		t.Errorf("resolved findings: %d, %v; want the fixed one and the accepted risk", len(resolved.Items), err)
	}

	// Reopening the accepted risk shows at once.
	if f, err := h.triage.UpdateFinding(h.ctx, h.p, enc.ID, engine.FindingUpdate{Status: engine.StatusOpen}); err != nil || f.Status != engine.StatusOpen {
		t.Errorf("reopen: %+v, %v", f, err)
	}
	if _, err := h.triage.UpdateFinding(h.ctx, h.p, fixed.ID, engine.FindingUpdate{Status: engine.StatusOpen}); engine.ErrorCode(err) != engine.CodeConflict {
		t.Errorf("reopening a fixed finding: %v, want conflict", err)
	}
}

func TestReanalyzeAndCancel(t *testing.T) {
	h := newHarness(t)
	h.ingest(bucket("a", nil, false))
	a1 := h.runAudit()
	h.now = h.now.Add(time.Hour)
	re, err := h.audits.ReanalyzeAudit(h.ctx, h.p, a1.ID)
	if err != nil || re.ParentID != a1.ID || re.Status != engine.AuditQueued {
		t.Fatalf("reanalyze: %+v, %v", re, err)
	}
	canceled, err := h.audits.CancelAudit(h.ctx, h.p, re.ID)
	if err != nil || canceled.Status != engine.AuditCanceled {
		t.Fatalf("cancel: %+v, %v", canceled, err)
	}
	if _, err := h.audits.ReanalyzeAudit(h.ctx, h.p, re.ID); engine.ErrorCode(err) != engine.CodeConflict {
		t.Errorf("reanalyzing a canceled audit: %v, want conflict", err)
	}
	if _, err := h.audits.CancelAudit(h.ctx, h.p, a1.ID); engine.ErrorCode(err) != engine.CodeConflict {
		t.Errorf("canceling a completed audit: %v, want conflict", err)
	}
	other := engine.Principal{TenantID: "ten_other", Scopes: engine.AllScopes}
	if _, err := h.audits.ReanalyzeAudit(h.ctx, other, a1.ID); !engine.IsNotFound(err) {
		t.Errorf("another tenant reanalyzed: %v", err)
	}
	if _, err := h.audits.StartAudit(h.ctx, engine.Principal{TenantID: h.p.TenantID, Scopes: []engine.Scope{engine.ScopeAuditsRead}}); engine.ErrorCode(err) != engine.CodeInsufficientScope {
		t.Errorf("read-only token started an audit: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }
