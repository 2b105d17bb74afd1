package engine

import (
	"strings"
	"testing"
	"time"
)

func TestParseLimit(t *testing.T) {
	tests := []struct {
		in      string
		want    int
		wantErr bool
	}{
		{"", DefaultLimit, false},
		{"1", 1, false},
		{"200", 200, false},
		{"0", 0, true},
		{"201", 0, true},
		{"-5", 0, true},
		{"abc", 0, true},
		{"1.5", 0, true},
		{"99999999999999999999999", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseLimit(tt.in)
			if tt.wantErr {
				if ErrorCode(err) != CodeInvalidLimit {
					t.Fatalf("ParseLimit(%q) error = %v, want invalid_limit", tt.in, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseLimit(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestCursorCodec(t *testing.T) {
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	c := newCursorCodec([]byte(strings.Repeat("k", 32)), time.Hour, clock)
	good := c.encode("ten_a", "findings|x", FindingKey{SeverityRank: 4, ID: "fnd_1"})

	var k FindingKey
	if err := c.decode(good, "ten_a", "findings|x", &k); err != nil || k.ID != "fnd_1" || k.SeverityRank != 4 {
		t.Fatalf("round trip: %+v, %v", k, err)
	}
	other := newCursorCodec([]byte(strings.Repeat("z", 32)), time.Hour, clock)
	tampered := []byte(good)
	tampered[3] ^= 1
	tests := []struct {
		name, cursor, tenant, scope string
	}{
		{"garbage", "not-a-cursor", "ten_a", "findings|x"},
		{"empty parts", ".", "ten_a", "findings|x"},
		{"tampered", string(tampered), "ten_a", "findings|x"},
		{"other tenant", good, "ten_b", "findings|x"},
		{"other filters", good, "ten_a", "findings|y"},
		{"other key", other.encode("ten_a", "findings|x", FindingKey{}), "ten_a", "findings|x"},
		{"huge", strings.Repeat("a", 5000) + ".b", "ten_a", "findings|x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := c.decode(tt.cursor, tt.tenant, tt.scope, &k); ErrorCode(err) != CodeInvalidCursor {
				t.Errorf("decode = %v, want invalid_cursor", err)
			}
		})
	}
	t.Run("expired", func(t *testing.T) {
		now = now.Add(2 * time.Hour)
		if err := c.decode(good, "ten_a", "findings|x", &k); ErrorCode(err) != CodeInvalidCursor || !strings.Contains(err.Error(), "expired") {
			t.Errorf("decode = %v, want invalid_cursor (expired)", err)
		}
	})
}

func TestFindingFilterInputParse(t *testing.T) {
	tests := []struct {
		name string
		in   FindingFilterInput
		code string
	}{
		{"empty", FindingFilterInput{}, ""},
		{"all good", FindingFilterInput{Severity: "high", Dimension: "cost", Status: "open"}, ""},
		{"bad severity", FindingFilterInput{Severity: "severe"}, CodeInvalidSeverityFilter},
		{"severity case", FindingFilterInput{Severity: "HIGH"}, CodeInvalidSeverityFilter},
		{"bad dimension", FindingFilterInput{Dimension: "speed"}, CodeValidationFailed},
		{"bad status", FindingFilterInput{Status: "closed"}, CodeValidationFailed},
		{"bad audit id", FindingFilterInput{AuditID: "fnd_0123456789abcdefghjkmnpqrs"}, CodeValidationFailed},
		{"bad resource id", FindingFilterInput{ResourceID: "res_x"}, CodeValidationFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.in.Parse()
			if got := ErrorCode(err); got != tt.code {
				t.Errorf("Parse() code = %q (%v), want %q", got, err, tt.code)
			}
		})
	}
	_, err := FindingFilterInput{Severity: "x"}.Parse()
	for _, s := range Severities {
		if !strings.Contains(ErrorMessage(err), string(s)) {
			t.Errorf("message %q does not name %s", ErrorMessage(err), s)
		}
	}
}
