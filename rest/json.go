package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// listBody is the pagination envelope of every list response. next_cursor
// is null when has_more is false.
type listBody[T any] struct {
	Data       []T     `json:"data"`
	NextCursor *string `json:"next_cursor"`
	HasMore    bool    `json:"has_more"`
}

func newListBody[T any](p engine.Page[T]) listBody[T] {
	b := listBody[T]{Data: p.Items, HasMore: p.HasMore}
	if b.Data == nil {
		b.Data = []T{}
	}
	if p.HasMore && p.NextCursor != "" {
		c := p.NextCursor
		b.NextCursor = &c
	}
	return b
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// writeJSON writes v as the JSON body of a response with the status. The
// body is encoded before anything is sent, so an encoding failure can still
// be answered with a 500.
func writeJSON(w http.ResponseWriter, status int, v any) {
	buf := bufPool.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= 1<<20 {
			buf.Reset()
			bufPool.Put(buf)
		}
	}()
	buf.Reset()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		buf.Reset()
		status = http.StatusInternalServerError
		buf.WriteString(`{"error":{"code":"internal_error","message":"internal error; quote the request id to support","request_id":`)
		buf.WriteString(strconv.Quote(w.Header().Get("X-Request-Id")))
		buf.WriteString("}}\n")
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// decodeJSON reads the request body as one JSON value into v. It is the one
// place request bodies are read: a body over the size limit is
// payload_too_large, a wrong content type or malformed JSON is
// invalid_request, and unknown fields are validation_failed.
func decodeJSON(r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			return engine.Errorf(engine.CodeInvalidRequest, "the body must be application/json; got %q", truncate(ct, 60))
		}
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if _, extra := dec.Token(); extra != io.EOF {
			err = errors.New("data after the JSON value")
		}
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var tp *time.ParseError
	var ee *engine.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee): // the body broke off (clientBody)
		return ee
	case isMaxBytes(err):
		return errTooLarge(err)
	case errors.Is(err, io.EOF):
		return engine.Errorf(engine.CodeInvalidRequest, "the request body is empty; send a JSON object")
	case errors.As(err, &syn):
		return engine.Errorf(engine.CodeInvalidRequest, "malformed JSON at byte %d: %v", syn.Offset, syn)
	case errors.As(err, &typ):
		if typ.Field == "" {
			return engine.Errorf(engine.CodeValidationFailed, "the body must be %s; got %s", jsonKind(typ.Type), typ.Value)
		}
		return &engine.Error{Code: engine.CodeValidationFailed, Field: typ.Field,
			Message: "field " + strconv.Quote(typ.Field) + " must be " + jsonKind(typ.Type) + "; got " + typ.Value}
	case errors.As(err, &tp):
		// A time field's UnmarshalJSON does not say which field it was.
		return engine.Errorf(engine.CodeValidationFailed, "a time must be an RFC 3339 string such as 2026-01-31T00:00:00Z; got %s", strconv.Quote(truncate(tp.Value, 60)))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return engine.Errorf(engine.CodeValidationFailed, "%s", strings.TrimPrefix(err.Error(), "json: "))
	default:
		// json reports unexpected EOF and trailing data
		// with plain errors; all of them describe the caller's body.
		return engine.Errorf(engine.CodeInvalidRequest, "malformed JSON: %s", truncate(err.Error(), 200))
	}
}

// jsonKind names what JSON value a Go type decodes from, in the words of
// JSON, not Go's ("an integer", not "int").
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == reflect.TypeFor[time.Time]():
		return "an RFC 3339 time string"
	case t == reflect.TypeFor[json.RawMessage]():
		return "a JSON value"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a JSON value"
}

func errTooLarge(err error) error {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return engine.Errorf(engine.CodePayloadTooLarge, "the request body is larger than %d bytes", mb.Limit)
	}
	return engine.Errorf(engine.CodePayloadTooLarge, "the request body is too large")
}
