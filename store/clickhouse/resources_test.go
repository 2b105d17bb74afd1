package clickhouse_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// genResource is the i-th resource of a tenant, as observed at seen.
func genResource(tenantID string, i int, seen time.Time) engine.Resource {
	native := "arn:aws:s3:::bucket-" + strconv.Itoa(i)
	return engine.Resource{
		ID: engine.ResourceID(tenantID, "aws", native), TenantID: tenantID,
		Provider: "aws", Account: "acct-" + strconv.Itoa(i%3), Region: "region-" + strconv.Itoa(i%4),
		Type: []string{"aws_s3_bucket", "aws_instance"}[i%2], NativeID: native, Name: "bucket-" + strconv.Itoa(i),
		Tags:        engine.TagsFromMap(map[string]string{"env": "prod", "team": "t" + strconv.Itoa(i%5)}),
		Attributes:  json.RawMessage(`{"versioning":` + strconv.FormatBool(i%2 == 0) + `}`),
		FirstSeenAt: seen, LastSeenAt: seen,
	}
}

func mustWriteResources(t *testing.T, s *clickhouse.Store, tenantID string, rs []engine.Resource) engine.WriteResourcesResult {
	t.Helper()
	res, err := s.WriteResources(context.Background(), tenantID, sliceSeq(rs))
	if err != nil {
		t.Fatalf("WriteResources: %v", err)
	}
	return res
}

func byID(a, b engine.Resource) int { return strings.Compare(a.ID, b.ID) }

func TestResourcesLatestObservation(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	t0 := testNow
	t1 := t0.Add(time.Hour)
	var first []engine.Resource
	for i := range 300 {
		first = append(first, genResource("ten_a", i, t0))
	}
	res := mustWriteResources(t, s, "ten_a", first)
	wantNew := make([]string, len(first))
	for i, r := range first {
		wantNew[i] = r.ID
	}
	if diff := gocmp.Diff(engine.WriteResourcesResult{Written: 300, NewIDs: wantNew}, res); diff != "" {
		t.Errorf("first write (-want +got):\n%s", diff)
	}
	// Tenant B has the same objects: they are separate resources.
	var other []engine.Resource
	for i := range 50 {
		r := genResource("ten_b", i, t0)
		r.ID = first[i].ID
		other = append(other, r)
	}
	mustWriteResources(t, s, "ten_b", other)

	// The second sighting changes the first 100, adds 20 new ones, and
	// claims a later first sighting, which must not win over the stored one.
	var second []engine.Resource
	want := slices.Clone(first)
	for i := range 120 {
		r := genResource("ten_a", i, t1)
		r.Name = "renamed-" + strconv.Itoa(i)
		r.Tags = engine.TagsFromMap(map[string]string{"env": "staging"})
		if i < 100 {
			want[i] = r
			want[i].FirstSeenAt = t0
		} else {
			r = genResource("ten_a", 1000+i, t1)
			r.FirstSeenAt = time.Time{} // unknown: first seen now
			w := r
			w.FirstSeenAt = t1
			want = append(want, w)
		}
		second = append(second, r)
	}
	res = mustWriteResources(t, s, "ten_a", second)
	var wantNew2 []string
	for _, r := range second[100:] {
		wantNew2 = append(wantNew2, r.ID)
	}
	if diff := gocmp.Diff(engine.WriteResourcesResult{Written: 120, NewIDs: wantNew2}, res); diff != "" {
		t.Errorf("second write (-want +got):\n%s", diff)
	}
	slices.SortFunc(want, byID)

	t.Run("list", func(t *testing.T) {
		for _, f := range []engine.ResourceFilter{{}, {Type: "aws_instance"}, {Account: "acct-1", Region: "region-2"}, {Provider: "gcp"}} {
			for _, limit := range []int{1, 7, 200} {
				var wantF []engine.Resource
				for _, r := range want {
					if (f.Type == "" || r.Type == f.Type) && (f.Provider == "" || r.Provider == f.Provider) &&
						(f.Account == "" || r.Account == f.Account) && (f.Region == "" || r.Region == f.Region) {
						wantF = append(wantF, r)
					}
				}
				if limit == 1 && len(wantF) > 100 {
					continue // hundreds of round trips add nothing
				}
				var got []engine.Resource
				after := ""
				for {
					page, err := s.ListResources(ctx, engine.ResourceQuery{TenantID: "ten_a", Filter: f, AfterID: after, Limit: limit})
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, page...)
					if len(page) < limit {
						break
					}
					after = page[len(page)-1].ID
				}
				if diff := gocmp.Diff(wantF, got); diff != "" {
					t.Errorf("%+v limit %d (-want +got):\n%s", f, limit, diff)
				}
			}
		}
	})
	t.Run("get", func(t *testing.T) {
		got, err := s.GetResource(ctx, "ten_a", want[5].ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := gocmp.Diff(want[5], got); diff != "" {
			t.Errorf("GetResource (-want +got):\n%s", diff)
		}
		for _, id := range []string{engine.ResourceID("ten_a", "aws", "nope"), "res_'"} {
			if _, err := s.GetResource(ctx, "ten_a", id); !engine.IsNotFound(err) {
				t.Errorf("GetResource(%q) err = %v, want not_found", id, err)
			}
		}
		gotB, err := s.GetResource(ctx, "ten_b", first[0].ID)
		if err != nil || gotB.Name != other[0].Name || gotB.TenantID != "ten_b" {
			t.Errorf("tenant B's resource = %+v, %v; want its own", gotB, err)
		}
	})
	t.Run("get many", func(t *testing.T) {
		ids := []string{want[3].ID, "res_missing", want[1].ID, want[3].ID, want[300].ID}
		got, err := s.GetResources(ctx, "ten_a", ids)
		if err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(got, byID)
		if diff := gocmp.Diff([]engine.Resource{want[1], want[3], want[300]}, got); diff != "" {
			t.Errorf("GetResources (-want +got):\n%s", diff)
		}
	})
	t.Run("stream", func(t *testing.T) {
		var got []engine.Resource
		if err := s.StreamResources(ctx, "ten_a", func(r engine.Resource) error {
			got = append(got, r)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if diff := gocmp.Diff(want, got); diff != "" {
			t.Errorf("StreamResources (-want +got):\n%s", diff)
		}
	})
}

func TestWriteResourcesBadInput(t *testing.T) {
	s := chtest.New(t)
	good := genResource("ten_a", 1, testNow)
	badID := genResource("ten_a", 2, testNow)
	badID.ID = "i-123"
	badTime := genResource("ten_a", 4, testNow)
	badTime.LastSeenAt = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		tenant string
		rs     []engine.Resource
	}{
		{"no tenant", "", []engine.Resource{good}},
		{"bad id", "ten_a", []engine.Resource{good, badID}},
		{"time after 2106", "ten_a", []engine.Resource{good, badTime}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.WriteResources(context.Background(), tt.tenant, sliceSeq(tt.rs))
			if code := engine.ErrorCode(err); code != engine.CodeValidationFailed {
				t.Errorf("code = %q (%v), want validation_failed", code, err)
			}
		})
	}
}

func TestResourceWriterFlushesOnSizeAndInterval(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	var news []string
	w := s.NewResourceWriter(clickhouse.ResourceWriterConfig{BatchSize: 3, FlushInterval: 50 * time.Millisecond,
		OnNew: func(tenant string, ids []string) { news = append(news, fmt.Sprintf("%s:%d", tenant, len(ids))) }})
	for i := range 4 {
		if err := w.Write(ctx, "ten_a", genResource("ten_a", i, testNow)); err != nil {
			t.Fatal(err)
		}
	}
	if got := w.Written(); got != 3 {
		t.Errorf("after 4 writes with batch size 3: written = %d, want 3", got)
	}
	deadline := time.Now().Add(10 * time.Second)
	for w.Written() != 4 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := w.Written(); got != 4 {
		t.Errorf("the timer did not flush the 4th row: written = %d", got)
	}
	if err := w.Write(ctx, "ten_b", genResource("ten_b", 9, testNow)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff([]string{"ten_a:3", "ten_a:1", "ten_b:1"}, news); diff != "" {
		t.Errorf("OnNew calls (-want +got):\n%s", diff)
	}
	if err := w.Write(ctx, "ten_a", genResource("ten_a", 5, testNow)); err == nil {
		t.Error("Write after Close succeeded")
	}
}

func TestResourceWriterSurfacesErrorsAndKeepsRows(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	w := s.NewResourceWriter(clickhouse.ResourceWriterConfig{BatchSize: 100, FlushInterval: -1})
	for i := range 10 {
		if err := w.Write(ctx, "ten_a", genResource("ten_a", i, testNow)); err != nil {
			t.Fatal(err)
		}
	}
	// The table goes away under the writer: the flush fails and says so.
	mustExec(t, s, "RENAME TABLE resources TO resources_away")
	if err := w.Flush(ctx); err == nil {
		t.Fatal("Flush into a missing table succeeded")
	}
	if err := w.Close(ctx); err == nil {
		t.Fatal("Close into a missing table succeeded")
	}
	if got := w.Pending(); got != 10 {
		t.Fatalf("pending after failed flushes = %d, want 10 (nothing dropped)", got)
	}
	mustExec(t, s, "RENAME TABLE resources_away TO resources")
	if err := w.Close(ctx); err != nil {
		t.Fatalf("Close after the table is back: %v", err)
	}
	if got, pending := w.Written(), w.Pending(); got != 10 || pending != 0 {
		t.Errorf("written, pending = %d, %d; want 10, 0", got, pending)
	}
	var n uint64
	mustQueryRow(t, s, "SELECT count() FROM resources", &n)
	if n != 10 {
		t.Errorf("table has %d rows, want 10", n)
	}
}
