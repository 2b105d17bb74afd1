package clickhouse

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// The batch sort must give exactly what a comparison sort of the full keys
// gives: keys drawn from a small range force long runs of equal packed keys,
// and the strings behind them decide, in both orders a batch is sent in.
func TestSortByMatchesComparisonSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 100, 5000} {
		for _, keyRange := range []uint64{1, 7, 1 << 20, 1 << 63} {
			b := &findingBatch{}
			for i := range n {
				b.findingKey = append(b.findingKey, r.Uint64N(keyRange)<<1)
				b.resourceHash = append(b.resourceHash, r.Uint64N(keyRange))
				b.id.add(string(rune('a'+r.IntN(26))) + string(rune('a'+i%26)))
			}
			order := make([]sortEntry, n)
			tmp := make([]sortEntry, n)
			for i := range order {
				order[i] = sortEntry{key: b.findingKey[i], row: int32(i)}
			}
			got := sortBy(order, tmp, b.compareFindings)
			want := rowsSorted(n, b.compareFindings)
			if !slices.Equal(rowsOf(got), want) {
				t.Fatalf("n=%d range=%d: finding order %v, want %v", n, keyRange, rowsOf(got), want)
			}
			for i := range got {
				got[i].key = b.resourceHash[got[i].row]
			}
			other := tmp
			if n > 0 && &got[0] == &tmp[0] {
				other = order
			}
			got = sortBy(got, other, b.compareResources)
			if want := rowsSorted(n, b.compareResources); !slices.Equal(rowsOf(got), want) {
				t.Fatalf("n=%d range=%d: resource order %v, want %v", n, keyRange, rowsOf(got), want)
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
