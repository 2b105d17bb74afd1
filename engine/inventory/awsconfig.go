package inventory

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/fourd-dev/fourd/engine"
)

// configItem is one AWS Config configuration item, as snapshot files, the
// configuration-history API and change notifications write it. Keys match
// case-insensitively, so "ARN" and "arn" both land in ARN.
type configItem struct {
	ResourceType     string                     `json:"resourceType"`
	ResourceID       string                     `json:"resourceId"`
	ResourceName     string                     `json:"resourceName"`
	ARN              string                     `json:"ARN"`
	AWSRegion        string                     `json:"awsRegion"`
	AWSAccountID     string                     `json:"awsAccountId"`
	AccountID        string                     `json:"accountId"`
	AvailabilityZone string                     `json:"availabilityZone"`
	Status           string                     `json:"configurationItemStatus"`
	Configuration    json.RawMessage            `json:"configuration"`
	Supplementary    map[string]json.RawMessage `json:"supplementaryConfiguration"`
	Tags             map[string]string          `json:"tags"`
}

// AWSConfigDecoder streams AWS Config configuration items: a snapshot file
// ({"fileVersion", "configurationItems": [...]}), a JSON array of items,
// a sequence of item objects (one a line or concatenated), or change
// notifications ({"configurationItem": {...}}). Items are decoded one at a
// time, so a snapshot is never loaded whole. Deleted items are skipped.
// VPCs are held until the end of the input, because their flow logs are
// separate items (AWS::EC2::FlowLog) that may come later.
type AWSConfigDecoder struct {
	dec   *json.Decoder
	stack []cfgFrame
	joins *joiner
	out   []engine.Resource
	err   error
	done  bool
}

type cfgFrame int

const (
	cfgObject cfgFrame = iota + 1 // inside a top-level object
	cfgArray                      // inside an array of items
)

// NewAWSConfigDecoder returns a decoder over r.
func NewAWSConfigDecoder(r io.Reader) *AWSConfigDecoder {
	return &AWSConfigDecoder{dec: json.NewDecoder(r), joins: newJoiner()}
}

// Next returns the next resource; see Decoder.
func (d *AWSConfigDecoder) Next() (engine.Resource, error) {
	for {
		if len(d.out) > 0 {
			r := d.out[0]
			d.out = d.out[1:]
			return r, nil
		}
		if d.err != nil {
			return engine.Resource{}, d.err
		}
		if d.done {
			d.out = d.joins.flush()
			d.err = io.EOF
			continue
		}
		res, ok, err := d.step()
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) {
				d.err = err
			}
			return engine.Resource{}, err
		}
		if ok {
			if d.joins.hold(res) {
				continue
			}
			return res, nil
		}
	}
}

// step advances by one token or item; ok reports a resource.
func (d *AWSConfigDecoder) step() (engine.Resource, bool, error) {
	if len(d.stack) == 0 {
		if !d.dec.More() {
			if _, err := d.dec.Token(); err != nil && !errors.Is(err, io.EOF) {
				return engine.Resource{}, false, malformed(err, d.dec.InputOffset())
			}
			d.done = true
			return engine.Resource{}, false, nil
		}
		tok, err := d.dec.Token()
		if err != nil {
			return engine.Resource{}, false, malformed(err, d.dec.InputOffset())
		}
		switch tok {
		case json.Delim('['):
			d.stack = append(d.stack, cfgArray)
		case json.Delim('{'):
			d.stack = append(d.stack, cfgObject)
			return d.topObject()
		default:
			return engine.Resource{}, false, engine.Errorf(engine.CodeInvalidRequest,
				"AWS Config input: expected an object or array at byte offset %d", d.dec.InputOffset())
		}
		return engine.Resource{}, false, nil
	}
	switch d.stack[len(d.stack)-1] {
	case cfgArray:
		if !d.dec.More() {
			return d.pop()
		}
		return d.item()
	default:
		return d.topObject()
	}
}

// topObject reads keys of a top-level object until it yields a resource or
// enters the configurationItems array. An object that is itself a
// configuration item is collected key by key and converted at its end.
func (d *AWSConfigDecoder) topObject() (engine.Resource, bool, error) {
	start := d.dec.InputOffset()
	var fields map[string]json.RawMessage
	for d.dec.More() {
		tok, err := d.dec.Token()
		if err != nil {
			return engine.Resource{}, false, malformed(err, d.dec.InputOffset())
		}
		key, _ := tok.(string)
		switch key {
		case "configurationItems":
			tok, err := d.dec.Token()
			if err != nil {
				return engine.Resource{}, false, malformed(err, d.dec.InputOffset())
			}
			if tok != json.Delim('[') {
				return engine.Resource{}, false, engine.Errorf(engine.CodeInvalidRequest,
					"AWS Config snapshot: configurationItems must be an array (byte offset %d)", d.dec.InputOffset())
			}
			d.stack = append(d.stack, cfgArray)
			return engine.Resource{}, false, nil
		case "configurationItem":
			return d.item()
		}
		var v json.RawMessage
		if err := d.dec.Decode(&v); err != nil {
			return engine.Resource{}, false, malformed(err, d.dec.InputOffset())
		}
		if fields == nil {
			fields = map[string]json.RawMessage{}
		}
		fields[key] = v
	}
	if _, _, err := d.pop(); err != nil {
		return engine.Resource{}, false, err
	}
	if _, isItem := fields["resourceType"]; !isItem {
		return engine.Resource{}, false, nil // a snapshot's trailer, or a notification's envelope
	}
	b, _ := json.Marshal(fields)
	var ci configItem
	if err := json.Unmarshal(b, &ci); err != nil {
		return engine.Resource{}, false, &LineError{Offset: start, Err: engine.Errorf(engine.CodeValidationFailed, "configuration item: %v", err)}
	}
	return d.convert(&ci, start)
}

func (d *AWSConfigDecoder) pop() (engine.Resource, bool, error) {
	if _, err := d.dec.Token(); err != nil {
		return engine.Resource{}, false, malformed(err, d.dec.InputOffset())
	}
	d.stack = d.stack[:len(d.stack)-1]
	return engine.Resource{}, false, nil
}

// item decodes one configuration item at the decoder's position.
func (d *AWSConfigDecoder) item() (engine.Resource, bool, error) {
	start := d.dec.InputOffset()
	var ci configItem
	if err := d.dec.Decode(&ci); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			// The item was consumed whole: skip it and go on.
			return engine.Resource{}, false, &LineError{Offset: start, Err: engine.FieldErrorf(te.Field,
				"configuration item: %s must not be a JSON %s", fieldName(te.Field), te.Value)}
		}
		return engine.Resource{}, false, malformed(err, d.dec.InputOffset())
	}
	return d.convert(&ci, start)
}

func (d *AWSConfigDecoder) convert(ci *configItem, start int64) (engine.Resource, bool, error) {
	switch ci.Status {
	case "ResourceDeleted", "ResourceDeletedNotRecorded", "ResourceNotRecorded":
		return engine.Resource{}, false, nil
	}
	res, err := fromConfigItem(ci, d.joins)
	if err == nil {
		err = Validate(&res)
	}
	if err != nil {
		return engine.Resource{}, false, &LineError{Offset: start, Err: err}
	}
	return res, true, nil
}

// jsonObject returns raw as a JSON value's bytes: the configuration
// history API (and aggregators) write configuration values as JSON strings
// holding JSON, and S3's AccessControlList there is encoded twice, so
// strings are unwrapped while they hold JSON. Null and empty give nil.
func jsonObject(raw json.RawMessage) []byte {
	raw = bytes.TrimSpace(raw)
	for len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			break
		}
		inner := bytes.TrimSpace([]byte(s))
		if !json.Valid(inner) {
			break // a plain string value
		}
		raw = inner
	}
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	return raw
}
