package inventory

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"time"

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
	// CapturedAt is when the source captured the configuration, RFC 3339
	// ("" or null: not known); toResource parses it.
	CapturedAt string `json:"captured_at,omitempty"`
	// tags are fastLine's, in place of Tags: in key order, with no map.
	tags engine.Tags
}

// NDJSONDecoder reads fourd's NDJSON: one JSON object a line with provider,
// account, region, type, native_id, name, tags, attributes and
// captured_at (optional, RFC 3339). Blank lines
// are skipped; a line that is not valid JSON, too long, or fails Validate
// is a *LineError and the stream goes on with the next line.
//
// Decoding a line costs several times reading it, and was half of what
// `fourd import` did on the one goroutine that feeds the writer
// (docs/design/bulk-write.md). So the decoder reads lines ahead in
// chunks, on the caller's goroutine, and decodes each chunk on a goroutine
// of its own, up to chunksAhead chunks at a time; Next hands out the
// results in input order. Only the caller reads r, so an HTTP request body
// is never read after its handler returns, and a decoding goroutine always
// ends with its chunk, whether or not the caller reads on.
type NDJSONDecoder struct {
	r      *bufio.Reader
	line   int64
	offset int64 // of the next line
	long   []byte
	// ended is set once reading stopped: the last chunk read carries the
	// error that ends the stream (io.EOF at the end of the input).
	ended    bool
	chunkCap int            // room to make for the next chunk's bytes
	ahead    []*ndjsonChunk // being decoded, in input order
	cur      *ndjsonChunk   // being handed out
	pos      int
	spare    []*ndjsonChunk // handed out, to reuse
	workers  int
	err      error
}

// ndjsonChunk is a run of consecutive non-blank lines, copied back to back
// into raw, and their results once done is closed.
type ndjsonChunk struct {
	raw   []byte
	lines []chunkLine
	out   []lineResult
	tags  tagArena      // the decoded lines' tags
	err   error         // what ends the stream after these lines, if anything
	done  chan struct{} // receives once the lines are decoded
}

type chunkLine struct {
	from, to     int
	line, offset int64
	tooLong      bool
}

type lineResult struct {
	res engine.Resource
	err error
}

// A chunk holds up to chunkLines lines or about chunkBytes of them.
const (
	chunkLines = 512
	chunkBytes = 256 << 10
	// chunkSlack is room for the line that takes a chunk past chunkBytes.
	chunkSlack = 4 << 10
	// minChunkCap is the room a decoder's first chunk starts with.
	minChunkCap = 4 << 10
)

// NewNDJSONDecoder returns a decoder reading r through a large buffer.
func NewNDJSONDecoder(r io.Reader) *NDJSONDecoder {
	br, ok := r.(*bufio.Reader)
	if !ok || br.Size() < 64<<10 {
		br = bufio.NewReaderSize(r, readerSize)
	}
	return &NDJSONDecoder{r: br, workers: runtime.GOMAXPROCS(0), chunkCap: minChunkCap}
}

// Next returns the next resource; see Decoder.
func (d *NDJSONDecoder) Next() (engine.Resource, error) {
	for {
		if c := d.cur; c != nil {
			if d.pos < len(c.out) {
				r := c.out[d.pos]
				c.out[d.pos] = lineResult{} // the caller owns the resource now
				d.pos++
				return r.res, r.err
			}
			if c.err != nil {
				d.err = c.err
			}
			d.spare = append(d.spare, c)
			d.cur = nil
		}
		if d.err != nil {
			return engine.Resource{}, d.err
		}
		// Two chunks a core ahead keep every core decoding while the
		// caller works through the oldest.
		for !d.ended && len(d.ahead) < 2*d.workers+1 {
			c := d.readChunk()
			d.ahead = append(d.ahead, c)
			go c.decode()
		}
		c := d.ahead[0]
		d.ahead = d.ahead[1:]
		<-c.done
		d.cur, d.pos = c, 0
	}
}

// readChunk reads the next chunk of lines, and the error that ends the
// stream if reading stops within it.
func (d *NDJSONDecoder) readChunk() *ndjsonChunk {
	var c *ndjsonChunk
	if n := len(d.spare); n > 0 {
		c, d.spare = d.spare[n-1], d.spare[:n-1]
		c.lines, c.out, c.err = c.lines[:0], c.out[:0], nil
	} else {
		c = &ndjsonChunk{done: make(chan struct{}, 1)}
	}
	// A chunk's bytes are its resources' strings (decodeLine): each chunk
	// has its own, never written again once read, instead of a copy of
	// each line (one allocation a chunk, not one a line). It is made as
	// large as the last chunk was, so that a small request body gets a
	// small one.
	c.raw = make([]byte, 0, d.chunkCap)
	defer func() { d.chunkCap = min(max(len(c.raw)+chunkSlack, minChunkCap), chunkBytes+chunkSlack) }()
	for len(c.lines) < chunkLines && len(c.raw) < chunkBytes {
		raw, start, tooLong, err := d.readLine()
		if err != nil && (len(raw) == 0 && !tooLong) {
			c.err = readError(err, d.line+1)
			d.ended = true
			return c
		}
		d.line++
		raw = bytes.TrimSpace(raw)
		if tooLong || len(raw) > 0 {
			from := len(c.raw)
			c.raw = append(c.raw, raw...)
			c.lines = append(c.lines, chunkLine{from: from, to: len(c.raw), line: d.line, offset: start, tooLong: tooLong})
		}
		if err != nil {
			// The last line had no newline: it is reported, then the
			// stream stops.
			c.err = readError(err, d.line+1)
			d.ended = true
			return c
		}
	}
	return c
}

// decode decodes the chunk's lines into out and signals done.
func (c *ndjsonChunk) decode() {
	defer func() { c.done <- struct{}{} }()
	c.out = slices.Grow(c.out[:0], len(c.lines))[:len(c.lines)]
	c.tags = tagArena{} // the last lines' resources may still hold its tags
	for i, l := range c.lines {
		if l.tooLong {
			c.out[i].err = &LineError{Line: l.line, Offset: l.offset,
				Err: engine.Errorf(engine.CodeValidationFailed, "line is longer than %d bytes", MaxLineBytes)}
			continue
		}
		res, err := decodeLine(c.raw[l.from:l.to], true, &c.tags)
		if err != nil {
			c.out[i].err = &LineError{Line: l.line, Offset: l.offset, Err: err}
			continue
		}
		c.out[i].res = res
	}
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

// decodeLine decodes a line; owned says raw never changes afterwards, so
// that the resource's strings may be raw's bytes (fastLine).
func decodeLine(raw []byte, owned bool, tags *tagArena) (engine.Resource, error) {
	if raw[0] != '{' {
		return engine.Resource{}, engine.Errorf(engine.CodeInvalidRequest, "a line must be a JSON object")
	}
	l, ok := fastLine(raw, owned, tags)
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
		NativeID: l.NativeID, Name: l.Name, Tags: l.tags, Attributes: l.Attributes,
	}
	if l.tags == nil {
		res.Tags = engine.TagsFromMap(l.Tags)
	}
	if len(res.Attributes) == 0 || bytes.Equal(res.Attributes, []byte("null")) {
		res.Attributes = json.RawMessage(`{}`) // a fresh slice: callers may append
	}
	if l.CapturedAt != "" {
		at, err := parseCapturedAt(l.CapturedAt)
		if err != nil {
			return engine.Resource{}, err
		}
		res.CapturedAt = &at
	}
	if err := validate(&res, true); err != nil {
		return engine.Resource{}, err
	}
	return res, nil
}

// Capture times a resource may carry: what the store's DateTime holds.
var (
	minCapturedAt = time.Unix(1, 0).UTC()
	maxCapturedAt = time.Date(2106, 2, 7, 6, 28, 15, 0, time.UTC)
)

// parseCapturedAt parses a line's captured_at: RFC 3339 with a time zone,
// within what the store holds; validation_failed on the field otherwise.
func parseCapturedAt(s string) (time.Time, error) {
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, engine.FieldErrorf("captured_at",
			"captured_at must be an RFC 3339 time with a time zone, e.g. 2026-11-20T09:14:05Z; got %q", truncateValue(s))
	}
	if at.Before(minCapturedAt) || at.After(maxCapturedAt) {
		return time.Time{}, engine.FieldErrorf("captured_at", "captured_at must be between 1970-01-01 and 2106-02-07; got %s", s)
	}
	return at.UTC(), nil
}

// truncateValue shortens a rejected value for its error message.
func truncateValue(s string) string {
	if len(s) <= 64 {
		return s
	}
	return strings.ToValidUTF8(s[:64], "") + "…"
}

func fieldName(f string) string {
	if f == "" {
		return "the line"
	}
	return f
}

// readError is the error that ends the stream when reading line n failed:
// io.EOF and a body over its limit (http.MaxBytesError, which Items turns
// into payload_too_large) as they are, an *engine.Error from the reader
// (the API's body reader says why a client's body broke off, without the
// socket addresses a network error names) with the line, anything else
// (a file's read error) invalid_request with the reader's text.
func readError(err error, n int64) error {
	var mbe *http.MaxBytesError
	var ee *engine.Error
	switch {
	case errors.Is(err, io.EOF), errors.As(err, &mbe):
		return err
	case errors.As(err, &ee):
		return &engine.Error{Code: ee.Code, Message: fmt.Sprintf("reading line %d: %s", n, ee.Message)}
	}
	return engine.Errorf(engine.CodeInvalidRequest, "reading line %d: %v", n, err)
}
