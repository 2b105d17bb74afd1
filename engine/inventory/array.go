package inventory

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/fourd-dev/fourd/engine"
)

// ArrayDecoder reads a JSON array of fourd resources (the objects of the
// NDJSON format), one element at a time: the array is never held whole.
type ArrayDecoder struct {
	dec     *json.Decoder
	started bool
	err     error // sticky: the stream ended
}

// NewArrayDecoder returns a decoder of a JSON array of resources.
func NewArrayDecoder(r io.Reader) *ArrayDecoder {
	return &ArrayDecoder{dec: json.NewDecoder(r)}
}

// Next returns the next element as a resource: a *LineError (with the
// element's byte offset) for an invalid element, io.EOF after the array,
// invalid_request for malformed JSON, which ends the stream.
func (d *ArrayDecoder) Next() (engine.Resource, error) {
	if d.err != nil {
		return engine.Resource{}, d.err
	}
	if !d.started {
		d.started = true
		if tok, err := d.dec.Token(); err != nil || tok != json.Delim('[') {
			return d.fail(err, "the input must be a JSON array of resources")
		}
	}
	if !d.dec.More() {
		if _, err := d.dec.Token(); err != nil { // the closing ]
			return d.fail(err, "the array is not closed")
		}
		d.err = io.EOF
		return engine.Resource{}, io.EOF
	}
	offset := d.dec.InputOffset()
	var raw json.RawMessage
	if err := d.dec.Decode(&raw); err != nil {
		return d.fail(err, "malformed JSON")
	}
	if raw[0] != '{' {
		return engine.Resource{}, &LineError{Offset: offset, Err: engine.Errorf(engine.CodeInvalidRequest, "an element must be a JSON object")}
	}
	r, err := decodeLine(raw, false, nil)
	if err != nil {
		return engine.Resource{}, &LineError{Offset: offset, Err: err}
	}
	return r, nil
}

func (d *ArrayDecoder) fail(err error, what string) (engine.Resource, error) {
	var se *json.SyntaxError
	switch {
	case err == nil:
		d.err = engine.Errorf(engine.CodeInvalidRequest, "%s", what)
	case errors.As(err, &se):
		d.err = engine.Errorf(engine.CodeInvalidRequest, "%s at byte %d: %v", what, se.Offset, se)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		d.err = engine.Errorf(engine.CodeInvalidRequest, "%s: the input ends early", what)
	default:
		d.err = fmt.Errorf("reading the array: %w", err) // a read error, e.g. a body over its limit
	}
	return engine.Resource{}, d.err
}
