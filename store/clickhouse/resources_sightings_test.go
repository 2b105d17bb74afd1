package clickhouse_test

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// countRows counts a tenant's rows in a table.
func countRows(t *testing.T, s *clickhouse.Store, table, tenantID string) int {
	t.Helper()
	got, err := s.QueryStrings(context.Background(),
		"SELECT toString(count()) FROM "+table+" WHERE tenant_id = '"+tenantID+"'")
	if err != nil || len(got) != 1 {
		t.Fatalf("count %s: %v %v", table, got, err)
	}
	n, _ := strconv.Atoi(got[0])
	return n
}

// readAll reads a tenant's resources by every read path, each sorted by id:
// pages (unfiltered and by type), lookups by id (whole and narrow, with and
// without the last sighting), one by one, and the stream.
func readAll(t *testing.T, s *clickhouse.Store, tenantID string, ids []string) map[string][]engine.Resource {
	t.Helper()
	ctx := context.Background()
	out := map[string][]engine.Resource{}
	limit := 97 // pages that cut the inventory at odd places; a few dozen of them
	if len(ids) > 1000 {
		limit = 1499
	}
	after := ""
	for {
		page, err := s.ListResources(ctx, engine.ResourceQuery{TenantID: tenantID, AfterID: after, Limit: limit})
		if err != nil {
			t.Fatalf("ListResources: %v", err)
		}
		out["list"] = append(out["list"], page...)
		if len(page) < limit {
			break
		}
		after = page[len(page)-1].ID
	}
	for _, typ := range []string{"aws_s3_bucket", "aws_instance"} {
		after := ""
		for {
			page, err := s.ListResources(ctx, engine.ResourceQuery{TenantID: tenantID, Filter: engine.ResourceFilter{Type: typ}, AfterID: after, Limit: limit})
			if err != nil {
				t.Fatalf("ListResources(type %s): %v", typ, err)
			}
			out["list by type"] = append(out["list by type"], page...)
			if len(page) < limit {
				break
			}
			after = page[len(page)-1].ID
		}
	}
	slices.SortFunc(out["list by type"], byID)
	var err error
	if out["get many"], err = s.GetResources(ctx, tenantID, ids); err != nil {
		t.Fatalf("GetResources: %v", err)
	}
	for name, f := range map[string]engine.ResourceFields{"narrow": {LastSeen: true}, "narrow without last seen": {}} {
		narrow, err := s.GetResourcesPartial(ctx, tenantID, ids, f)
		if err != nil {
			t.Fatalf("GetResourcesPartial: %v", err)
		}
		for _, r := range narrow {
			out[name] = append(out[name], engine.Resource{ID: r.ID, FirstSeenAt: r.FirstSeenAt, LastSeenAt: r.LastSeenAt})
		}
	}
	for _, id := range []string{ids[0], ids[len(ids)/2], ids[len(ids)-1]} {
		r, err := s.GetResource(ctx, tenantID, id)
		if err != nil {
			t.Fatalf("GetResource(%s): %v", id, err)
		}
		out["get"] = append(out["get"], r)
	}
	err = s.StreamResources(ctx, tenantID, func(r engine.Resource) error {
		out["stream"] = append(out["stream"], r)
		return nil
	})
	if err != nil {
		t.Fatalf("StreamResources: %v", err)
	}
	return out
}

// checkReads compares every read path with want (sorted by id).
func checkReads(t *testing.T, s *clickhouse.Store, tenantID string, want []engine.Resource) {
	t.Helper()
	ids := make([]string, len(want))
	for i, r := range want {
		ids[i] = r.ID
	}
	for path, got := range readAll(t, s, tenantID, ids) {
		w := want
		switch path {
		case "narrow":
			w = make([]engine.Resource, len(want))
			for i, r := range want {
				w[i] = engine.Resource{ID: r.ID, FirstSeenAt: r.FirstSeenAt, LastSeenAt: r.LastSeenAt}
			}
		case "narrow without last seen": // left zero, not stale
			w = make([]engine.Resource, len(want))
			for i, r := range want {
				w[i] = engine.Resource{ID: r.ID, FirstSeenAt: r.FirstSeenAt}
			}
		case "get":
			w = []engine.Resource{want[0], want[len(want)/2], want[len(want)-1]}
		}
		if diff := gocmp.Diff(w, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", path, diff)
		}
	}
}

// A resource observed again with the same content is stored as a sighting,
// not a whole row, and every read shows its later last_seen_at; a changed
// one is written whole; so is a row from before content hashes. Through
// both ways a bulk write decides what it has (a lookup per batch, and the
// tenant's ids read whole) and through the streaming writer.
func TestReobservedResourcesAreSightings(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	t0 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	t1, t2, t3 := t0.Add(24*time.Hour), t0.Add(48*time.Hour), t0.Add(72*time.Hour)
	for _, tc := range []struct {
		name  string
		n     int
		write func(t *testing.T, tenantID string, rs []engine.Resource)
	}{
		{"lookup per batch", 300, func(t *testing.T, tenantID string, rs []engine.Resource) {
			mustWriteResources(t, s, tenantID, rs)
		}},
		{"ids read whole", 6000, func(t *testing.T, tenantID string, rs []engine.Resource) {
			mustWriteResources(t, s, tenantID, rs)
		}},
		// Sightings gathered across batches into INSERTs of 1,000, the
		// rest written at the end of the write.
		{"ids read whole, sightings gathered", 6500, func(t *testing.T, tenantID string, rs []engine.Resource) {
			clickhouse.SetSightingFlushRows(t, 1000)
			res := mustWriteResources(t, s, tenantID, rs)
			if res.Written != int64(len(rs)) {
				t.Errorf("written %d, want %d", res.Written, len(rs))
			}
		}},
		{"streaming writer", 300, func(t *testing.T, tenantID string, rs []engine.Resource) {
			w := s.NewResourceWriter(clickhouse.ResourceWriterConfig{BatchSize: 100, FlushInterval: -1})
			for _, r := range rs {
				if err := w.Write(ctx, tenantID, r); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(ctx); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tenant := "ten_seen" + strconv.Itoa(tc.n) + tc.name[:4]
			var rs []engine.Resource
			for i := range tc.n {
				rs = append(rs, genResource(tenant, i, t0))
			}
			tc.write(t, tenant, rs)
			want := append([]engine.Resource(nil), rs...)
			slices.SortFunc(want, byID)

			// The same inventory a day later: sightings only. (It claims a
			// later first sighting, which never wins over the stored one.)
			again := make([]engine.Resource, len(rs))
			for i := range rs {
				again[i] = genResource(tenant, i, t1)
			}
			tc.write(t, tenant, again)
			if got := countRows(t, s, "resources", tenant); got != tc.n {
				t.Errorf("resources rows after an unchanged re-import: %d, want %d", got, tc.n)
			}
			if got := countRows(t, s, "resource_sightings", tenant); got != tc.n {
				t.Errorf("sightings after an unchanged re-import: %d, want %d", got, tc.n)
			}
			for i := range want {
				want[i].LastSeenAt = t1
			}
			checkReads(t, s, tenant, want)

			// Resource 0 renamed; resource 1 observed twice in one batch,
			// changed (at t2) and unchanged (at t1.5): both written whole,
			// so that the sighting does not stand for replaced content.
			r0 := genResource(tenant, 0, t2)
			r0.Name = "renamed"
			r1 := genResource(tenant, 1, t2)
			r1.Attributes = []byte(`{"versioning":true,"mfa_delete":true}`)
			r1old := genResource(tenant, 1, t1.Add(12*time.Hour))
			tc.write(t, tenant, []engine.Resource{r1old, r0, r1, genResource(tenant, 2, t2)})
			if got := countRows(t, s, "resources", tenant); got != tc.n+3 {
				t.Errorf("resources rows after a change: %d, want %d", got, tc.n+3)
			}
			for i := range want {
				switch want[i].ID {
				case r0.ID:
					want[i].Name, want[i].LastSeenAt = "renamed", t2
				case r1.ID:
					want[i].Attributes, want[i].LastSeenAt = r1.Attributes, t2
				case rs[2].ID:
					want[i].LastSeenAt = t2
				}
			}
			checkReads(t, s, tenant, want)

			if tc.name == "ids read whole, sightings gathered" {
				return // the rest takes the path of "ids read whole"
			}
			// A row written before content hashes (content_hash 0) matches
			// nothing: its next observation is written whole, with a hash.
			if err := s.AlterLocal(ctx, "resources", "UPDATE content_hash = 0 WHERE tenant_id = '"+tenant+
				"' AND id = '"+rs[3].ID+"'"); err != nil {
				t.Fatal(err)
			}
			if err := s.WaitForMutations(ctx); err != nil {
				t.Fatal(err)
			}
			tc.write(t, tenant, []engine.Resource{genResource(tenant, 3, t3)})
			tc.write(t, tenant, []engine.Resource{genResource(tenant, 3, t3.Add(time.Hour))})
			if got := countRows(t, s, "resources", tenant); got != tc.n+4 {
				t.Errorf("resources rows after re-observing a row without a hash twice: %d, want %d", got, tc.n+4)
			}
			for i := range want {
				if want[i].ID == rs[3].ID {
					want[i].LastSeenAt = t3.Add(time.Hour)
				}
			}
			checkReads(t, s, tenant, want)

			// Another tenant's sighting of the same id changes nothing here.
			b, err := s.PrepareBatch(ctx, "INSERT INTO resource_sightings (tenant_id, id, last_seen_at)")
			if err != nil {
				t.Fatal(err)
			}
			if err := b.Append("ten_intruder"+tenant, rs[4].ID, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil {
				t.Fatal(err)
			}
			if err := b.Send(); err != nil {
				t.Fatal(err)
			}
			if got := countRows(t, s, "resource_sightings", "ten_intruder"+tenant); got != 1 {
				t.Fatalf("intruder's sightings: %d, want 1", got)
			}
			checkReads(t, s, tenant, want)
		})
	}
}
