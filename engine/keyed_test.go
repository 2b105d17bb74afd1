package engine

import (
	"log/slog"
	"strings"
	"testing"
	"time"
)

func TestNewKeyed(t *testing.T) {
	secret := []byte(strings.Repeat("k", MinSecretLen))
	if _, err := NewKeyed("policies", secret[:MinSecretLen-1], 0, nil, nil); err == nil || err.Error() != "policies: Secret must be at least 32 bytes" {
		t.Errorf("a 31-byte secret: %v, want the service's error", err)
	}
	k, err := NewKeyed("policies", secret, 0, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if k.Now == nil || k.Logger != slog.Default() || k.CursorTTL != 24*time.Hour || k.Cursors == nil {
		t.Errorf("defaults: %+v", k)
	}
	// The given clock, log and lifetime are kept, and the cursors use
	// them: a cursor expires after the lifetime on that clock.
	at := time.Date(2026, 11, 28, 2, 0, 0, 0, time.UTC)
	log := slog.New(slog.DiscardHandler)
	k, err = NewKeyed("policies", secret, time.Hour, func() time.Time { return at }, log)
	if err != nil {
		t.Fatal(err)
	}
	if !k.Now().Equal(at) || k.Logger != log || k.CursorTTL != time.Hour {
		t.Errorf("given values: %+v", k)
	}
	c := k.Cursors.Encode("ten_a", "policies", "pol_1")
	var got string
	if err := k.Cursors.Decode(c, "ten_a", "policies", &got); err != nil || got != "pol_1" {
		t.Fatalf("Decode: %q, %v", got, err)
	}
	at = at.Add(2 * time.Hour)
	if err := k.Cursors.Decode(c, "ten_a", "policies", &got); err == nil {
		t.Error("a cursor older than CursorTTL decoded")
	}
	// Another secret's cursors refuse it.
	other, _ := NewKeyed("policies", []byte(strings.Repeat("o", MinSecretLen)), time.Hour, func() time.Time { return at }, nil)
	if err := other.Cursors.Decode(k.Cursors.Encode("ten_a", "policies", "pol_1"), "ten_a", "policies", &got); err == nil {
		t.Error("another secret's cursor decoded")
	}
}
