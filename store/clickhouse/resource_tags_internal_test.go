package clickhouse

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// tagTestRows are n resource rows of one tenant, sorted by id as the
// writers' are, each with three tags of few values (as inventories have).
func tagTestRows(n int) ([]resourceRow, []sortEntry) {
	rows := make([]resourceRow, n)
	for i := range rows {
		rows[i].r = engine.Resource{TenantID: "ten_bench", ID: engine.ResourceID("ten_bench", "aws", "arn:"+strconv.Itoa(i)),
			Tags: engine.TagsFromMap(map[string]string{"env": []string{"prod", "dev", "staging"}[i%3],
				"team": "team-" + strconv.Itoa(i%17), "owner": "owner-" + strconv.Itoa(i%250)})}
	}
	slices.SortFunc(rows, func(a, b resourceRow) int { return compareStrings(a.r.ID, b.r.ID) })
	order := make([]sortEntry, n)
	for i := range order {
		order[i].row = int32(i)
	}
	return rows, order
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestTagRowsSorted: the tag index's rows are in the table's key order
// (tenant, tag), one per tag of each resource, with the keys of tenantHash
// and tagHash.
func TestTagRowsSorted(t *testing.T) {
	rows, order := tagTestRows(5000)
	var tr tagRows
	var c rowColumns
	c.gather(rows[:2500], order[:2500], make([]time.Time, len(rows)))
	tr.add(&c)
	c.gather(rows, order[2500:], make([]time.Time, len(rows))) // a second batch of the same INSERT
	tr.add(&c)
	tr.sort()
	if tr.len() != 3*len(rows) {
		t.Fatalf("%d rows, want %d", tr.len(), 3*len(rows))
	}
	type key struct {
		tenant, tag uint64
		id          string
	}
	var got []key
	want := map[key]bool{}
	for _, r := range rows {
		for _, tg := range r.r.Tags {
			want[key{tenantHash(r.r.TenantID), tagHash(tg.Key, tg.Value), r.r.ID}] = true
		}
	}
	for _, e := range tr.rows {
		k := key{e.tenant, e.tag, string(tr.ids.at(int(e.id)))}
		if !want[k] {
			t.Fatalf("row %+v is no tag of a resource", k)
		}
		delete(want, k)
		got = append(got, k)
	}
	if len(want) > 0 {
		t.Errorf("%d tags of the resources have no row", len(want))
	}
	if !slices.IsSortedFunc(got, func(a, b key) int {
		if a.tenant != b.tenant {
			return compareUint(a.tenant, b.tenant)
		}
		if a.tag != b.tag {
			return compareUint(a.tag, b.tag)
		}
		return 0
	}) {
		t.Error("the rows are not in the key's order")
	}
}

func compareUint(a, b uint64) int {
	if a < b {
		return -1
	}
	return 1
}

// BenchmarkTagRows: gathering and sorting the tag index's rows of 100k
// resources with three tags each (an INSERT's worth), per resource, from
// the batches' gathered columns.
func BenchmarkTagRows(b *testing.B) {
	rows, order := tagTestRows(100_000)
	var tr tagRows
	// The batches' columns, gathered as an inserter does before it adds
	// their index rows (rowColumns): outside the timing.
	firstSeen := make([]time.Time, len(rows))
	batches := make([]rowColumns, len(order)/10_000)
	for i := range batches {
		batches[i].gather(rows, order[i*10_000:(i+1)*10_000], firstSeen)
	}
	b.ResetTimer()
	for range b.N {
		for i := range batches {
			tr.add(&batches[i])
		}
		tr.sort()
		tr.reset()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(rows)), "ns/resource")
}
