package postgres_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// queued returns a new queued audit of the tenant whose id sorts at ms.
func queued(tenantID string, ms int) engine.Audit {
	return engine.Audit{ID: newID(engine.PrefixAudit, ms), TenantID: tenantID, Status: engine.AuditQueued,
		RequestedBy: "system", CreatedAt: t0.Add(time.Duration(ms) * time.Millisecond)}
}

func mustCreateAudit(t *testing.T, s interface {
	CreateAudit(context.Context, engine.Audit) error
}, a engine.Audit) engine.Audit {
	t.Helper()
	if err := s.CreateAudit(context.Background(), a); err != nil {
		t.Fatalf("CreateAudit(%s): %v", a.ID, err)
	}
	return a
}

func TestAudits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	acme := mustTenant(t, s, "acme")
	other := mustTenant(t, s, "other")

	done := engine.Audit{ID: newID(engine.PrefixAudit, 1), TenantID: acme.ID, Status: engine.AuditCompleted,
		RequestedBy: "usr_x", Progress: engine.AuditProgress{ResourcesTotal: 10, ResourcesScanned: 10},
		Summary: &engine.AuditSummary{ResourcesScanned: 10, FindingsOpen: 3, FindingsNew: 2, FindingsResolved: 1,
			BySeverity:  map[engine.Severity]int64{engine.SeverityHigh: 2, engine.SeverityLow: 1},
			ByDimension: map[engine.Dimension]int64{engine.DimensionSecurity: 3}},
		CreatedAt: t0, StartedAt: at(time.Second), CompletedAt: at(time.Minute)}
	mustCreateAudit(t, s, done)
	re := queued(acme.ID, 2)
	re.ParentID = done.ID
	mustCreateAudit(t, s, re)
	foreign := mustCreateAudit(t, s, queued(other.ID, 3))

	t.Run("get", func(t *testing.T) {
		for _, want := range []engine.Audit{done, re} {
			got, err := s.GetAudit(ctx, acme.ID, want.ID)
			if err != nil {
				t.Fatal(err)
			}
			diff(t, "audit", want, got)
		}
	})
	t.Run("get missing", func(t *testing.T) {
		for _, id := range []string{newID(engine.PrefixAudit, 99), foreign.ID, "", "aud_\x00"} {
			_, err := s.GetAudit(ctx, acme.ID, id)
			wantCode(t, "GetAudit("+id+")", err, engine.CodeNotFound)
		}
	})
	t.Run("create errors", func(t *testing.T) {
		tests := []struct {
			name string
			a    engine.Audit
			code string
		}{
			{"duplicate id", done, engine.CodeConflict},
			{"unknown status", engine.Audit{ID: newID(engine.PrefixAudit, 10), TenantID: acme.ID, Status: "paused", CreatedAt: t0}, engine.CodeValidationFailed},
			{"completed without completed_at", engine.Audit{ID: newID(engine.PrefixAudit, 11), TenantID: acme.ID, Status: engine.AuditCompleted, CreatedAt: t0}, engine.CodeValidationFailed},
			{"parent of another tenant", engine.Audit{ID: newID(engine.PrefixAudit, 12), TenantID: acme.ID, Status: engine.AuditFailed, ParentID: foreign.ID, CreatedAt: t0}, engine.CodeValidationFailed},
			{"unknown tenant", queued("ten_nope", 13), engine.CodeValidationFailed},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				wantCode(t, "CreateAudit", s.CreateAudit(ctx, tt.a), tt.code)
			})
		}
	})
	t.Run("update", func(t *testing.T) {
		u := re
		u.Status, u.StartedAt = engine.AuditRunning, at(2*time.Minute)
		u.Progress = engine.AuditProgress{ResourcesTotal: 5, ResourcesScanned: 2}
		u.RequestedBy = "ignored: not mutable"
		if err := s.UpdateAudit(ctx, u); err != nil {
			t.Fatal(err)
		}
		got, err := s.GetAudit(ctx, acme.ID, re.ID)
		if err != nil {
			t.Fatal(err)
		}
		u.RequestedBy = re.RequestedBy
		diff(t, "updated audit", u, got)

		f := foreign
		f.TenantID = acme.ID
		f.Status = engine.AuditFailed
		wantCode(t, "update another tenant's audit", s.UpdateAudit(ctx, f), engine.CodeNotFound)
		wantCode(t, "update missing", s.UpdateAudit(ctx, queued(acme.ID, 50)), engine.CodeNotFound)
		back, err := s.GetAudit(ctx, other.ID, foreign.ID)
		if err != nil {
			t.Fatal(err)
		}
		diff(t, "untouched foreign audit", foreign, back)
	})
}

// TestOneActiveAuditPerTenant: a tenant has at most one audit queued or
// running (issue 28 §4), whoever inserts it, and concurrent inserts agree
// on one winner.
func TestOneActiveAuditPerTenant(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	acme := mustTenant(t, s, "acme")
	other := mustTenant(t, s, "other")
	running := func(tenantID string, ms int) engine.Audit {
		a := queued(tenantID, ms)
		a.Status, a.StartedAt = engine.AuditRunning, at(time.Second)
		return a
	}
	first := mustCreateAudit(t, s, running(acme.ID, 1))
	wantCode(t, "second running audit", s.CreateAudit(ctx, running(acme.ID, 2)), engine.CodeConflict)
	wantCode(t, "queued while another runs", s.CreateAudit(ctx, queued(acme.ID, 3)), engine.CodeConflict)
	mustCreateAudit(t, s, running(other.ID, 4)) // another tenant may run one
	failed := queued(acme.ID, 5)
	failed.Status, failed.CompletedAt = engine.AuditFailed, at(time.Minute)
	mustCreateAudit(t, s, failed) // finished audits are not active

	first.Status, first.CompletedAt = engine.AuditCompleted, at(time.Minute)
	if err := s.UpdateAudit(ctx, first); err != nil {
		t.Fatal(err)
	}
	next := mustCreateAudit(t, s, queued(acme.ID, 6))
	wantCode(t, "a second queued audit", s.CreateAudit(ctx, queued(acme.ID, 7)), engine.CodeConflict)
	start := next
	start.Status, start.StartedAt = engine.AuditRunning, at(time.Minute)
	if err := s.UpdateAudit(ctx, start); err != nil {
		t.Fatalf("start the queued audit: %v", err)
	}
	requeue := failed
	requeue.Status, requeue.CompletedAt = engine.AuditQueued, nil
	wantCode(t, "requeue a finished audit while one runs", s.UpdateAudit(ctx, requeue), engine.CodeConflict)
	start.Status, start.CompletedAt = engine.AuditCanceled, at(2*time.Minute)
	if err := s.UpdateAudit(ctx, start); err != nil {
		t.Fatal(err)
	}

	// Concurrent inserts, repeated: exactly one wins each time.
	const trials, racers = 5, 12
	for trial := range trials {
		var wg sync.WaitGroup
		errs := make([]error, racers)
		audits := make([]engine.Audit, racers)
		for i := range racers {
			audits[i] = queued(acme.ID, 100+trial*racers+i)
			wg.Go(func() { errs[i] = s.CreateAudit(ctx, audits[i]) })
		}
		wg.Wait()
		won := -1
		for i, err := range errs {
			switch {
			case err == nil && won >= 0:
				t.Fatalf("trial %d: racers %d and %d both queued an audit", trial, won, i)
			case err == nil:
				won = i
			case engine.ErrorCode(err) != engine.CodeConflict:
				t.Fatalf("trial %d, racer %d: %v, want conflict", trial, i, err)
			}
		}
		if won < 0 {
			t.Fatalf("trial %d: no racer queued an audit", trial)
		}
		a := audits[won]
		a.Status, a.CompletedAt = engine.AuditCanceled, at(time.Hour)
		if err := s.UpdateAudit(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLatestCompletedAudit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	acme := mustTenant(t, s, "acme")
	other := mustTenant(t, s, "other")

	_, err := s.LatestCompletedAudit(ctx, acme.ID)
	wantCode(t, "no audits", err, engine.CodeNotFound)
	mustCreateAudit(t, s, queued(acme.ID, 1))
	_, err = s.LatestCompletedAudit(ctx, acme.ID)
	wantCode(t, "only a queued audit", err, engine.CodeNotFound)

	completed := func(tenantID string, ms int, doneAfter time.Duration) engine.Audit {
		a := queued(tenantID, ms)
		a.Status, a.StartedAt, a.CompletedAt = engine.AuditCompleted, at(0), at(doneAfter)
		return mustCreateAudit(t, s, a)
	}
	completed(acme.ID, 2, time.Hour)
	// Created later but finished earlier: not the latest.
	completed(acme.ID, 3, 30*time.Minute)
	// Completed last, but in another tenant.
	completed(other.ID, 4, 3*time.Hour)
	want := completed(acme.ID, 5, 2*time.Hour)
	failed := queued(acme.ID, 6)
	failed.Status, failed.CompletedAt, failed.Error = engine.AuditFailed, at(4*time.Hour), "boom"
	mustCreateAudit(t, s, failed)

	got, err := s.LatestCompletedAudit(ctx, acme.ID)
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "latest completed", want, got)
}

func TestListAudits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	acme := mustTenant(t, s, "acme")
	other := mustTenant(t, s, "other")
	var want, wantFailed []string
	for i := range 23 {
		tenant := acme.ID
		if i%4 == 3 {
			tenant = other.ID
		}
		a := queued(tenant, i)
		// One audit of a tenant may be queued at a time: the others ended.
		a.Status, a.CompletedAt = engine.AuditCanceled, at(time.Hour)
		if i%3 == 0 {
			a.Status = engine.AuditFailed
		}
		mustCreateAudit(t, s, a)
		if tenant == acme.ID {
			want = append(want, a.ID)
			if a.Status == engine.AuditFailed {
				wantFailed = append(wantFailed, a.ID)
			}
		}
	}
	slices.Reverse(want)
	slices.Reverse(wantFailed)
	for _, status := range []engine.AuditStatus{"", engine.AuditFailed} {
		for _, limit := range []int{1, 2, 5, len(want), 200} {
			t.Run(string(status)+"/limit "+itoa(limit), func(t *testing.T) {
				got := pageAll(t, limit, func(before string, limit int) ([]string, error) {
					as, err := s.ListAudits(ctx, engine.AuditQuery{TenantID: acme.ID, Status: status, BeforeID: before, Limit: limit})
					var ids []string
					for _, a := range as {
						if a.TenantID != acme.ID {
							t.Errorf("audit %s of tenant %s listed", a.ID, a.TenantID)
						}
						ids = append(ids, a.ID)
					}
					return ids, err
				})
				w := want
				if status != "" {
					w = wantFailed
				}
				diff(t, "ids", w, got)
			})
		}
	}
	for _, limit := range []int{0, -1, 1001} {
		_, err := s.ListAudits(ctx, engine.AuditQuery{TenantID: acme.ID, Limit: limit})
		wantCode(t, "ListAudits limit "+itoa(limit), err, engine.CodeInvalidLimit)
	}
}
