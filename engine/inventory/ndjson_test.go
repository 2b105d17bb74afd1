package inventory

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/go-cmp/cmp"
)

// outcome is what one call of Next gave: a resource's native id, or an
// error's line and code.
type outcome struct {
	NativeID string
	Line     int64
	Code     string
}

func drain(d Decoder) []outcome {
	var out []outcome
	for i := 0; i < 1000; i++ {
		r, err := d.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		var le *LineError
		switch {
		case errors.As(err, &le):
			out = append(out, outcome{Line: le.Line, Code: engine.ErrorCode(err)})
		case err != nil:
			return append(out, outcome{Code: "fatal:" + engine.ErrorCode(err)})
		default:
			out = append(out, outcome{NativeID: r.NativeID})
		}
	}
	return append(out, outcome{Code: "no EOF"})
}

const goodLine = `{"provider":"aws","account":"111122223333","region":"eu-west-1","type":"aws_s3_bucket","native_id":"arn:aws:s3:::a","name":"a","tags":{"Owner":"x"},"attributes":{"bucket":"a"}}`

func TestNDJSONDecoder(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []outcome
	}{
		{"one line without newline", goodLine, []outcome{{NativeID: "arn:aws:s3:::a"}}},
		{"blank lines and CRLF", "\n" + goodLine + "\r\n\r\n" + strings.Replace(goodLine, ":a\"", ":b\"", 1) + "\n",
			[]outcome{{NativeID: "arn:aws:s3:::a"}, {NativeID: "arn:aws:s3:::b"}}},
		{"bad lines do not stop the stream", strings.Join([]string{
			`{"provider":"aws"`,
			`[1,2]`,
			`{"provider":"aws","account":"12","type":"aws_vpc","native_id":"x"}`,
			`{"provider":"aws","account":"111122223333","type":"Bad Type","native_id":"x"}`,
			`{"provider":"aws","account":"111122223333","type":"aws_vpc"}`,
			`{"provider":"aws","account":"111122223333","type":"aws_vpc","native_id":"x","attributes":[1]}`,
			`{"provider":"aws","account":"111122223333","type":"aws_vpc","native_id":"x","tags":{"a":1}}`,
			goodLine,
		}, "\n"), []outcome{
			{Line: 1, Code: engine.CodeInvalidRequest}, {Line: 2, Code: engine.CodeInvalidRequest}, {Line: 3, Code: engine.CodeValidationFailed},
			{Line: 4, Code: engine.CodeValidationFailed}, {Line: 5, Code: engine.CodeValidationFailed}, {Line: 6, Code: engine.CodeValidationFailed},
			{Line: 7, Code: engine.CodeValidationFailed}, {NativeID: "arn:aws:s3:::a"},
		}},
		{"line too long", `{"provider":"aws","name":"` + strings.Repeat("x", MaxLineBytes+10) + `"}` + "\n" + goodLine,
			[]outcome{{Line: 1, Code: engine.CodeValidationFailed}, {NativeID: "arn:aws:s3:::a"}}},
		{"empty input", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, drain(NewNDJSONDecoder(strings.NewReader(tt.input)))); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestNDJSONDecoder_Fields(t *testing.T) {
	r, err := NewNDJSONDecoder(strings.NewReader(`{"id":"res_x","provider":"aws","account":"111122223333","region":"eu-west-1","type":"aws_vpc","native_id":"arn:aws:ec2:eu-west-1:111122223333:vpc/vpc-1","name":"Zürich","tags":{"k":"v"}}`)).Next()
	if err != nil {
		t.Fatal(err)
	}
	want := engine.Resource{Provider: "aws", Account: "111122223333", Region: "eu-west-1", Type: "aws_vpc",
		NativeID: "arn:aws:ec2:eu-west-1:111122223333:vpc/vpc-1", Name: "Zürich", Tags: engine.TagsFromMap(map[string]string{"k": "v"}), Attributes: []byte("{}")}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if got := WithID(r, "ten_1"); got.ID != engine.ResourceID("ten_1", "aws", r.NativeID) || got.TenantID != "ten_1" {
		t.Errorf("WithID = %q/%q", got.ID, got.TenantID)
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name, input string
		want        Format
		code        string
	}{
		{"ndjson", goodLine + "\n", FormatNDJSON, ""},
		{"ndjson with BOM and space", "\xef\xbb\xbf \n" + goodLine, FormatNDJSON, ""},
		{"aws config snapshot", `{"fileVersion":"1.0","configurationItems":[]}`, FormatAWSConfig, ""},
		{"aws config item array", `[{"resourceType":"AWS::S3::Bucket"}]`, FormatAWSConfig, ""},
		{"aws config notification", `{"configurationItem":{}}`, FormatAWSConfig, ""},
		{"terraform state", `{"version":4,"terraform_version":"1.9.8","serial":1,"lineage":"x","resources":[]}`, FormatTerraformState, ""},
		{"terraform state without lineage", `{"version":4,"resources":[]}`, FormatTerraformState, ""},
		{"terraform show", `{"format_version":"1.0","values":{}}`, FormatTerraformShow, ""},
		{"empty", "  \n", "", engine.CodeInvalidRequest},
		{"not json", "resource,type\n", "", engine.CodeInvalidRequest},
		{"unknown object", `{"hello":"world"}`, "", engine.CodeInvalidRequest},
		{"array of numbers", `[1,2,3]`, "", engine.CodeInvalidRequest},
		{"malformed", `{"version" 4}`, "", engine.CodeInvalidRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, f, err := Open(strings.NewReader(tt.input))
			if diff := cmp.Diff([2]string{string(tt.want), tt.code}, [2]string{string(f), engine.ErrorCode(err)}); diff != "" {
				t.Errorf("(-want +got)\n%s (err %v)", diff, err)
			}
		})
	}
}

func FuzzNDJSONDecoder(f *testing.F) {
	f.Add([]byte(goodLine + "\n" + goodLine))
	f.Add([]byte("{\"provider\":\"aws\",\"tags\":{\"\":\"\"}}\n\n{"))
	f.Add([]byte(`{"provider":"aws","account":"111122223333","type":"aws_vpc","native_id":"x","attributes":{"a":[1,{"b":null}]}}`))
	f.Add([]byte("\x00\xff\n{}\n[]\nnull\n\"x\""))
	f.Fuzz(func(t *testing.T, data []byte) {
		d := NewNDJSONDecoder(bytes.NewReader(data))
		for i := 0; i <= bytes.Count(data, []byte("\n"))+1; i++ {
			r, err := d.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			var le *LineError
			if err != nil && !errors.As(err, &le) {
				t.Fatalf("fatal error on in-memory input: %v", err)
			}
			if err == nil {
				if verr := Validate(&r); verr != nil {
					t.Fatalf("decoded an invalid resource: %v", verr)
				}
				checkPrechecked(t, r)
			}
		}
		if _, err := d.Next(); !errors.Is(err, io.EOF) {
			t.Fatalf("more records than lines")
		}
	})
}

// FuzzNDJSONFastPath checks that the reflection-free decoder agrees with
// encoding/json on every line it accepts.
func FuzzNDJSONFastPath(f *testing.F) {
	f.Add([]byte(goodLine))
	f.Add([]byte(`{"Provider":"aws","tags":{"a":"\u00e9"},"tags":{"b":"c"},"attributes":[1e5,-0.5,"\"",{}]}`))
	f.Add([]byte(`{"name":"caf\u00e9","attributes":{"x":[true,false,null]}} `))
	f.Fuzz(func(t *testing.T, line []byte) {
		fast, ok := fastLine(line, false, nil)
		if !ok {
			return
		}
		slow, err := slowLine(line)
		if err != nil {
			t.Fatalf("fast path accepted what encoding/json rejects: %v", err)
		}
		if diff := cmp.Diff(slow, asSlow(fast), cmp.AllowUnexported(ndjsonLine{})); diff != "" {
			t.Fatalf("(-encoding/json +fast)\n%s", diff)
		}
	})
}

// errAfter reads r, then fails with err instead of io.EOF.
type errAfter struct {
	r   io.Reader
	err error
}

func (e *errAfter) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if errors.Is(err, io.EOF) {
		err = e.err
	}
	return n, err
}

// TestNDJSONDecoderChunks checks that decoding lines ahead in chunks on
// other goroutines changes nothing the caller sees: over thousands of lines
// with bad, blank and too-long ones across chunk boundaries, then a read
// error, every outcome comes in input order with its line number and
// offset, exactly as each line decodes alone, with one worker or many.
func TestNDJSONDecoderChunks(t *testing.T) {
	var (
		input strings.Builder
		want  []outcome
		offs  []int64
	)
	for i := 1; i <= 5*chunkLines+7; i++ {
		start := int64(input.Len())
		var line string
		switch {
		case i%131 == 0:
			line = "   "
		case i%97 == 0:
			line = `{"provider":`
		case i == 2*chunkLines+1:
			line = `{"name":"` + strings.Repeat("x", MaxLineBytes) + `"}`
		case i%89 == 0:
			line = `{"provider":"aws","type":"aws_vpc"}` // no native id
		default:
			line = strings.Replace(goodLine, `"native_id":"arn:aws:s3:::a"`, fmt.Sprintf(`"native_id":"arn:aws:s3:::b%d"`, i), 1)
		}
		input.WriteString(line + "\n")
		if strings.TrimSpace(line) == "" {
			continue
		}
		// The oracle: the line alone.
		got := drain(NewNDJSONDecoder(strings.NewReader(line)))
		if len(got) != 1 {
			t.Fatalf("line %d alone gave %v", i, got)
		}
		if got[0].Code != "" {
			got[0].Line = int64(i)
		}
		want = append(want, got[0])
		offs = append(offs, start)
	}
	want = append(want, outcome{Code: "fatal:" + engine.CodeInvalidRequest})
	for _, workers := range []int{1, 2, 7} {
		d := NewNDJSONDecoder(&errAfter{strings.NewReader(input.String()), errors.New("disk gone")})
		d.workers = workers
		var got []outcome
		for j := 0; ; j++ {
			r, err := d.Next()
			var le *LineError
			if errors.As(err, &le) {
				got = append(got, outcome{Line: le.Line, Code: engine.ErrorCode(err)})
				if le.Offset != offs[j] {
					t.Errorf("workers %d: line %d offset %d, want %d", workers, le.Line, le.Offset, offs[j])
				}
				continue
			}
			if err != nil {
				got = append(got, outcome{Code: "fatal:" + engine.ErrorCode(err)})
				if !strings.Contains(err.Error(), "disk gone") {
					t.Errorf("workers %d: final error %v", workers, err)
				}
				if _, again := d.Next(); again != err {
					t.Errorf("workers %d: the error is not returned again: %v", workers, again)
				}
				break
			}
			got = append(got, outcome{NativeID: r.NativeID})
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("workers %d (-want +got):\n%s", workers, diff)
		}
	}
}

// TestNDJSONTagArena decodes enough lines for their tags to fill several
// of a chunk's tag arena slices, and checks that each resource has its own
// tags, in key order, with no room to append over another's.
func TestNDJSONTagArena(t *testing.T) {
	const n = 3 * tagArenaSize
	var in strings.Builder
	for i := range n {
		// 1 to 3 tags, out of order, one key twice on every fifth line.
		fmt.Fprintf(&in, `{"provider":"aws","account":"111122223333","region":"eu-west-1","type":"aws_vpc","native_id":"vpc-%d","tags":{"z":"%d"`, i, i)
		for k := range i % 3 {
			fmt.Fprintf(&in, `,"k%d":"v%d-%d"`, k, i, k)
		}
		if i%5 == 0 {
			fmt.Fprintf(&in, `,"z":"last-%d"`, i)
		}
		in.WriteString("}}\n")
	}
	d := NewNDJSONDecoder(strings.NewReader(in.String()))
	var got []engine.Resource
	for {
		r, err := d.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	if len(got) != n {
		t.Fatalf("decoded %d resources, want %d", len(got), n)
	}
	for i := range got {
		// Appending to one resource's tags must not change the next's.
		got[i].Tags = append(got[i].Tags, engine.Tag{Key: "~", Value: "appended"})
	}
	for i, r := range got {
		want := engine.Tags{}
		for k := range i % 3 {
			want = append(want, engine.Tag{Key: fmt.Sprintf("k%d", k), Value: fmt.Sprintf("v%d-%d", i, k)})
		}
		z := strconv.Itoa(i)
		if i%5 == 0 {
			z = fmt.Sprintf("last-%d", i)
		}
		want = append(want, engine.Tag{Key: "z", Value: z}, engine.Tag{Key: "~", Value: "appended"})
		if diff := cmp.Diff(want, r.Tags); diff != "" {
			t.Fatalf("line %d: tags (-want +got)\n%s", i, diff)
		}
	}
}
