package clickhouse

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// mustIDKey is the stored form of a well-formed finding id.
func mustIDKey(t testing.TB, id string) string {
	t.Helper()
	k, ok := findingIDKey(id)
	if !ok {
		t.Fatalf("findingIDKey(%q): not a finding id", id)
	}
	return k
}

// Stored ids must sort as their text did (keyset cursors and bounds carry
// over), turn back into the same text, and range bounds made on text must
// select the same ids as bytes.
func TestFindingIDKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ids := make([]string, 3000)
	for i := range ids {
		ids[i] = engine.DerivedID(engine.PrefixFinding, string(rune(r.Int32())), "x")
	}
	ids = append(ids, "fnd_00000000000000000000000000", "fnd_7zzzzzzzzzzzzzzzzzzzzzzzzz", "fnd_00000000000000000000000001")
	for i, id := range ids {
		k := mustIDKey(t, id)
		if len(k) != idBytesLen {
			t.Fatalf("key of %s has %d bytes", id, len(k))
		}
		if back, err := findingIDText(k); err != nil || back != id {
			t.Fatalf("findingIDText(key of %s) = %q, %v", id, back, err)
		}
		if rk := idRangeKey(id); rk != k {
			t.Fatalf("idRangeKey(%s) = %x, want %x", id, rk, k)
		}
		if i > 0 {
			prev := ids[i-1]
			if (prev < id) != (mustIDKey(t, prev) < k) {
				t.Fatalf("%s < %s is %v on text but not on bytes", prev, id, prev < id)
			}
		}
	}
	for range 300 {
		p := r.Uint64N(idSpace)
		bound := idBound(engine.PrefixFinding, p)
		bk := idRangeKey(bound)
		for _, id := range ids {
			if text, key := id < bound, bytes.Compare([]byte(mustIDKey(t, id)), []byte(bk)) < 0; text != key {
				t.Fatalf("%s < bound %s is %v on text, %v on bytes", id, bound, text, key)
			}
		}
	}
	for _, bad := range []string{"", "fnd_", "fnd_8zzzzzzzzzzzzzzzzzzzzzzzzz", "fnd_0000000000000000000000000I", "res_00000000000000000000000000",
		"FND_00000000000000000000000000", "fnd_000000000000000000000000000"} {
		if _, ok := findingIDKey(bad); ok {
			t.Errorf("findingIDKey(%q) is ok", bad)
		}
	}
	if got := findingIDKeys([]string{"fnd_x", ids[0], "", ids[1]}); len(got) != 2 || got[0] != mustIDKey(t, ids[0]) || got[1] != mustIDKey(t, ids[1]) {
		t.Errorf("findingIDKeys kept %q", got)
	}
	if _, err := findingIDText("short"); err == nil {
		t.Error("findingIDText of 5 bytes: no error")
	}
}
