package inventory

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/fourd-dev/fourd/engine"
)

// Decoder reads resources from a stream, one at a time.
type Decoder interface {
	// Next returns the next resource. At the end of the input it returns
	// io.EOF. A *LineError reports one bad record (code validation_failed
	// or invalid_request): the caller may log it and call Next again. Any
	// other error (an invalid_request *engine.Error for malformed JSON
	// that cannot be skipped, or a read error) ends the stream and is
	// returned again by later calls.
	Next() (engine.Resource, error)
}

// LineError is a recoverable error about one record of the input.
type LineError struct {
	Line   int64 // 1-based line of the record; 0 when the format is not line-based
	Offset int64 // byte offset where the record starts
	Err    error // an *engine.Error
}

func (e *LineError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, engine.ErrorMessage(e.Err))
	}
	return fmt.Sprintf("record at byte offset %d: %s", e.Offset, engine.ErrorMessage(e.Err))
}

// Unwrap returns the *engine.Error, so engine.ErrorCode sees its code.
func (e *LineError) Unwrap() error { return e.Err }

// Format is an input format Open recognizes.
type Format string

// The input formats.
const (
	FormatNDJSON         Format = "ndjson"          // fourd's own, one resource a line
	FormatAWSConfig      Format = "aws-config"      // snapshot file or configuration items
	FormatTerraformState Format = "terraform-state" // terraform.tfstate, version 4
	FormatTerraformShow  Format = "terraform-show"  // terraform show -json
	FormatJSONArray      Format = "json-array"      // a JSON array of fourd resources
)

// Formats lists the formats in the order docs name them.
var Formats = []Format{FormatNDJSON, FormatJSONArray, FormatAWSConfig, FormatTerraformState, FormatTerraformShow}

// readerSize is the buffer of the readers Open creates: large enough for
// Detect to see past a Terraform state's outputs and for long NDJSON lines.
const readerSize = 1 << 20

// Open detects the format of r (gzip-compressed or not) and returns its
// decoder. An input in no known format is invalid_request.
func Open(r io.Reader) (Decoder, Format, error) {
	br := bufio.NewReaderSize(r, readerSize)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, "", engine.Errorf(engine.CodeInvalidRequest, "input looks gzip-compressed but is not: %v", err)
		}
		br = bufio.NewReaderSize(zr, readerSize)
	}
	f, err := Detect(br)
	if err != nil {
		return nil, "", err
	}
	d, err := NewDecoder(f, br)
	return d, f, err
}

// NewDecoder returns the decoder of a known format.
func NewDecoder(f Format, r io.Reader) (Decoder, error) {
	switch f {
	case FormatNDJSON:
		return NewNDJSONDecoder(r), nil
	case FormatJSONArray:
		return NewArrayDecoder(r), nil
	case FormatAWSConfig:
		return NewAWSConfigDecoder(r), nil
	case FormatTerraformState, FormatTerraformShow:
		return NewTerraformDecoder(r), nil
	}
	return nil, engine.Errorf(engine.CodeInvalidRequest, "unknown inventory format %q (known: ndjson, aws-config, terraform-state, terraform-show)", f)
}

// Detect sniffs the format from the first bytes of r without consuming
// them: the top-level keys of the first JSON object decide. It sees at
// most r's buffer size.
func Detect(r *bufio.Reader) (Format, error) {
	p, err := r.Peek(r.Size())
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return "", err
	}
	p = bytes.TrimPrefix(p, []byte("\xef\xbb\xbf"))
	start := 0
	for start < len(p) && isSpace(p[start]) {
		start++
	}
	if start == len(p) {
		return "", engine.Errorf(engine.CodeInvalidRequest, "the input is empty")
	}
	body := p[start:]
	if body[0] == '[' {
		// AWS Config items, or fourd's own resources, as a JSON array.
		i := 1
		for i < len(body) && isSpace(body[i]) {
			i++
		}
		if i < len(body) && body[i] == ']' {
			return FormatJSONArray, nil // empty
		}
		if i < len(body) && body[i] == '"' {
			// select-resource-config's Results: items as JSON strings.
			var first string
			if json.NewDecoder(bytes.NewReader(body[i:])).Decode(&first) == nil {
				if f, err := sniffObject([]byte(first), int64(start+i)); err == nil && f == FormatAWSConfig {
					return f, nil
				}
			}
			return "", unknownFormat()
		}
		if i < len(body) && body[i] == '{' {
			if f, err := sniffObject(body[i:], int64(start+i)); err == nil {
				switch f {
				case FormatAWSConfig:
					return f, nil
				case FormatNDJSON:
					return FormatJSONArray, nil
				}
			}
		}
		return "", unknownFormat()
	}
	if body[0] != '{' {
		return "", engine.Errorf(engine.CodeInvalidRequest, "the input is not JSON: it starts with %q; %s", clip(string(body[:min(len(body), 16)])), knownFormats)
	}
	return sniffObject(body, int64(start))
}

const knownFormats = "expected fourd NDJSON, an AWS Config snapshot or configuration items, a Terraform v4 state or `terraform show -json` output"

func unknownFormat() error {
	return engine.Errorf(engine.CodeInvalidRequest, "unknown inventory format: %s", knownFormats)
}

// sniffObject classifies a JSON object by its top-level keys.
func sniffObject(b []byte, base int64) (Format, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return "", malformed(err, base+dec.InputOffset())
	}
	sawVersion := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break // the window ended inside the object: decide on what we saw
		}
		key, _ := tok.(string)
		switch key {
		case "configurationItems", "configurationItem", "fileVersion", "configSnapshotId",
			"resourceType", "configurationItemCaptureTime", "configurationItemStatus", "awsAccountId", "awsRegion", "ARN",
			"baseConfigurationItems", "BaseConfigurationItems", "ConfigurationItem", "invokingEvent", "QueryInfo", "Results":
			return FormatAWSConfig, nil
		case "lineage", "serial":
			return FormatTerraformState, nil
		case "format_version", "values", "planned_values", "prior_state":
			return FormatTerraformShow, nil
		case "provider", "native_id", "account", "attributes":
			return FormatNDJSON, nil
		case "version":
			sawVersion = true
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				return "", malformed(err, base+dec.InputOffset())
			}
			break
		}
	}
	if sawVersion {
		return FormatTerraformState, nil
	}
	return "", unknownFormat()
}

// malformed is the invalid_request error for JSON that cannot be parsed.
func malformed(err error, offset int64) error {
	var se *json.SyntaxError
	var ee *engine.Error
	if errors.As(err, &ee) { // the reader's own, e.g. a body that broke off
		return ee
	}
	if errors.As(err, &se) {
		return engine.Errorf(engine.CodeInvalidRequest, "malformed JSON at byte offset %d: %s", offset, se.Error())
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return engine.Errorf(engine.CodeInvalidRequest, "malformed JSON: the input ends at byte offset %d inside a value", offset)
	}
	return engine.Errorf(engine.CodeInvalidRequest, "malformed JSON at byte offset %d: %s", offset, err.Error())
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }
