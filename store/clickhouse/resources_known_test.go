package clickhouse

import (
	"fmt"
	"testing"

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
