package clickhouse

import (
	"math/rand/v2"
	"testing"
)

// An idTable holds what a map would, through growth, updates, and keys
// that share their high or low halves.
func TestIDTable(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	type key struct{ hi, lo uint64 }
	var tab idTable[knownValue]
	want := map[key]knownValue{}
	var keys []key
	for i := range 20_000 {
		var k key
		switch {
		case i > 0 && rnd.IntN(4) == 0: // an update
			k = keys[rnd.IntN(len(keys))]
		case i > 0 && rnd.IntN(10) == 0: // a high half met before
			k = key{keys[rnd.IntN(len(keys))].hi, rnd.Uint64()}
		case rnd.IntN(10) == 0: // small keys, the zero key among them
			k = key{0, uint64(rnd.IntN(50))}
		default:
			k = key{rnd.Uint64(), rnd.Uint64()}
		}
		v := knownValue{hashHi: rnd.Uint32(), hashLo: rnd.Uint32(), first: uint32(i)}
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
		want[k] = v
		tab.set(k.hi, k.lo, v)
		if i%997 == 0 || i == 19_999 {
			if tab.n != len(want) {
				t.Fatalf("after %d sets: %d keys held, want %d", i+1, tab.n, len(want))
			}
			for k, v := range want {
				if got, ok := tab.find(k.hi, k.lo); !ok || got != v {
					t.Fatalf("after %d sets: find(%x, %x) = %v, %v; want %v", i+1, k.hi, k.lo, got, ok, v)
				}
			}
			for range 1000 {
				k := key{rnd.Uint64(), rnd.Uint64()}
				if _, held := want[k]; !held {
					if got, ok := tab.find(k.hi, k.lo); ok {
						t.Fatalf("find(%x, %x) of a key never set = %v", k.hi, k.lo, got)
					}
				}
			}
		}
	}
	if len(tab.slots) > 2*len(want)*8/5 {
		t.Errorf("%d slots for %d keys", len(tab.slots), len(want))
	}
	var empty idTable[knownValue]
	if _, ok := empty.find(0, 0); ok {
		t.Error("an empty table finds the zero key")
	}
	// Reset, it holds nothing, and then what is set again.
	slots := len(tab.slots)
	tab.reset()
	for k := range want {
		if got, ok := tab.find(k.hi, k.lo); ok {
			t.Fatalf("after reset: find(%x, %x) = %v", k.hi, k.lo, got)
		}
	}
	tab.set(1, 2, knownValue{first: 7})
	if got, ok := tab.find(1, 2); !ok || got.first != 7 || tab.n != 1 || len(tab.slots) != slots {
		t.Errorf("after reset and set: %v, %v, %d keys, %d slots (%d before)", got, ok, tab.n, len(tab.slots), slots)
	}
}
