package clickhouse

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// The batch sort must give exactly what a comparison sort of the full keys
// gives: ids that share their first bytes (all of sortKey's) force long runs
// of equal packed keys, and the strings behind them decide, in both orders
// a batch is sent in.
func TestSortByMatchesComparisonSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 100, 5000} {
		for _, alphabet := range []string{"a", "ab", "abcdefghijklmnopqrstuvwxyz0123456789"} {
			b := &findingBatch{}
			hashes := make([]uint64, n)
			for i := range n {
				id := []byte("fnd_")
				for range 7 + r.IntN(4) {
					id = append(id, alphabet[r.IntN(len(alphabet))])
				}
				b.id.add(string(id))
				b.sevOrder = append(b.sevOrder, uint8(r.IntN(len(alphabet))%5))
				hashes[i] = r.Uint64N(uint64(len(alphabet)) * 3)
			}
			order := make([]sortEntry, n)
			tmp := make([]sortEntry, n)
			for i := range order {
				order[i] = sortEntry{key: b.key(i), row: int32(i)}
			}
			got := sortBy(order, tmp, b.compareFindings)
			want := rowsSorted(n, b.compareFindings)
			if !slices.Equal(rowsOf(got), want) {
				t.Fatalf("n=%d alphabet=%q: finding order %v, want %v", n, alphabet, rowsOf(got), want)
			}
			for i := range got {
				got[i].key = hashes[got[i].row]
			}
			other := tmp
			if n > 0 && &got[0] == &tmp[0] {
				other = order
			}
			got = sortBy(got, other, b.compareResources(hashes))
			if want := rowsSorted(n, b.compareResources(hashes)); !slices.Equal(rowsOf(got), want) {
				t.Fatalf("n=%d alphabet=%q: resource order %v, want %v", n, alphabet, rowsOf(got), want)
			}
		}
	}
}

func rowsOf(order []sortEntry) []int32 {
	out := make([]int32, len(order))
	for i, e := range order {
		out[i] = e.row
	}
	return out
}

// rowsSorted is the rows 0..n-1 sorted by c, ties by row number (the
// batch's own order, which a stable sort keeps).
func rowsSorted(n int, c func(a, b int32) int) []int32 {
	rows := make([]int32, n)
	for i := range rows {
		rows[i] = int32(i)
	}
	slices.SortFunc(rows, func(a, b int32) int {
		if x := c(a, b); x != 0 {
			return x
		}
		return cmp.Compare(a, b)
	})
	return rows
}

func TestStringDict(t *testing.T) {
	var d stringDict
	for i, s := range []string{"a", "a", "b", "a", "", "b", ""} {
		c := d.code(s)
		if d.values[c] != s {
			t.Fatalf("value %d: code %d decodes to %q, want %q", i, c, d.values[c], s)
		}
	}
	if !slices.Equal(d.values, []string{"a", "b", ""}) {
		t.Fatalf("values %q, want a, b and the empty string once each", d.values)
	}
}

// A byte column gives back each value as added, empty ones included, and
// after a reset holds only what is added next.
func TestByteColumn(t *testing.T) {
	var c byteColumn
	for range 2 {
		values := []string{"fnd_a", "", `{"k":"v"}`, "", "x"}
		for i, v := range values {
			if i%2 == 0 {
				c.add(v)
			} else {
				c.addBytes([]byte(v))
			}
		}
		if len(c.end) != len(values) {
			t.Fatalf("%d values, want %d", len(c.end), len(values))
		}
		for i, v := range values {
			if got := string(c.at(i)); got != v {
				t.Fatalf("value %d = %q, want %q", i, got, v)
			}
		}
		// A value cannot grow into its neighbour through append.
		if got := cap(c.at(0)); got != len("fnd_a") {
			t.Fatalf("cap of value 0 = %d, want %d", got, len("fnd_a"))
		}
		c.reset()
	}
}

// BenchmarkGatherSorted is the sorted gather of a batch's string columns at
// send time: 30-byte ids read in a random order from a batch of 100k and of
// 500k rows, to measure what a larger batch costs a value once its columns
// outgrow the caches (docs/benchmarks.md, session 8).
func BenchmarkGatherSorted(b *testing.B) {
	for _, n := range []int{100_000, 500_000} {
		var col byteColumn
		r := rand.New(rand.NewPCG(1, 2))
		for range n {
			col.add(fmt.Sprintf("fnd_%026x", r.Uint64()))
		}
		order := make([]sortEntry, n)
		for i := range order {
			order[i] = sortEntry{key: r.Uint64(), row: int32(i)}
		}
		order = radixSort(order, make([]sortEntry, n))
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dst := make([]byte, 0, len(col.data))
			for b.Loop() {
				dst = dst[:0]
				for _, e := range order {
					dst = append(dst, col.at(int(e.row))...)
				}
			}
			if len(dst) != len(col.data) {
				b.Fatalf("gathered %d bytes, want %d", len(dst), len(col.data))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/value")
		})
	}
}

// The buckets of a run, each sorted and sent after the one before, are the
// whole run in the table's order (sev_order, then id): the server finds
// the run's part sorted. The first run sets the buckets' ranges, which
// split the later runs about evenly, with a severity skew like an audit's.
func TestRunBucketsFollowTableOrder(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	r := rand.New(rand.NewPCG(3, 4))
	skew := []engine.Severity{engine.SeverityCritical, engine.SeverityHigh, engine.SeverityHigh,
		engine.SeverityMedium, engine.SeverityMedium, engine.SeverityMedium, engine.SeverityLow, engine.SeverityInfo}
	finding := func() engine.Finding {
		res := engine.ResourceID("ten_a", "aws", fmt.Sprint("arn:", r.Uint64()))
		rule := fmt.Sprint("rule-", r.IntN(60))
		return engine.Finding{ID: engine.FindingID("ten_a", rule, res), ResourceID: res, RuleID: rule,
			Severity: skew[r.IntN(len(skew))], Dimension: engine.Dimensions[r.IntN(len(engine.Dimensions))],
			Status: engine.StatusOpen, Provider: "aws", Account: "123456789012", Region: "eu-west-1",
			ResourceType: "aws_s3_bucket", FirstSeenAt: now, LastSeenAt: now}
	}
	app := &batchAppender{dicts: new(snapshotDicts)}
	fill := func(run *findingRun, n int) {
		for range n {
			f := finding()
			if _, _, err := app.add(run, &f); err != nil {
				t.Fatal(err)
			}
		}
	}
	first := mustNewFindingRun(t, nil)
	fill(first, 2000)
	splitters := first.learnSplitters()
	if len(splitters) != runBuckets-1 {
		t.Fatalf("splitters %x, want %d", splitters, runBuckets-1)
	}
	run := mustNewFindingRun(t, splitters)
	const n = 20000
	fill(run, n)
	type row struct {
		sevOrder uint8
		id       string
	}
	var sent []row
	for i, b := range run.buckets {
		if b.len() < n/runBuckets/2 || b.len() > 2*n/runBuckets {
			t.Errorf("bucket %d holds %d of %d findings", i, b.len(), n)
		}
		order := make([]sortEntry, b.len())
		for j := range order {
			order[j] = sortEntry{key: b.key(j), row: int32(j)}
		}
		for _, e := range sortBy(order, make([]sortEntry, len(order)), b.compareFindings) {
			sent = append(sent, row{b.sevOrder[e.row], string(b.id.at(int(e.row)))})
		}
	}
	if len(sent) != n {
		t.Fatalf("sent %d rows, want %d", len(sent), n)
	}
	if !slices.IsSortedFunc(sent, func(a, b row) int {
		return cmp.Or(cmp.Compare(a.sevOrder, b.sevOrder), cmp.Compare(a.id, b.id))
	}) {
		t.Error("the run's buckets, each sorted, are not in the table's order one after the other")
	}
	// Too few findings to tell: the next runs stay whole.
	small := mustNewFindingRun(t, nil)
	fill(small, 10)
	if got := small.learnSplitters(); got != nil {
		t.Errorf("splitters from 10 findings: %x, want none", got)
	}
}

func mustNewFindingRun(t *testing.T, splitters []uint64) *findingRun {
	t.Helper()
	r, err := newFindingRun(splitters, newBucket)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
