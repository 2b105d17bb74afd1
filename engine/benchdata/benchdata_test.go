package benchdata_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/benchdata"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
	"github.com/fourd-dev/fourd/store/postgres/pgtest"
)

// The Operator writes a tenant's resources and a completed audit with its
// snapshot as given, over the real stores, and announces nothing: the
// audit is the tenant's latest, its snapshot counts what was generated,
// and the outbox holds no event.
func TestOperatorWritesBenchData(t *testing.T) {
	if _, err := benchdata.New(benchdata.Config{}); err == nil {
		t.Fatal("New without stores: no error")
	}
	ctx := context.Background()
	ch, pg := chtest.New(t), pgtest.New(t)
	op, err := benchdata.New(benchdata.Config{Control: pg, Analytics: ch})
	if err != nil {
		t.Fatal(err)
	}
	ten, err := op.Tenant(ctx, "bench-0")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Second)
	var ids []string
	res, err := op.WriteResources(ctx, ten.ID, func(yield func(engine.Resource, error) bool) {
		for i := range 3 {
			native := fmt.Sprint("arn:aws:s3:::bench-", i)
			id := engine.ResourceID(ten.ID, "aws", native)
			ids = append(ids, id)
			if !yield(engine.Resource{ID: id, TenantID: ten.ID, Provider: "aws", Type: "aws_s3_bucket", NativeID: native,
				Tags: engine.Tags{}, Attributes: []byte(`{}`), FirstSeenAt: now, LastSeenAt: now}, nil) {
				return
			}
		}
	})
	if err != nil || res.Written != 3 || len(res.NewIDs) != 3 {
		t.Fatalf("WriteResources = %+v, %v", res, err)
	}
	a, err := op.StartAudit(ctx, ten.ID, now)
	if err != nil || a.Status != engine.AuditRunning || a.RequestedBy != benchdata.RequestedBy {
		t.Fatalf("StartAudit = %+v, %v", a, err)
	}
	n, err := op.WriteSnapshot(ctx, a, func(yield func(engine.Finding, error) bool) {
		for i, id := range ids {
			for _, rule := range []string{"bench-001", "bench-002"} {
				f := engine.Finding{ID: engine.FindingID(ten.ID, rule, id), TenantID: ten.ID, AuditID: a.ID, RuleID: rule,
					ResourceID: id, ResourceType: "aws_s3_bucket", Severity: engine.Severities[i], Dimension: engine.DimensionSecurity,
					Status: engine.StatusOpen, Title: rule, Evidence: []byte(`{}`), FirstSeenAt: now, LastSeenAt: now}
				if !yield(f, nil) {
					return
				}
			}
		}
	})
	if err != nil || n != 6 {
		t.Fatalf("WriteSnapshot = %d, %v; want 6", n, err)
	}
	done, err := op.CompleteAudit(ctx, a, 3, n)
	if err != nil {
		t.Fatal(err)
	}
	latest, err := pg.LatestCompletedAudit(ctx, ten.ID)
	if err != nil || latest.ID != a.ID || latest.Status != engine.AuditCompleted || latest.Summary == nil ||
		latest.Summary.FindingsOpen != 6 || latest.Summary.ResourcesScanned != 3 || done.CompletedAt == nil {
		t.Fatalf("latest completed audit = %+v (summary %+v), %v; want %s completed with 6 findings over 3 resources", latest, latest.Summary, err, a.ID)
	}
	// No check ran, and the stored summary says so (empty, not null), so
	// that no compliance control passes on this audit.
	if latest.Summary.Evaluated == nil || len(latest.Summary.Evaluated) != 0 {
		t.Fatalf("stored summary's evaluated = %v; want {} (no check ran)", latest.Summary.Evaluated)
	}
	counts, err := ch.CountFindings(ctx, engine.FindingCountQuery{TenantID: ten.ID, Filter: engine.FindingFilter{AuditID: a.ID}})
	if err != nil || len(counts) != 1 || counts[0].Count != 6 {
		t.Fatalf("snapshot counts = %+v, %v; want 6", counts, err)
	}
	evs, err := pg.ListEvents(ctx, engine.EventQuery{TenantID: ten.ID, Limit: 10})
	if err != nil || len(evs) != 0 {
		t.Fatalf("outbox = %d events, %v; want none", len(evs), err)
	}
}
