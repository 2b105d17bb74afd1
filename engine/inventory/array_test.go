package inventory

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

func TestArrayDecoder(t *testing.T) {
	in := `[{"provider":"aws","account":"123456789012","region":"eu-west-1","type":"aws_s3_bucket","native_id":"arn:aws:s3:::a","name":"a"},
	 {"provider":"aws","type":"aws_s3_bucket"}, 7,
	 {"provider":"aws","account":"123456789012","region":"eu-west-1","type":"aws_s3_bucket","native_id":"arn:aws:s3:::b","name":"b"}]`
	d, f, err := Open(strings.NewReader(in))
	if err != nil || f != FormatJSONArray {
		t.Fatalf("Open: %v, %v", f, err)
	}
	var names []string
	var bad int
	for {
		r, err := d.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var le *LineError
		if errors.As(err, &le) {
			bad++
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, r.Name)
	}
	if strings.Join(names, ",") != "a,b" || bad != 2 {
		t.Errorf("names %v, %d bad; want a,b and 2 bad", names, bad)
	}
	for _, tt := range []struct{ name, in string }{
		{"unclosed", `[{"provider":"aws"`},
		{"truncated after element", `[{"provider":"aws","account":"123456789012","type":"aws_s3_bucket","native_id":"x"},`},
	} {
		d := NewArrayDecoder(strings.NewReader(tt.in))
		var last error
		for range 5 {
			if _, last = d.Next(); last != nil && !errors.As(last, new(*LineError)) {
				break
			}
		}
		if engine.ErrorCode(last) != engine.CodeInvalidRequest {
			t.Errorf("%s: last error %v, want invalid_request", tt.name, last)
		}
	}
	if f, err := Detect(bufio.NewReader(strings.NewReader(`  []`))); err != nil || f != FormatJSONArray {
		t.Errorf("empty array: %v %v", f, err)
	}
}
