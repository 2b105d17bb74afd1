package inventory

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/go-cmp/cmp"
)

// TestFastLineUTF8 checks which lines the fast path keeps for itself as
// their strings' bytes go beyond ASCII, and that every line decodes as
// encoding/json decodes it, invalid UTF-8 replaced with U+FFFD.
func TestFastLineUTF8(t *testing.T) {
	const head = `{"provider":"aws","account":"111122223333","type":"aws_vpc","native_id":"x"`
	tests := []struct {
		name string
		line string
		fast bool // fastLine decodes it itself
	}{
		{"ascii", head + `,"name":"a"}`, true},
		{"valid UTF-8 name", head + `,"name":"café ☃ 😀"}`, true},
		{"valid UTF-8 tag", head + `,"tags":{"été":"août"}}`, true},
		{"valid UTF-8 in attributes", head + ",\"attributes\":{\"é\":\"\xe2\x98\x83\"}}", true},
		{"invalid UTF-8 in attributes", head + ",\"attributes\":{\"a\":\"\xff\"}}", true}, // kept as is, as by encoding/json
		{"invalid UTF-8 name", head + ",\"name\":\"a\xffb\"}", false},
		{"truncated rune in name", head + ",\"name\":\"a\xe2\x98\"}", false},
		{"surrogate half in region", head + ",\"region\":\"\xed\xa0\x80\"}", false},
		{"invalid UTF-8 tag key", head + ",\"tags\":{\"\xc3\":\"v\"}}", false},
		{"invalid UTF-8 tag value", head + ",\"tags\":{\"k\":\"\xc3(\"}}", false},
		{"escaped and invalid", head + ",\"name\":\"\\u00e9\xff\"}", true}, // unquoted by encoding/json
		{"control character", head + `,"name":"a` + "\x01" + `"}`, false},
		{"unterminated", head + `,"name":"abc`, false},
		{"unterminated after high byte", head + `,"name":"ab` + "\xc3\xa9", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fast, ok := fastLine([]byte(tt.line), false, nil)
			if ok != tt.fast {
				t.Fatalf("fastLine ok = %v, want %v", ok, tt.fast)
			}
			slow, err := slowLine([]byte(tt.line))
			if ok {
				if err != nil {
					t.Fatalf("fast path accepted what encoding/json rejects: %v", err)
				}
				if diff := cmp.Diff(slow, asSlow(fast), cmp.AllowUnexported(ndjsonLine{})); diff != "" {
					t.Fatalf("(-encoding/json +fast)\n%s", diff)
				}
			}
			if err != nil {
				return
			}
			for _, s := range []string{slow.Provider, slow.Account, slow.Region, slow.Type, slow.NativeID, slow.Name} {
				if !utf8.ValidString(s) {
					t.Errorf("encoding/json left invalid UTF-8 in %q", s)
				}
			}
		})
	}
}

// TestNDJSONDecoderTextValid checks what toResource relies on to skip
// Validate's UTF-8 check: whatever the line, a decoded resource's text and
// tags are valid UTF-8 and its attributes one JSON object without spaces
// around it (what engine.IngestItem.Prechecked promises).
func TestNDJSONDecoderTextValid(t *testing.T) {
	lines := []string{
		goodLine,
		"{\"provider\":\"aws\",\"account\":\"111122223333\",\"type\":\"aws_vpc\",\"native_id\":\"x\xff\",\"name\":\"\xe2\x98\",\"region\":\"\xc3\"," +
			"\"tags\":{\"\xff\":\"\xfe\",\"k\":\"v\xc3\"},\"attributes\": {\"a\":\"\xff\"} }",
		"{\"provider\":\"aws\",\"account\":\"111122223333\",\"type\":\"aws_vpc\",\"native_id\":\"x\\u00e9\xff\",\"attributes\":null}",
		`{"provider":"aws","account":"111122223333","type":"aws_vpc","native_id":"y","attributes":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`,
		`{"provider":"aws","account":"111122223333","type":"aws_vpc","native_id":"z","Attributes":{"b":1},"tags":{}}`,
	}
	d := NewNDJSONDecoder(strings.NewReader(strings.Join(lines, "\n")))
	for i := range lines {
		r, err := d.Next()
		if err != nil {
			if i == 3 {
				continue // attributes not an object: refused
			}
			t.Fatalf("line %d: %v", i+1, err)
		}
		checkPrechecked(t, r)
	}
}

func checkPrechecked(t *testing.T, r engine.Resource) {
	t.Helper()
	for _, s := range []string{r.Provider, r.Account, r.Region, r.Type, r.NativeID, r.Name} {
		if !utf8.ValidString(s) {
			t.Errorf("%s: text %q is not valid UTF-8", r.NativeID, s)
		}
	}
	for _, tag := range r.Tags {
		if k, v := tag.Key, tag.Value; !utf8.ValidString(k) || !utf8.ValidString(v) {
			t.Errorf("%s: tag %q: %q is not valid UTF-8", r.NativeID, k, v)
		}
	}
	if len(r.Attributes) > 0 && (!json.Valid(r.Attributes) || r.Attributes[0] != '{' || r.Attributes[len(r.Attributes)-1] != '}') {
		t.Errorf("%s: attributes %q are not one JSON object without spaces around it", r.NativeID, r.Attributes)
	}
}

// asSlow returns a line of fastLine's as encoding/json gives it: its tags
// as a map.
func asSlow(l ndjsonLine) ndjsonLine {
	if l.tags != nil {
		l.Tags = l.tags.Map()
	}
	l.tags = nil
	return l
}

// TestFastLineOneCopy checks that a decoded line's fields do not see what
// a caller does to its attributes, which share the line's copy with them.
func TestFastLineOneCopy(t *testing.T) {
	line := []byte(`{"provider":"aws","account":"111122223333","type":"aws_vpc","native_id":"x","name":"n","tags":{"k":"v"},"attributes":{"a":"b"},"region":"r"}`)
	l, ok := fastLine(line, false, nil)
	if !ok {
		t.Fatal("fastLine refused the line")
	}
	want := ndjsonLine{Provider: "aws", Account: "111122223333", Type: "aws_vpc", NativeID: "x", Name: "n",
		Tags: map[string]string{"k": "v"}, Attributes: json.RawMessage(`{"a":"b"}`), Region: "r"}
	for i := range line {
		line[i] = 'X' // the input buffer is reused by the reader
	}
	if diff := cmp.Diff(want, asSlow(l), cmp.AllowUnexported(ndjsonLine{})); diff != "" {
		t.Fatalf("after the input changed (-want +got)\n%s", diff)
	}
	if cap(l.Attributes) != len(l.Attributes) {
		t.Fatalf("attributes have room to append into the fields: cap %d, len %d", cap(l.Attributes), len(l.Attributes))
	}
	l.Attributes = append(l.Attributes, ' ')
	for i := range l.Attributes {
		l.Attributes[i] = 'Y'
	}
	want.Attributes = l.Attributes
	if diff := cmp.Diff(want, asSlow(l), cmp.AllowUnexported(ndjsonLine{})); diff != "" {
		t.Fatalf("after the attributes changed (-want +got)\n%s", diff)
	}
}

// strStopMask's lowest flag is the first byte strStop marks, for words
// drawn from the bytes around each boundary it tests (and random ones).
func TestStrStopMask(t *testing.T) {
	edges := []byte{0, 1, 0x1f, 0x20, 0x21, '"' - 1, '"', '"' + 1, '\\' - 1, '\\', '\\' + 1, 'a', 0x7f, 0x80, 0xc3, 0xff}
	rnd := rand.New(rand.NewPCG(3, 4))
	for n := range 200_000 {
		var w [8]byte
		for i := range w {
			if n%2 == 0 {
				w[i] = edges[rnd.IntN(len(edges))]
			} else {
				w[i] = byte(rnd.Uint32())
			}
		}
		want := 8
		for i, c := range w {
			if strStop[c] {
				want = i
				break
			}
		}
		m := strStopMask(binary.LittleEndian.Uint64(w[:]))
		got := bits.TrailingZeros64(m) >> 3
		if got != want {
			t.Fatalf("strStopMask(% x) = %#x: first stop at %d, want %d", w, m, got, want)
		}
	}
}
