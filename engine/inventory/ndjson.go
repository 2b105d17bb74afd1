package inventory

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/fourd-dev/fourd/engine"
)

// ndjsonLine is one line of fourd's NDJSON: the exported fields of
// engine.Resource. Other keys (id, first_seen_at, …) are ignored, so the
// output of GET /v1/resources reads back.
type ndjsonLine struct {
	Provider   string            `json:"provider"`
	Account    string            `json:"account"`
	Region     string            `json:"region"`
	Type       string            `json:"type"`
	NativeID   string            `json:"native_id"`
	Name       string            `json:"name"`
	Tags       map[string]string `json:"tags"`
	Attributes json.RawMessage   `json:"attributes"`
}

// NDJSONDecoder reads fourd's NDJSON: one JSON object a line with provider,
// account, region, type, native_id, name, tags and attributes. Blank lines
// are skipped; a line that is not valid JSON, too long, or fails Validate
// is a *LineError and the stream goes on with the next line.
type NDJSONDecoder struct {
	r      *bufio.Reader
	line   int64
	offset int64 // of the next line
	long   []byte
	err    error
}

// NewNDJSONDecoder returns a decoder reading r through a large buffer.
func NewNDJSONDecoder(r io.Reader) *NDJSONDecoder {
	br, ok := r.(*bufio.Reader)
	if !ok || br.Size() < 64<<10 {
		br = bufio.NewReaderSize(r, readerSize)
	}
	return &NDJSONDecoder{r: br}
}

// Next returns the next resource; see Decoder.
func (d *NDJSONDecoder) Next() (engine.Resource, error) {
	for {
		if d.err != nil {
			return engine.Resource{}, d.err
		}
		raw, start, tooLong, err := d.readLine()
		if err != nil && (len(raw) == 0 && !tooLong) {
			d.err = err
			if !errors.Is(err, io.EOF) {
				d.err = engine.Errorf(engine.CodeInvalidRequest, "reading line %d: %v", d.line+1, err)
			}
			return engine.Resource{}, d.err
		}
		d.line++
		if err != nil {
			d.err = err // the last line had no newline; report it, then stop
			if !errors.Is(err, io.EOF) {
				d.err = engine.Errorf(engine.CodeInvalidRequest, "reading line %d: %v", d.line+1, err)
			}
		}
		if tooLong {
			return engine.Resource{}, d.lineError(start, engine.Errorf(engine.CodeValidationFailed, "line is longer than %d bytes", MaxLineBytes))
		}
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 {
			continue
		}
		res, err := decodeLine(raw)
		if err != nil {
			return engine.Resource{}, d.lineError(start, err)
		}
		return res, nil
	}
}

func (d *NDJSONDecoder) lineError(start int64, err error) *LineError {
	return &LineError{Line: d.line, Offset: start, Err: err}
}

// readLine returns the next line without its newline. The slice is valid
// until the next call. A line longer than MaxLineBytes is consumed and
// reported as tooLong.
func (d *NDJSONDecoder) readLine() (line []byte, start int64, tooLong bool, err error) {
	start = d.offset
	line, err = d.r.ReadSlice('\n')
	d.offset += int64(len(line))
	if errors.Is(err, bufio.ErrBufferFull) {
		d.long = append(d.long[:0], line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = d.r.ReadSlice('\n')
			d.offset += int64(len(line))
			if !tooLong {
				d.long = append(d.long, line...)
				if len(d.long) > MaxLineBytes+1 {
					tooLong, d.long = true, d.long[:0]
				}
			}
		}
		line = d.long
	}
	if len(line) > MaxLineBytes+1 {
		tooLong = true
	}
	if tooLong {
		return nil, start, true, err
	}
	return bytes.TrimSuffix(line, []byte("\n")), start, false, err
}

func decodeLine(raw []byte) (engine.Resource, error) {
	if raw[0] != '{' {
		return engine.Resource{}, engine.Errorf(engine.CodeInvalidRequest, "a line must be a JSON object")
	}
	l, ok := fastLine(raw)
	if !ok {
		l, err := slowLine(raw)
		if err != nil {
			return engine.Resource{}, err
		}
		return toResource(l)
	}
	return toResource(l)
}

// slowLine decodes a line with encoding/json, for the precise error.
func slowLine(raw []byte) (ndjsonLine, error) {
	var l ndjsonLine
	if err := json.Unmarshal(raw, &l); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return l, engine.FieldErrorf(te.Field, "%s must not be a JSON %s", fieldName(te.Field), te.Value)
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return l, engine.Errorf(engine.CodeInvalidRequest, "malformed JSON at column %d: %s", se.Offset, se.Error())
		}
		return l, engine.Errorf(engine.CodeInvalidRequest, "malformed JSON: %s", err.Error())
	}
	return l, nil
}

// toResource makes a line's resource. Its text fields and tags are valid
// UTF-8 whichever way the line was decoded: fastLine leaves any other line
// to encoding/json, which replaces invalid bytes with U+FFFD.
func toResource(l ndjsonLine) (engine.Resource, error) {
	res := engine.Resource{
		Provider: l.Provider, Account: l.Account, Region: l.Region, Type: l.Type,
		NativeID: l.NativeID, Name: l.Name, Tags: l.Tags, Attributes: l.Attributes,
	}
	if len(res.Attributes) == 0 || bytes.Equal(res.Attributes, []byte("null")) {
		res.Attributes = json.RawMessage(`{}`) // a fresh slice: callers may append
	}
	if err := validate(&res, true); err != nil {
		return engine.Resource{}, err
	}
	return res, nil
}

func fieldName(f string) string {
	if f == "" {
		return "the line"
	}
	return f
}
