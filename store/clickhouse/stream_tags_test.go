package clickhouse_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// StreamResources reads tags packed into one string (the audit's read):
// keys and values with separators, digits, NUL bytes, multi-byte UTF-8 and
// empty values, many tags and none, come back as GetResources reads them
// from the arrays, and as written.
func TestStreamResourcesOddTags(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	odd := []string{"", "1:a", "12:", ":", "0:", "x\x00y", "café ☃ 𝄞", "9999999999:", "a,b", strings.Repeat("é", 128)}
	var want []engine.Resource
	for i := range 40 {
		r := genResource("ten_tags", i, testNow)
		m := map[string]string{}
		switch i % 4 {
		case 0:
			m = nil
		case 1:
			for j, v := range odd {
				if k := odd[(j+i)%len(odd)]; k != "" {
					m[k] = v
				}
			}
		case 2:
			for j := range 30 {
				m["k"+strconv.Itoa(j)] = strings.Repeat("v", j)
			}
		case 3:
			m[":"+strconv.Itoa(i)] = "1:" + strconv.Itoa(i)
		}
		r.Tags = engine.TagsFromMap(m)
		if r.Tags == nil {
			r.Tags = engine.Tags{}
		}
		want = append(want, r)
	}
	mustWriteResources(t, s, "ten_tags", want)
	slices.SortFunc(want, byID)
	var got []engine.Resource
	if err := s.StreamResources(ctx, "ten_tags", func(r engine.Resource) error {
		got = append(got, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("StreamResources (-want +got):\n%s", diff)
	}
	ids := make([]string, len(want))
	for i, r := range want {
		ids[i] = r.ID
	}
	arrays, err := s.GetResources(ctx, "ten_tags", ids)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(arrays, byID)
	if diff := gocmp.Diff(arrays, got); diff != "" {
		t.Errorf("StreamResources against GetResources (-arrays +packed):\n%s", diff)
	}
}

// StreamResources reads a chunk in blocks of StreamBlockRows rows (the
// audit's peak heap): resources across several blocks of one chunk come
// back whole, once each, in id order.
func TestStreamResourcesManyBlocks(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	n := 3*clickhouse.StreamBlockRows + 17
	want := make([]engine.Resource, n)
	for i := range want {
		want[i] = genResource("ten_blocks", i, testNow)
	}
	mustWriteResources(t, s, "ten_blocks", want)
	slices.SortFunc(want, byID)
	var got []engine.Resource
	if err := s.StreamResources(ctx, "ten_blocks", func(r engine.Resource) error {
		got = append(got, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Fatalf("streamed %d resources, wrote %d", len(got), n)
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("StreamResources (-want +got):\n%s", diff)
	}
}
