package clickhouse_test

import (
	"context"
	"iter"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// The resource filter reads finding_resources, which the writer fills batch
// by batch and CarryForward fills server-side: both must find a resource's
// findings, written over several batches and carried into the next audit.
func TestResourceFilterAfterCarryForward(t *testing.T) {
	ctx := context.Background()
	s := chtest.NewWithConfig(t, clickhouse.Config{BatchSize: 97})
	const tenant, n = "ten_carry", 1000
	prev := engine.NewID(engine.PrefixAudit, testNow.Add(-time.Hour))
	next := engine.NewID(engine.PrefixAudit, testNow)
	all := collect(genFindings(tenant, n, testNow))
	gone := all[500].ResourceID // its findings are not detected by the next audit
	on := func(resource string) (n int) {
		for _, f := range all {
			if f.ResourceID == resource {
				n++
			}
		}
		return n
	}
	if _, err := s.AppendSnapshot(ctx, tenant, prev, sliceSeq(all)); err != nil {
		t.Fatal(err)
	}
	if err := s.FinalizeSnapshot(ctx, tenant, prev); err != nil {
		t.Fatal(err)
	}
	// Every finding of the resource is carried: the open ones as fixed now,
	// the resolved one (resolved an hour ago) as it was.
	var kept []engine.Finding
	open := 0
	for _, f := range all {
		switch {
		case f.ResourceID != gone:
			kept = append(kept, f)
		case f.Status == engine.StatusOpen:
			open++
		}
	}
	if open == 0 || open == on(gone) {
		t.Fatal("the test needs open and resolved findings on the resource that goes away")
	}
	if _, err := s.AppendSnapshot(ctx, tenant, next, sliceSeq(kept)); err != nil {
		t.Fatal(err)
	}
	if err := s.CarryForward(ctx, tenant, prev, next, testNow, testNow.Add(-24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.FinalizeSnapshot(ctx, tenant, next); err != nil {
		t.Fatal(err)
	}
	other := kept[0].ResourceID
	for _, c := range []struct {
		audit, resource string
		want            int
	}{
		{prev, gone, on(gone)}, {next, gone, on(gone)}, {prev, other, on(other)}, {next, other, on(other)},
	} {
		got := pageAll(t, s, tenant, engine.FindingFilter{AuditID: c.audit, ResourceID: c.resource}, 2)
		if len(got) != c.want {
			t.Errorf("audit %s, resource %s: %d findings, want %d", c.audit, c.resource, len(got), c.want)
		}
		for _, f := range got {
			if f.ResourceID != c.resource {
				t.Errorf("resource filter %s returned a finding of %s", c.resource, f.ResourceID)
			}
			if c.audit == next && c.resource == gone && (f.Status != engine.StatusResolved || f.Resolution != engine.ResolutionFixed) {
				t.Errorf("carried finding %s is %s/%s, want resolved/fixed", f.ID, f.Status, f.Resolution)
			}
		}
	}
}

func collect(seq iter.Seq2[engine.Finding, error]) []engine.Finding {
	var out []engine.Finding
	for f := range seq {
		out = append(out, f)
	}
	return out
}
