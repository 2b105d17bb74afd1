package postgres

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/jsonvalid"
)

func TestU128Offset(t *testing.T) {
	for _, c := range []struct {
		u, v u128
		off  int
		ok   bool
	}{
		{u128{1, 5}, u128{1, 5}, 0, true},
		{u128{1, 5}, u128{1, 1004}, 999, true},
		{u128{1, 5}, u128{1, 1005}, 0, false},
		{u128{1, 5}, u128{1, 4}, 0, false},
		{u128{1, 5}, u128{2, 5}, 0, false},
		{u128{1, ^uint64(0) - 1}, u128{2, 3}, 5, true}, // across a carry
		{u128{1, ^uint64(0) - 1}, u128{2, 998}, 0, false},
		{u128{2, 3}, u128{1, ^uint64(0)}, 0, false},
	} {
		off, ok := c.u.offset(c.v)
		if off != c.off || ok != c.ok {
			t.Errorf("%v.offset(%v) = %d, %v; want %d, %v", c.u, c.v, off, ok, c.off, c.ok)
		}
		if ok && c.u.add(uint64(off)) != c.v {
			t.Errorf("%v.add(%d) != %v", c.u, off, c.v)
		}
	}
	if got := (u128{0, 3}).sub(10); got != (u128{}) {
		t.Errorf("sub below 0 = %v", got)
	}
	if got := (u128{1, 3}).sub(10); got != (u128{0, ^uint64(0) - 6}) {
		t.Errorf("sub across a borrow = %v", got)
	}
	id := engine.NewID(engine.PrefixEvent, time.Now())
	u, ok := parseEventID(id)
	if !ok || u.String() != id {
		t.Errorf("parseEventID(%s) = %v, %v", id, u, ok)
	}
}

// The grouper makes a batch of each run of one tenant and type, made at
// one time, with consecutive ids, up to batchMax events; anything else
// starts the next batch.
func TestGrouper(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ids := engine.NewIDRun(engine.PrefixEvent, at)
	ev := func(tenant, typ string, created time.Time) engine.Event {
		return engine.Event{ID: ids.Next(), TenantID: tenant, Type: typ, CreatedAt: created}
	}
	var evs []engine.Event
	for range 2100 {
		evs = append(evs, ev("a", "x", at))
	}
	evs = append(evs, ev("a", "x", at.Add(time.Millisecond))) // another time
	evs = append(evs, ev("b", "x", at.Add(time.Millisecond))) // another tenant
	evs = append(evs, ev("b", "y", at.Add(time.Millisecond))) // another type
	skip := ids.Next()
	_ = skip
	evs = append(evs, ev("b", "y", at.Add(time.Millisecond))) // a gap
	evs = append(evs, engine.Event{ID: "evt_nope", TenantID: "b", Type: "y", CreatedAt: at})
	g := groupEvents(evs)
	var got []int
	rows := 0
	for _, b := range g.ready {
		got = append(got, len(b.events))
		if b.row {
			rows++
		}
	}
	want := []int{1000, 1000, 100, 1, 1, 1, 1, 1}
	if len(got) != len(want) || rows != 1 {
		t.Fatalf("batches %v (%d rows); want %v (1 row)", got, rows, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("batches %v; want %v", got, want)
		}
	}
}

func TestBatchable(t *testing.T) {
	for data, want := range map[string]bool{
		``:   true,
		`{}`: true,
		`{"a": [1, 2.5e10, -3E+308, true, false, null], "b": "x\"y\\u0000"}`: true, // \\u0000 is a backslash and text
		`{"a": "\u00e9\u2028\ufffd"}`:                                        true,
		`{"a": 1}, {"b": 2}`:                                                 false, // two values: would shift the array
		`{"a": 1`:                                                            false,
		`1 2`:                                                                false,
		`{"a": "\u0000"}`:                                                    false,
		`{"a": "x\\\u0000"}`:                                                 false, // an escaped backslash, then \u0000
		`{"a": "\ud800"}`:                                                    false,
		`{"a": "\uD83D\uDE00"}`:                                              false, // a valid pair, but any surrogate escape goes to a row
		`{"a": "\uD7FF\ud000"}`:                                              true,  // below the surrogates (refused before issue 30)
		`[1e10000]`:                                                          false,
		`[1E-99999]`:                                                         false,
		`[1e1000]`:                                                           true,
		`[` + strings.Repeat("9", 1001) + `]`:                                false,
		`[` + strings.Repeat("9", 1000) + `]`:                                true,
		`"` + strings.Repeat("9", 5000) + `"`:                                true,
	} {
		if got := batchable([]byte(data)); got != want {
			t.Errorf("batchable(%.60q) = %v; want %v", data, got, want)
		}
	}
}

// batchableBefore is batchable as it was before its strings were walked in
// a loop of their own: the reference for FuzzBatchable.
func batchableBefore(data []byte) bool {
	if len(data) == 0 {
		return true
	}
	if !json.Valid(data) {
		return false
	}
	inString, digits := false, 0
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			switch c {
			case '\\':
				if i+5 < len(data) && data[i+1] == 'u' {
					if h, l := data[i+2], data[i+3]; (h == 'd' || h == 'D') && strings.IndexByte("89abcdefABCDEF", l) >= 0 || string(data[i+2:i+6]) == "0000" {
						return false
					}
				}
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch {
		case c == '"':
			inString, digits = true, 0
		case c >= '0' && c <= '9':
			if digits++; digits > 1000 {
				return false
			}
		case c == 'e' || c == 'E':
			j := i + 1
			if j < len(data) && (data[j] == '+' || data[j] == '-') {
				j++
			}
			k := j
			for k < len(data) && data[k] >= '0' && data[k] <= '9' {
				k++
			}
			if k-j > 4 {
				return false
			}
			digits = 0
		default:
			digits = 0
		}
	}
	return true
}

func FuzzBatchable(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"a": [1, 2.5e10, -3E+308, true, false, null], "b": "x\"y\\u0000"}`,
		`{"a": "\u0000"}`, `{"a": "x\\\u0000"}`, `{"a": "\uD83D\uDE00"}`, `[1e10000]`, `[1E-99999]`, `{"a":"\\"}`,
		`["` + strings.Repeat("9", 20) + `", 1` + strings.Repeat("0", 999) + `]`, `{"resource":{"id":"res_1","tags":{"a\u003cb":"\u2028"}}}`,
		strings.Repeat("[", 70) + strings.Repeat("]", 70), `[-0.5e+0004, 1E-4, 0, -0, 12.0001]`, `[1e00001]`, `[00]`, `[1.]`, `[.5]`,
		`{"a" : [ true , false , null ] , "b" : { } }`, "{\"a\":\"\xff\x00\"}", `{"a":1,}`, `[1,]`, `"\u00zz"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := batchable(data), batchableBefore(data); got != want {
			t.Fatalf("batchable(%q) = %v; before: %v", data, got, want)
		}
	})
}

// BenchmarkBatchable checks resource.added payloads as a first import
// makes them (~350 bytes).
func BenchmarkBatchable(b *testing.B) {
	data := []byte(`{"resource":{"id":"res_0f3k2m9x1q7w8e5r4t6y2u8i0o","provider":"aws","account":"210987654321",` +
		`"region":"eu-west-1","type":"aws_s3_bucket","native_id":"arn:aws:s3:::prod-logs-210987654321-eu-west-1#12345",` +
		`"name":"prod-logs-210987654321-eu-west-1","tags":{"CostCenter":"cc-1234","Environment":"production",` +
		`"Name":"prod-logs","Owner":"platform-team@example.com"}}}`)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if !batchable(data) {
			b.Fatal("not batchable")
		}
	}
}

// TestBatchableOneWalk checks that the one-walk answer
// (jsonvalid.Strict) is the one the engine's data gets, so that
// batchable rarely takes the long way.
func TestBatchableOneWalk(t *testing.T) {
	for _, data := range []string{
		`{}`, `{"resource":{"id":"res_1","provider":"aws","tags":{"a\u003cb":"\u2028","é":"\ufffd"}}}`,
		`{"finding":{"score":-12.5e-3,"ok":true,"none":null,"list":[0,1,[2,{"x":"y"}]]}}`,
		` [ 1 , 2 ] `, `"text"`, `[` + strings.Repeat("9", 1000) + `]`, `[1e1000]`,
	} {
		if !jsonvalid.Strict([]byte(data)) {
			t.Errorf("jsonvalid.Strict(%.60q) = false", data)
		}
	}
}

// dataSize is what appendData appends, so that Values makes room once.
func TestBatchDataSize(t *testing.T) {
	for _, data := range [][]string{{`{}`}, {``, `{"a":1}`}, {`[1,2]`, `"x"`, ``, `{"b":"c"}`}, {`1`, `2`}} {
		b := &batchRow{}
		for _, d := range data {
			b.events = append(b.events, engine.Event{Data: json.RawMessage(d)})
		}
		if got, want := b.dataSize(), len(b.appendData(nil)); got != want {
			t.Errorf("data %q: dataSize %d, appendData %d bytes", data, got, want)
		}
	}
}
