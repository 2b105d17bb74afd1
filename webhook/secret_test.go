package webhook

import (
	"bytes"
	"encoding/base64"
	"errors"
	"regexp"
	"strings"
	"testing"
)

func TestNewSigningSecret(t *testing.T) {
	re := regexp.MustCompile(`^whsec_[0-9a-hjkmnp-tv-z]{52}$`)
	seen := map[string]bool{}
	for range 100 {
		s := NewSigningSecret()
		if !re.MatchString(s) {
			t.Fatalf("NewSigningSecret() = %q", s)
		}
		if seen[s] {
			t.Fatalf("duplicate secret %q", s)
		}
		seen[s] = true
	}
}

func TestSealSecret(t *testing.T) {
	key := bytes.Repeat([]byte{7}, 32)
	other := bytes.Repeat([]byte{8}, 32)
	secret := NewSigningSecret()
	sealed, err := SealSecret(key, secret)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(sealed, secret[len(SigningSecretPrefix):]) || !strings.HasPrefix(sealed, "v1:") {
		t.Fatalf("sealed = %q", sealed)
	}
	again, _ := SealSecret(key, secret)
	if again == sealed {
		t.Error("sealing twice gave the same value (nonce reuse)")
	}
	got, err := OpenSecret(key, sealed)
	if err != nil || got != secret {
		t.Fatalf("OpenSecret() = %q, %v; want %q", got, err, secret)
	}

	flip := func(s string) string {
		raw, _ := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(s, "v1:"))
		raw[len(raw)-1] ^= 1
		return "v1:" + base64.RawURLEncoding.EncodeToString(raw)
	}
	tests := []struct {
		name   string
		key    []byte
		sealed string
	}{
		{"other key", other, sealed},
		{"tampered", key, flip(sealed)},
		{"no version", key, strings.TrimPrefix(sealed, "v1:")},
		{"other version", key, "v2:" + strings.TrimPrefix(sealed, "v1:")},
		{"not base64", key, "v1:***"},
		{"too short", key, "v1:AAAA"},
		{"empty", key, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := OpenSecret(tt.key, tt.sealed); !errors.Is(err, ErrSealedSecret) {
				t.Errorf("OpenSecret() = %v, want %v", err, ErrSealedSecret)
			}
		})
	}
	if _, err := SealSecret([]byte("short"), secret); err == nil {
		t.Error("SealSecret accepted a short master key")
	}
	if _, err := OpenSecret([]byte("short"), sealed); err == nil || errors.Is(err, ErrSealedSecret) {
		t.Errorf("OpenSecret(short key) = %v, want a key error", err)
	}
}
