package clickhouse_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// An inserter's INSERTs share its scratch: the second INSERT, of fewer,
// shorter and different values, must write its own values only, none of
// the first's left in the scratch.
func TestInsertsShareScratch(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	res := func(i int, width int) engine.Resource {
		r := genResource("ten_lend", i, testNow)
		r.Name = strings.Repeat(strconv.Itoa(i), width)
		r.Tags = engine.Tags{}
		for k := range width % 5 {
			r.Tags = append(r.Tags, engine.Tag{Key: "k" + strconv.Itoa(k), Value: strings.Repeat("v", width+k)})
		}
		r.Attributes = json.RawMessage(`{"pad":"` + strings.Repeat("p", 10*width) + `"}`)
		return r
	}
	var first, second []engine.Resource
	for i := range 300 {
		first = append(first, res(i, 40+i%7))
	}
	for i := 1000; i < 1100; i++ {
		second = append(second, res(i, i%4))
	}
	var sc clickhouse.ResourceScratch
	if err := s.InsertResources(ctx, &sc, "ten_lend", first); err != nil {
		t.Fatal(err)
	}
	if err := s.InsertResources(ctx, &sc, "ten_lend", second); err != nil {
		t.Fatal(err)
	}
	all := append(slices.Clone(first), second...)
	var ids []string
	for _, r := range all {
		ids = append(ids, r.ID)
	}
	got, err := s.GetResources(ctx, "ten_lend", ids)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]engine.Resource{}
	for _, r := range got {
		byID[r.ID] = r
	}
	if len(byID) != len(all) {
		t.Fatalf("read back %d resources, want %d", len(byID), len(all))
	}
	for _, want := range all {
		r := byID[want.ID]
		if r.Name != want.Name || r.NativeID != want.NativeID || r.Account != want.Account ||
			string(r.Attributes) != string(want.Attributes) || !slices.Equal(r.Tags, want.Tags) {
			t.Fatalf("resource %s read back as %+v, want %+v", want.ID, r, want)
		}
	}
}
