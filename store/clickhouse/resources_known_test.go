package clickhouse

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
)

func TestDecodeResourceID(t *testing.T) {
	// Distinct ids decode to distinct keys, and a key is the id's 128 bits.
	seen := map[[16]byte]string{}
	for i := range 20000 {
		id := engine.ResourceID("ten_x", "aws", fmt.Sprint("native-", i))
		key, ok := decodeResourceID(id)
		if !ok {
			t.Fatalf("decodeResourceID(%q) refused a resource id", id)
		}
		if other, dup := seen[key]; dup {
			t.Fatalf("%q and %q decode to the same key", id, other)
		}
		seen[key] = id
	}
	var all [16]byte
	for i := range all {
		all[i] = 0xff
	}
	for _, tt := range []struct {
		id   string
		want [16]byte
	}{
		{"res_00000000000000000000000000", [16]byte{}},
		{"res_00000000000000000000000001", [16]byte{15: 1}},
		{"res_0000000000000000000000000z", [16]byte{15: 31}},
		{"res_00000000000000000000000010", [16]byte{15: 32}},
		{"res_7zzzzzzzzzzzzzzzzzzzzzzzzz", all},
		{"res_40000000000000000000000000", [16]byte{0: 0x80}},
	} {
		got, ok := decodeResourceID(tt.id)
		if !ok || got != tt.want {
			t.Errorf("decodeResourceID(%q) = %x, %v; want %x", tt.id, got, ok, tt.want)
		}
	}
	for _, id := range []string{
		"", "res_", "res_0000000000000000000000000", "res_000000000000000000000000000",
		"fnd_00000000000000000000000000", "res-00000000000000000000000000",
		"res_80000000000000000000000000", // 3 bits in the first character
		"res_0000000000000000000000000u", "res_0000000000000000000000000A", "res_000000000000000000000000\xff0",
	} {
		if key, ok := decodeResourceID(id); ok {
			t.Errorf("decodeResourceID(%q) = %x, want refused", id, key)
		}
	}
}

func TestTenantKnown(t *testing.T) {
	k := newTenantKnown()
	a := engine.ResourceID("ten_x", "aws", "a")
	b := engine.ResourceID("ten_x", "aws", "b")
	odd := "res_legacy-id" // does not decode: kept by its text
	k.record(a, 100, 11)
	k.record(a, 100, 12) // a changed row: its first sighting as decided, the new content's hash
	k.record(odd, 7, 13)
	if got, ok := k.get(a); !ok || got != (knownResource{hash: 12, first: 100}) {
		t.Errorf("get(a) = %+v, %v; want first 100, hash 12", got, ok)
	}
	if got, ok := k.get(b); ok {
		t.Errorf("get(b) = %+v, true; want not known", got)
	}
	if got, ok := k.get(odd); !ok || got != (knownResource{hash: 13, first: 7}) {
		t.Errorf("get(odd) = %+v, %v; want first 7, hash 13", got, ok)
	}
	k.record(odd, 7, 14)
	if got, _ := k.get(odd); got != (knownResource{hash: 14, first: 7}) {
		t.Errorf("get(odd) = %+v; want first 7, hash 14", got)
	}
	if _, ok := k.get("res_legacy-other"); ok {
		t.Error("an unknown undecodable id is known")
	}
	// An id read from the store, recorded with a new content.
	c := engine.ResourceID("ten_x", "aws", "c")
	ck, _ := decodeResourceID(c)
	hi, lo := keyHalves(ck)
	k.loaded = newKnownSet([]knownEntry{{hi, lo, knownResource{hash: 9, first: 5}}})
	if got, ok := k.get(c); !ok || got != (knownResource{hash: 9, first: 5}) {
		t.Errorf("get(c) = %+v, %v; want first 5, hash 9", got, ok)
	}
	k.record(c, 5, 10)
	if got, _ := k.get(c); got != (knownResource{hash: 10, first: 5}) {
		t.Errorf("get(c) after record = %+v; want first 5, hash 10", got)
	}
	// The latest sighting a DateTime holds survives the 4-byte value.
	k.record(b, 1<<32-1, 1)
	if got, _ := k.get(b); got.first != 1<<32-1 {
		t.Errorf("get(b).first = %d, want %d", got.first, int64(1<<32-1))
	}
}

// knownSet finds every id it was built from, with its rows merged, and no
// other, at sizes from empty to a directory of thousands of slots.
func TestKnownSet(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	key := func() [16]byte {
		var k [16]byte
		for i := range k {
			k[i] = byte(rnd.Uint32())
		}
		return k
	}
	for _, n := range []int{0, 1, 2, 31, 33, 100, 5000, 100_000} {
		want := map[[16]byte]knownResource{}
		var entries []knownEntry
		for i := range n {
			k := key()
			if i%7 == 3 { // keys sharing their top 64 bits
				k = [16]byte(append(entries[i-1].keyBytes()[:8:8], k[8:]...))
			}
			kr := knownResource{hash: rnd.Uint64(), version: rnd.Uint64(), first: rnd.Uint32()}
			hi, lo := keyHalves(k)
			entries = append(entries, knownEntry{hi, lo, kr})
			if old, ok := want[k]; ok {
				kr = old.merge(kr)
			}
			want[k] = kr
			if i%5 == 0 { // a second row of the same id
				kr2 := knownResource{hash: rnd.Uint64(), version: rnd.Uint64(), first: rnd.Uint32()}
				entries = append(entries, knownEntry{hi, lo, kr2})
				want[k] = want[k].merge(kr2)
			}
		}
		rnd.Shuffle(len(entries), func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
		set := newKnownSet(entries)
		if len(set.his) != len(want) {
			t.Fatalf("n=%d: %d entries, want %d", n, len(set.his), len(want))
		}
		for k, w := range want {
			got, ok := set.find(k)
			// Versions are distinct: the latest row's hash wins (a tie's
			// winner is not defined, as in the table: TestKnownResourceMerge).
			if !ok || got.first != w.first || got.hash != w.hash {
				t.Fatalf("n=%d: find(%x) = %+v, %v; want %+v", n, k, got, ok, w)
			}
		}
		for range 1000 {
			k := key()
			if _, in := want[k]; !in {
				if got, ok := set.find(k); ok {
					t.Fatalf("n=%d: find(%x) = %+v for an id not in the set", n, k, got)
				}
			}
		}
	}
}

func (e knownEntry) keyBytes() []byte {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, e.hi), e.lo)
}

// An id's rows may come in any order: the earliest first sighting and the
// latest version's hash win.
func TestKnownResourceMerge(t *testing.T) {
	rows := []knownResource{
		{hash: 1, version: 10, first: 500},
		{hash: 2, version: 30, first: 600},
		{hash: 3, version: 20, first: 400},
	}
	for _, p := range [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
		got := rows[p[0]]
		for _, i := range p[1:] {
			got = got.merge(rows[i])
		}
		if got.hash != 2 || got.version != 30 || got.first != 400 {
			t.Errorf("order %v: %+v; want hash 2 of version 30, first 400", p, got)
		}
	}
}

// firstSeenKnownBefore is firstSeenKnown as it was before it kept each new
// id's index: the reference for TestFirstSeenKnown.
// It also returns which rows are unchanged from k's content.
func firstSeenKnownBefore(rows []resourceRow, k *tenantKnown) ([]time.Time, []string, []time.Time, []bool) {
	out := make([]time.Time, len(rows))
	unchanged := make([]bool, len(rows))
	var newIDs []string
	var fresh map[string]time.Time
	for i := range rows {
		id := rows[i].r.ID
		if kr, ok := k.get(id); ok {
			out[i] = time.Unix(int64(kr.first), 0).UTC()
			unchanged[i] = kr.hash == rows[i].hash
			continue
		}
		if fresh == nil {
			fresh = map[string]time.Time{}
		}
		t, ok := fresh[id]
		if !ok {
			newIDs = append(newIDs, id)
		}
		if !ok || rows[i].firstSeen.Before(t) {
			fresh[id] = rows[i].firstSeen
		}
	}
	var newFirst []time.Time
	if fresh != nil {
		for i := range rows {
			if t, ok := fresh[rows[i].r.ID]; ok {
				out[i] = t
			}
		}
		newFirst = make([]time.Time, len(newIDs))
		for i, id := range newIDs {
			newFirst[i] = fresh[id]
		}
	}
	return out, newIDs, newFirst, unchanged
}

func TestFirstSeenKnown(t *testing.T) {
	t0 := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	rnd := rand.New(rand.NewPCG(1, 2))
	for n := range 200 {
		// Ids read from the store, and ids recorded during the write.
		var loaded []knownEntry
		for i := 0; i < 20; i += 4 {
			key, _ := decodeResourceID(engine.ResourceID("ten_x", "aws", fmt.Sprint(i)))
			hi, lo := keyHalves(key)
			loaded = append(loaded, knownEntry{hi, lo, knownResource{hash: uint64(1 + i%3), first: uint32(t0.Unix() - int64(i))}})
		}
		k := newTenantKnown()
		k.loaded = newKnownSet(loaded)
		for i := 2; i < 20; i += 4 {
			id := engine.ResourceID("ten_x", "aws", fmt.Sprint(i))
			if i%8 == 2 {
				k.record(id, t0.Unix()-int64(i), uint64(1+i%3))
				continue
			}
			row := resourceRow{r: engine.Resource{ID: id}, hash: uint64(1 + i%3)}
			row.key, row.keyed = decodeResourceID(id)
			k.recordRow(&row, t0.Unix()-int64(i))
		}
		k.record("not-a-resource-id-3", t0.Unix()-100, 1)
		rows := make([]resourceRow, rnd.IntN(30))
		for i := range rows {
			id := engine.ResourceID("ten_x", "aws", fmt.Sprint(rnd.IntN(20)))
			if rnd.IntN(10) == 0 {
				id = fmt.Sprint("not-a-resource-id-", rnd.IntN(5))
			}
			rows[i] = resourceRow{r: engine.Resource{TenantID: "ten_x", ID: id}, firstSeen: t0.Add(time.Duration(rnd.IntN(5)) * time.Second),
				hash: uint64(1 + rnd.IntN(3))}
			if rnd.IntN(2) == 0 { // as newResourceRow keys a valid id
				rows[i].key, rows[i].keyed = decodeResourceID(id)
			}
		}
		wantOut, wantIDs, wantFirst, wantUnchanged := firstSeenKnownBefore(rows, k)
		out, ids, first := firstSeenKnown(rows, k)
		unchanged := make([]bool, len(rows))
		for i := range rows {
			unchanged[i] = rows[i].unchanged
		}
		if diff := cmp.Diff([]any{wantOut, wantIDs, wantFirst, wantUnchanged}, []any{out, ids, first, unchanged}); diff != "" {
			t.Fatalf("case %d (-before +now)\n%s", n, diff)
		}
	}
}

// Lookups of present ids among 1M, in random order, in the loaded set and
// in the map it replaced (go test ./store/clickhouse -run '^$' -bench
// KnownLookup).
func BenchmarkKnownLookup(b *testing.B) {
	const n = 1_000_000
	rnd := rand.New(rand.NewPCG(5, 6))
	keys := make([][16]byte, n)
	entries := make([]knownEntry, n)
	m := make(map[[16]byte]knownResource, n)
	for i := range keys {
		hi, lo := rnd.Uint64(), rnd.Uint64()
		binary.BigEndian.PutUint64(keys[i][:8], hi)
		binary.BigEndian.PutUint64(keys[i][8:], lo)
		kr := knownResource{hash: uint64(i) + 1, first: uint32(i)}
		entries[i] = knownEntry{hi, lo, kr}
		m[keys[i]] = kr
	}
	set := newKnownSet(entries)
	rnd.Shuffle(n, func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	b.Run("set", func(b *testing.B) {
		for i := range b.N {
			if _, ok := set.find(keys[i%n]); !ok {
				b.Fatal("missing")
			}
		}
	})
	b.Run("map", func(b *testing.B) {
		for i := range b.N {
			if _, ok := m[keys[i%n]]; !ok {
				b.Fatal("missing")
			}
		}
	})
}

// BenchmarkTenantKnownFirstImport is what a first import of 1M resources
// asks of its tenant's known ids, batch after batch of 10k rows (their ids
// decoded by newResourceRow): each id looked up, and not found, then
// recorded.
func BenchmarkTenantKnownFirstImport(b *testing.B) {
	const n, batch = 1_000_000, 10_000
	rows := make([]resourceRow, n)
	for i := range rows {
		rows[i].r.ID = engine.ResourceID("ten_x", "aws", fmt.Sprint("native-", i))
		rows[i].key, rows[i].keyed = decodeResourceID(rows[i].r.ID)
		rows[i].hash = uint64(i)
	}
	for b.Loop() {
		k := newTenantKnown()
		for start := 0; start < n; start += batch {
			chunk := rows[start : start+batch]
			for i := range chunk {
				if _, ok := k.getRow(&chunk[i]); ok {
					b.Fatal("an id found before it was recorded")
				}
			}
			for i := range chunk {
				k.recordRow(&chunk[i], int64(1_800_000_000+i))
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/id")
}
