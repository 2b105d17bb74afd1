package engine

import (
	"encoding/binary"
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

func TestParseAndFormatID(t *testing.T) {
	for range 100 {
		id := NewID(PrefixEvent, time.Now())
		b, ok := ParseID(PrefixEvent, id)
		if !ok || FormatID(PrefixEvent, b) != id {
			t.Fatalf("ParseID(%s) = %x, %v; FormatID gives %s", id, b, ok, FormatID(PrefixEvent, b))
		}
	}
	for _, bad := range []string{"", "evt_", "evt_x", "evt_" + strings.Repeat("8", 26), "res_" + strings.Repeat("0", 26),
		"evt_" + strings.Repeat("0", 25) + "u", "evt_" + strings.Repeat("0", 27), "EVT_" + strings.Repeat("0", 26)} {
		if _, ok := ParseID(PrefixEvent, bad); ok {
			t.Errorf("ParseID(%q) accepted", bad)
		}
	}
	max := [16]byte{}
	for i := range max {
		max[i] = 0xff
	}
	if id := FormatID(PrefixEvent, max); id != "evt_7"+strings.Repeat("z", 25) {
		t.Errorf("FormatID(max) = %s", id)
	}
}

// An IDRun's ids follow one another: each is the previous plus one, in
// byte order too, with the run's time, across a carry.
func TestIDRun(t *testing.T) {
	now := time.UnixMilli(1_700_000_000_123)
	r := NewIDRun(PrefixEvent, now)
	prev := r.Next()
	for range 5000 {
		id := r.Next()
		if id <= prev {
			t.Fatalf("%s after %s", id, prev)
		}
		a, _ := ParseID(PrefixEvent, prev)
		b, _ := ParseID(PrefixEvent, id)
		ahi, bhi := binary.BigEndian.Uint64(a[:8]), binary.BigEndian.Uint64(b[:8])
		if binary.BigEndian.Uint64(b[8:])-binary.BigEndian.Uint64(a[8:]) != 1 || ahi != bhi && (bhi != ahi+1 || binary.BigEndian.Uint64(b[8:]) != 0) {
			t.Fatalf("%s does not follow %s", id, prev)
		}
		prev = id
	}
	b, _ := ParseID(PrefixEvent, prev)
	if ms := int64(b[0])<<40 | int64(b[1])<<32 | int64(b[2])<<24 | int64(b[3])<<16 | int64(b[4])<<8 | int64(b[5]); ms != now.UnixMilli() {
		t.Errorf("the run's ids carry %d ms; want %d", ms, now.UnixMilli())
	}
	// A carry out of the low 64 bits.
	r.next = [16]byte{0, 0, 0, 0, 0, 1, 0x12, 0x34, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	x, y := r.Next(), r.Next()
	want := FormatID(PrefixEvent, [16]byte{0, 0, 0, 0, 0, 1, 0x12, 0x35})
	if y != want || x >= y {
		t.Errorf("across a carry: %s, %s; want %s second", x, y, want)
	}
}

// EventRuns gives each type its own run, a run one creation time, and
// starts a new run (and time) every EventRunMax events.
func TestEventRuns(t *testing.T) {
	clock := time.UnixMilli(1_700_000_000_000).UTC()
	runs := NewEventRuns(func() time.Time { clock = clock.Add(time.Millisecond); return clock })
	last := map[string][16]byte{}
	at := map[string]time.Time{}
	for i := range 2500 {
		typ := EventFindingCreated
		if i%3 == 0 {
			typ = EventPolicyViolated
		}
		ev, err := runs.Event("ten_1", typ, map[string]int{"i": i})
		if err != nil {
			t.Fatal(err)
		}
		b, ok := ParseID(PrefixEvent, ev.ID)
		if !ok {
			t.Fatalf("bad id %s", ev.ID)
		}
		n := runs.runs[typ].n
		if n == 1 {
			if prev, ok := at[typ]; ok && !ev.CreatedAt.After(prev) {
				t.Errorf("a new run of %s at %v, not after %v", typ, ev.CreatedAt, prev)
			}
			at[typ] = ev.CreatedAt
		} else {
			p := last[typ]
			if binary.BigEndian.Uint64(b[8:]) != binary.BigEndian.Uint64(p[8:])+1 || !ev.CreatedAt.Equal(at[typ]) {
				t.Fatalf("event %d (%s) does not follow its run", i, typ)
			}
		}
		last[typ] = b
	}
	if n := runs.runs[EventFindingCreated].n; n != (2500-834)%EventRunMax {
		t.Errorf("the open finding.created run has %d events", n)
	}
}

func TestIDTimeAndDigits(t *testing.T) {
	at := time.Date(2026, 11, 27, 7, 5, 9, 123_000_000, time.UTC)
	id := NewID(PrefixAudit, at)
	if got := IDTime(id); !got.Equal(at) {
		t.Errorf("IDTime(%s) = %v, want %v", id, got, at)
	}
	for _, bad := range []string{"", "aud", "aud_", "aud_8zzzzzzzzzzzzzzzzzzzzzzzzz", "aud_0123456789abcdefghjkmnpqr!"} {
		if got := IDTime(bad); !got.IsZero() {
			t.Errorf("IDTime(%q) = %v, want zero", bad, got)
		}
	}
	for i := range len(IDAlphabet) {
		if v, ok := IDDigit(IDAlphabet[i]); !ok || int(v) != i {
			t.Errorf("IDDigit(%q) = %d, %v; want %d", IDAlphabet[i], v, ok, i)
		}
	}
	for _, c := range []byte("ilouILOU_-!") {
		if _, ok := IDDigit(c); ok {
			t.Errorf("IDDigit(%q) accepted a byte outside the alphabet", c)
		}
	}
}

// ParseID decodes and checks in one pass: it accepts exactly what ValidID
// accepts, whatever byte stands at whatever place of the body.
func TestParseIDAgreesWithValidID(t *testing.T) {
	good := []byte(FindingID("ten_1", "r", "res_1"))
	for pos := len(PrefixFinding) + 1; pos < len(good); pos++ {
		for c := range 256 {
			id := slices.Clone(good)
			id[pos] = byte(c)
			b, ok := ParseID(PrefixFinding, string(id))
			if ok != ValidID(PrefixFinding, string(id)) {
				t.Fatalf("ParseID(%q) ok = %v, ValidID says %v", id, ok, !ok)
			}
			if ok && FormatID(PrefixFinding, b) != string(id) {
				t.Fatalf("ParseID(%q) = %x, formats back as %s", id, b, FormatID(PrefixFinding, b))
			}
		}
	}
}
