package postgres_test

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/postgres"
)

func newReport(tenantID, auditID string, ms int) engine.Report {
	return engine.Report{ID: newID(engine.PrefixReport, ms), TenantID: tenantID, Kind: engine.ReportExecutiveSummary,
		Status: engine.ReportPending, AuditID: auditID, Filters: json.RawMessage(`{"severity": "high"}`),
		CreatedAt: t0.Add(time.Duration(ms) * time.Millisecond)}
}

func mustCreateReport(t *testing.T, s *postgres.Store, r engine.Report) engine.Report {
	t.Helper()
	if err := s.CreateReport(context.Background(), r); err != nil {
		t.Fatalf("CreateReport(%s): %v", r.ID, err)
	}
	return r
}

func TestReports(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, clk := newStore(t)
	acme := mustTenant(t, s, "acme")
	other := mustTenant(t, s, "other")
	aud := mustCreateAudit(t, s, queued(acme.ID, 0))
	foreignAud := mustCreateAudit(t, s, queued(other.ID, 1))

	r := mustCreateReport(t, s, newReport(acme.ID, aud.ID, 2))
	bare := newReport(acme.ID, "", 3) // no audit, no filters
	bare.Filters, bare.Kind = nil, engine.ReportComplianceEvidence
	mustCreateReport(t, s, bare)
	foreign := mustCreateReport(t, s, newReport(other.ID, foreignAud.ID, 4))

	t.Run("get", func(t *testing.T) {
		for _, want := range []engine.Report{r, bare} {
			got, err := s.GetReport(ctx, acme.ID, want.ID)
			if err != nil {
				t.Fatal(err)
			}
			diff(t, "report", want, got)
		}
		for _, id := range []string{foreign.ID, newID(engine.PrefixReport, 99), "\xff"} {
			_, err := s.GetReport(ctx, acme.ID, id)
			wantCode(t, "GetReport("+id+")", err, engine.CodeNotFound)
		}
	})

	t.Run("create errors", func(t *testing.T) {
		badKind := newReport(acme.ID, aud.ID, 10)
		badKind.Kind = "novel"
		badJSON := newReport(acme.ID, aud.ID, 11)
		badJSON.Filters = json.RawMessage(`{not json`)
		tests := []struct {
			name string
			r    engine.Report
			code string
		}{
			{"duplicate id", r, engine.CodeConflict},
			{"unknown kind", badKind, engine.CodeValidationFailed},
			{"filters not JSON", badJSON, engine.CodeValidationFailed},
			{"audit of another tenant", newReport(acme.ID, foreignAud.ID, 12), engine.CodeValidationFailed},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				wantCode(t, "CreateReport", s.CreateReport(ctx, tt.r), tt.code)
			})
		}
	})

	t.Run("claim and finish", func(t *testing.T) {
		got, err := s.ClaimReport(ctx, "w1", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		diff(t, "first claim: oldest pending", r, got)
		if got, err := s.ClaimReport(ctx, "w2", time.Minute); err != nil || got.ID != bare.ID {
			t.Fatalf("second claim = %s, %v; want %s", got.ID, err, bare.ID)
		}
		if got, err := s.ClaimReport(ctx, "w3", time.Minute); err != nil || got.ID != foreign.ID {
			t.Fatalf("third claim = %s, %v; want %s", got.ID, err, foreign.ID)
		}
		_, err = s.ClaimReport(ctx, "w4", time.Minute)
		wantCode(t, "claim with everything claimed", err, engine.CodeNotFound)

		doc := []byte(`{"title":"Executive summary"}`)
		res := postgres.ReportResult{TenantID: acme.ID, ID: r.ID, Document: doc, Checksum: "abc123",
			PDF: []byte("%PDF-1.4 …"), CompletedAt: t0.Add(time.Minute)}
		wantCode(t, "finish through another tenant", s.FinishReport(ctx, postgres.ReportResult{TenantID: other.ID, ID: r.ID, Document: doc}), engine.CodeNotFound)
		wantCode(t, "finish without a document", s.FinishReport(ctx, postgres.ReportResult{TenantID: acme.ID, ID: r.ID}), engine.CodeValidationFailed)
		if err := s.FinishReport(ctx, res); err != nil {
			t.Fatal(err)
		}
		wantCode(t, "finish twice", s.FinishReport(ctx, res), engine.CodeNotFound)
		got, err = s.GetReport(ctx, acme.ID, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := r
		want.Status, want.Checksum, want.CompletedAt = engine.ReportReady, "abc123", at(time.Minute)
		diff(t, "ready report", want, got)

		for format, content := range map[string][]byte{"json": doc, "pdf": res.PDF} {
			b, err := s.ReportContent(ctx, acme.ID, r.ID, format)
			if err != nil {
				t.Fatalf("ReportContent(%s): %v", format, err)
			}
			diff(t, format+" content", string(content), string(b))
		}
		_, err = s.ReportContent(ctx, acme.ID, r.ID, "docx")
		wantCode(t, "unknown format", err, engine.CodeValidationFailed)
		_, err = s.ReportContent(ctx, other.ID, r.ID, "json")
		wantCode(t, "content through another tenant", err, engine.CodeNotFound)
		_, err = s.ReportContent(ctx, acme.ID, bare.ID, "json")
		wantCode(t, "content of a pending report", err, engine.CodeNotFound)

		// bare's worker died; once its lease ran out it is claimed again and
		// then fails.
		clk.Advance(2 * time.Minute)
		got, err = s.ClaimReport(ctx, "w5", time.Minute)
		if err != nil || got.ID != bare.ID {
			t.Fatalf("reclaim = %s, %v; want %s", got.ID, err, bare.ID)
		}
		if err := s.FinishReport(ctx, postgres.ReportResult{TenantID: acme.ID, ID: bare.ID, Error: "no completed audit", CompletedAt: t0}); err != nil {
			t.Fatal(err)
		}
		got, err = s.GetReport(ctx, acme.ID, bare.ID)
		if err != nil {
			t.Fatal(err)
		}
		want = bare
		want.Status, want.Error, want.CompletedAt = engine.ReportFailed, "no completed audit", at(0)
		diff(t, "failed report", want, got)
		_, err = s.ReportContent(ctx, acme.ID, bare.ID, "json")
		wantCode(t, "content of a failed report", err, engine.CodeNotFound)
	})
}

func TestClaimReportConcurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	acme := mustTenant(t, s, "acme")
	const n = 30
	for i := range n {
		mustCreateReport(t, s, newReport(acme.ID, "", i))
	}
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for w := range 6 {
		wg.Go(func() {
			for {
				r, err := s.ClaimReport(ctx, "w"+itoa(w), time.Hour)
				if engine.IsNotFound(err) {
					return
				}
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if seen[r.ID] {
					t.Errorf("report %s claimed twice", r.ID)
				}
				seen[r.ID] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(seen) != n {
		t.Errorf("%d reports claimed; want %d", len(seen), n)
	}
}

func TestListReports(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	acme := mustTenant(t, s, "acme")
	other := mustTenant(t, s, "other")
	var want []string
	for i := range 19 {
		tenant := acme.ID
		if i%3 == 1 {
			tenant = other.ID
		}
		r := mustCreateReport(t, s, newReport(tenant, "", i))
		if tenant == acme.ID {
			want = append(want, r.ID)
		}
	}
	slices.Reverse(want)
	for _, limit := range []int{1, 3, len(want), 200} {
		t.Run("limit "+itoa(limit), func(t *testing.T) {
			got := pageAll(t, limit, func(before string, limit int) ([]string, error) {
				rs, err := s.ListReports(ctx, engine.ReportQuery{TenantID: acme.ID, BeforeID: before, Limit: limit})
				var ids []string
				for _, r := range rs {
					ids = append(ids, r.ID)
				}
				return ids, err
			})
			diff(t, "ids", want, got)
		})
	}
	_, err := s.ListReports(ctx, engine.ReportQuery{TenantID: acme.ID, Limit: 5000})
	wantCode(t, "ListReports limit 5000", err, engine.CodeInvalidLimit)
}
