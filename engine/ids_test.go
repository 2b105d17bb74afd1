package engine

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestNewIDIsValidAndTimeSortable(t *testing.T) {
	base := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	var ids []string
	for i := range 50 {
		id := NewID(PrefixAudit, base.Add(time.Duration(i)*time.Millisecond))
		if !ValidID(PrefixAudit, id) {
			t.Fatalf("NewID gave invalid id %q", id)
		}
		ids = append(ids, id)
	}
	if !slices.IsSorted(ids) {
		t.Errorf("ids made later do not sort later: %v", ids)
	}
}

func TestDerivedIDIsStable(t *testing.T) {
	a := FindingID("ten_1", "aws-s3-001", "res_1")
	if a != FindingID("ten_1", "aws-s3-001", "res_1") {
		t.Fatal("FindingID is not deterministic")
	}
	for _, other := range []string{
		FindingID("ten_2", "aws-s3-001", "res_1"),
		FindingID("ten_1", "aws-s3-002", "res_1"),
		FindingID("ten_1", "aws-s3-001", "res_2"),
		FindingID("ten_1aws-s3-001", "", "res_1"), // parts are separated, not concatenated
	} {
		if other == a {
			t.Errorf("different inputs gave the same id %s", a)
		}
	}
	if !ValidID(PrefixFinding, a) {
		t.Errorf("derived id %q is not valid", a)
	}
}

func TestValidID(t *testing.T) {
	good := NewID(PrefixFinding, time.Now())
	tests := []struct {
		name, prefix, id string
		want             bool
	}{
		{"good", PrefixFinding, good, true},
		{"wrong prefix", PrefixResource, good, false},
		{"empty", PrefixFinding, "", false},
		{"short", PrefixFinding, good[:len(good)-1], false},
		{"long", PrefixFinding, good + "0", false},
		{"uppercase", PrefixFinding, "fnd_" + "0123456789ABCDEFGHJKMNPQRS", false},
		{"excluded letter", PrefixFinding, "fnd_0123456789abcdefghjkmnpqri", false},
		{"overflowing first char", PrefixFinding, "fnd_8123456789abcdefghjkmnpqrs", false},
		{"no separator", PrefixFinding, "fnd0123456789abcdefghjkmnpqrst", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ValidID(tt.prefix, tt.id); got != tt.want {
				t.Errorf("ValidID(%q, %q) = %v, want %v", tt.prefix, tt.id, got, tt.want)
			}
		})
	}
}

func TestRandomToken(t *testing.T) {
	a, b := RandomToken(30), RandomToken(30)
	if a == b || len(a) != 48 {
		t.Errorf("RandomToken(30) = %q, %q; want two different 48-char strings", a, b)
	}
}

// Derived ids are stored: the same parts must give the same id in every
// version of fourd (values computed by the first implementation).
func TestDerivedIDKnownAnswers(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{FindingID("ten_1", "aws-s3-001", "res_1"), "fnd_33g27he7ax31bpczea4rbf5f9q"},
		{ResourceID("ten_x", "aws", "arn:aws:s3:::b"), "res_1cebz0ny3ryac0wext2gyyc20j"},
		{DerivedID("fnd", strings.Repeat("long part ", 40), "x"), "fnd_6j5pabae6edt3cgv6ck1fej0q6"}, // past the stack buffer
	} {
		if c.got != c.want {
			t.Errorf("derived id %s, want %s", c.got, c.want)
		}
	}
}
