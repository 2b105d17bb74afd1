package clickhouse

import (
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
	k.addNew(a, 100)
	k.addNew(a, 50) // an id keeps its first recorded sighting
	k.addNew(odd, 7)
	if got, ok := k.get(a); !ok || got != 100 {
		t.Errorf("get(a) = %d, %v; want 100, true", got, ok)
	}
	if got, ok := k.get(b); ok {
		t.Errorf("get(b) = %d, true; want not known", got)
	}
	if got, ok := k.get(odd); !ok || got != 7 {
		t.Errorf("get(odd) = %d, %v; want 7, true", got, ok)
	}
	if _, ok := k.get("res_legacy-other"); ok {
		t.Error("an unknown undecodable id is known")
	}
	if k.len() != 2 {
		t.Errorf("len = %d, want 2", k.len())
	}
	// The latest sighting a DateTime holds survives the 4-byte value.
	k.addNew(b, 1<<32-1)
	if got, _ := k.get(b); got != 1<<32-1 {
		t.Errorf("get(b) = %d, want %d", got, int64(1<<32-1))
	}
}

// firstSeenKnownBefore is firstSeenKnown as it was before it kept each new
// id's index: the reference for TestFirstSeenKnown.
func firstSeenKnownBefore(rows []resourceRow, k *tenantKnown) ([]time.Time, []string, []time.Time) {
	out := make([]time.Time, len(rows))
	var newIDs []string
	var fresh map[string]time.Time
	for i := range rows {
		id := rows[i].r.ID
		if t, ok := k.get(id); ok {
			out[i] = time.Unix(t, 0).UTC()
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
	return out, newIDs, newFirst
}

func TestFirstSeenKnown(t *testing.T) {
	t0 := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	rnd := rand.New(rand.NewPCG(1, 2))
	for n := range 200 {
		k := newTenantKnown()
		for i := range 20 {
			if i%2 == 0 {
				k.addNew(engine.ResourceID("ten_x", "aws", fmt.Sprint(i)), t0.Unix()-int64(i))
			}
		}
		k.addNew("not-a-resource-id-3", t0.Unix()-100)
		rows := make([]resourceRow, rnd.IntN(30))
		for i := range rows {
			id := engine.ResourceID("ten_x", "aws", fmt.Sprint(rnd.IntN(20)))
			if rnd.IntN(10) == 0 {
				id = fmt.Sprint("not-a-resource-id-", rnd.IntN(5))
			}
			rows[i] = resourceRow{r: engine.Resource{TenantID: "ten_x", ID: id}, firstSeen: t0.Add(time.Duration(rnd.IntN(5)) * time.Second)}
		}
		wantOut, wantIDs, wantFirst := firstSeenKnownBefore(rows, k)
		out, ids, first := firstSeenKnown(rows, k)
		if diff := cmp.Diff([]any{wantOut, wantIDs, wantFirst}, []any{out, ids, first}); diff != "" {
			t.Fatalf("case %d (-before +now)\n%s", n, diff)
		}
	}
}
