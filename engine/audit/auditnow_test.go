package audit_test

import (
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// AuditNow (what `fourd audit` calls) queues an audit of the caller's
// tenant and runs the queue in the caller's process until it has run: an
// audit queued earlier by another tenant runs first, and both complete.
// It checks the scope and refuses a second audit of a busy tenant.
func TestAuditNow(t *testing.T) {
	h := newHarness(t)
	logs := bucket("now-logs", map[string]string{"env": "prod"}, false)
	h.ingest(logs)
	other, err := h.pg.EnsureTenant(h.ctx, "earlier", "Earlier Ltd")
	if err != nil {
		t.Fatal(err)
	}
	op := engine.Principal{TenantID: other.ID, UserID: "operator", Scopes: engine.AllScopes}
	earlier, err := h.audits.StartAudit(h.ctx, op)
	if err != nil {
		t.Fatal(err)
	}

	h.now = h.now.Add(time.Minute)
	done, err := h.audits.AuditNow(h.ctx, h.p, "cli")
	if err != nil {
		t.Fatal(err)
	}
	if done.TenantID != h.p.TenantID || done.Status != engine.AuditCompleted || done.Summary == nil ||
		done.Summary.ResourcesScanned != 1 || done.Summary.FindingsOpen < 2 {
		t.Fatalf("AuditNow = %+v (summary %+v), want tenant %s's audit completed over 1 resource", done, done.Summary, h.p.TenantID)
	}
	if got, err := h.svc.GetAudit(h.ctx, op, earlier.ID); err != nil || got.Status != engine.AuditCompleted {
		t.Errorf("the audit queued earlier: %+v, %v; want it run first, completed", got, err)
	}

	if _, err := h.audits.AuditNow(h.ctx, engine.Principal{TenantID: h.p.TenantID, Scopes: []engine.Scope{engine.ScopeAuditsRead}}, "cli"); engine.ErrorCode(err) != engine.CodeInsufficientScope {
		t.Errorf("AuditNow with audits:read only: %v, want insufficient_scope", err)
	}
	if _, err := h.audits.StartAudit(h.ctx, h.p); err != nil {
		t.Fatal(err)
	}
	if _, err := h.audits.AuditNow(h.ctx, h.p, "cli"); engine.ErrorCode(err) != engine.CodeConflict {
		t.Errorf("AuditNow while an audit is queued: %v, want conflict", err)
	}
}
