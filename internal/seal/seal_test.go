package seal

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestSealOpen: a sealed value opens under the same key and purpose only;
// sealing twice differs; an altered, foreign or unsealed value is
// ErrSealed; a short master key is refused.
func TestSealOpen(t *testing.T) {
	key := []byte(strings.Repeat("k", MinKey))
	other := []byte(strings.Repeat("o", MinKey))
	plain := []byte("whsec_a secret shown once")
	sealed, err := Seal(key, "purpose/a", plain)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(sealed, sealedPrefix) || strings.Contains(sealed, string(plain)) {
		t.Fatalf("sealed = %q: want the %q prefix and no plaintext", sealed, sealedPrefix)
	}
	if again, _ := Seal(key, "purpose/a", plain); again == sealed {
		t.Error("sealing twice gave the same value")
	}
	if got, err := Open(key, "purpose/a", sealed); err != nil || !bytes.Equal(got, plain) {
		t.Fatalf("Open = %q, %v; want %q", got, err, plain)
	}
	altered := []byte(sealed)
	altered[len(altered)-2] ^= 1
	for name, c := range map[string]struct {
		key          []byte
		info, sealed string
	}{
		"another key":     {other, "purpose/a", sealed},
		"another purpose": {key, "purpose/b", sealed},
		"altered":         {key, "purpose/a", string(altered)},
		"not sealed":      {key, "purpose/a", "plain text"},
		"truncated":       {key, "purpose/a", sealed[:len(sealedPrefix)+4]},
	} {
		if _, err := Open(c.key, c.info, c.sealed); !errors.Is(err, ErrSealed) {
			t.Errorf("%s: %v, want ErrSealed", name, err)
		}
	}
	if _, err := Seal(key[:MinKey-1], "purpose/a", plain); err == nil {
		t.Error("a short master key was accepted")
	}
}
