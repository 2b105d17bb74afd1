package inventory

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/cespare/xxhash/v2"
	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/jsonvalid"
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
	CaptureTime      flexTime                   `json:"configurationItemCaptureTime"`
	Configuration    json.RawMessage            `json:"configuration"`
	Supplementary    map[string]json.RawMessage `json:"supplementaryConfiguration"`
	Tags             cfgTags                    `json:"tags"`
	// partial marks an item that came as a JSON string in an array, as
	// select-resource-config (Advanced Query) returns them: it carries only
	// the properties the query selected, so a key it lacks is unknown even
	// where a whole item leaves the key out to mean "not configured".
	partial bool
}

// cfgTags is a configuration item's tags: an object in snapshots, history
// and events, an array of {"key","value"} in advanced-query results.
type cfgTags map[string]string

// UnmarshalJSON accepts both spellings; null leaves the tags empty.
func (t *cfgTags) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var list []struct {
			Key   string `json:"key"`
			Value string `json:"value"`
		}
		if err := json.Unmarshal(b, &list); err != nil {
			return err
		}
		m := make(map[string]string, len(list))
		for _, kv := range list {
			m[kv.Key] = kv.Value
		}
		*t = m
		return nil
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*t = m
	return nil
}

// AWSConfigDecoder streams AWS Config configuration items in every shape
// AWS delivers them: a snapshot or history file delivered to S3
// ({"fileVersion", "configurationItems": [...]}), the answers of
// get-resource-config-history ({"configurationItems"}), batch-get-resource-config
// ({"baseConfigurationItems"}), the aggregator's batch-get and get
// ({"BaseConfigurationItems"}, {"ConfigurationItem"}), select-resource-config
// ({"Results": ["<item as a JSON string>", …]}, or that array alone), a
// JSON array of items, a sequence of item objects (one a line or
// concatenated), change notifications ({"configurationItem": {...}}) and
// rule-invocation events ({"invokingEvent": "<JSON string>"}). Items'
// configuration and supplementary values may be objects or JSON strings.
// Items are decoded one at a time, so a snapshot is never loaded whole.
// Deleted and not-recorded items are skipped: they are not live resources.
// VPCs are held until the end of the input, because their flow logs are
// separate items (AWS::EC2::FlowLog) that may come later.
//
// Configuration history holds several versions of a resource; the newest
// configurationItemCaptureTime wins: an item older than a version of the
// same resource already read is skipped, and a newer one comes out after
// it (an import keeps the last observation of a resource it reads). A
// snapshot file (configSnapshotId) has one item per resource and is not
// tracked.
type AWSConfigDecoder struct {
	dec   *json.Decoder
	stack []cfgFrame
	joins *joiner
	out   []engine.Resource
	err   error
	done  bool
	// captured holds, per resource (a hash of type, account, region and
	// id), the capture time of the newest version read; nil for a snapshot.
	captured map[uint64]int64
	snapshot bool
	// pending holds a history input's versioned items until a later
	// deletion or version may still replace them (awsconfig_pending.go);
	// ready are the resources released from it, not yet returned.
	pending pending
	ready   []engine.Resource
}

type cfgFrame int

const (
	cfgObject cfgFrame = iota + 1 // inside a top-level object
	cfgArray                      // inside an array of items
)

// NewAWSConfigDecoder returns a decoder over r.
func NewAWSConfigDecoder(r io.Reader) *AWSConfigDecoder {
	return &AWSConfigDecoder{dec: json.NewDecoder(r), joins: newJoiner(), captured: map[uint64]int64{}}
}

// Next returns the next resource; see Decoder.
func (d *AWSConfigDecoder) Next() (engine.Resource, error) {
	for {
		if len(d.out) > 0 {
			r := d.out[0]
			d.out = d.out[1:]
			return r, nil
		}
		if len(d.ready) > 0 {
			r := d.ready[0]
			d.ready = d.ready[1:]
			if d.joins.hold(r) {
				continue
			}
			return r, nil
		}
		if d.err != nil {
			return engine.Resource{}, d.err
		}
		if d.done {
			if d.ready = d.pending.all(); len(d.ready) > 0 {
				continue
			}
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
		switch {
		case strings.EqualFold(key, "configurationItems"), strings.EqualFold(key, "baseConfigurationItems"),
			strings.EqualFold(key, "results"):
			tok, err := d.dec.Token()
			if err != nil {
				return engine.Resource{}, false, malformed(err, d.dec.InputOffset())
			}
			if tok != json.Delim('[') {
				return engine.Resource{}, false, engine.Errorf(engine.CodeInvalidRequest,
					"AWS Config input: %s must be an array (byte offset %d)", key, d.dec.InputOffset())
			}
			d.stack = append(d.stack, cfgArray)
			return engine.Resource{}, false, nil
		case strings.EqualFold(key, "configurationItem"):
			return d.item()
		case key == "invokingEvent":
			return d.invokingEvent()
		case strings.EqualFold(key, "configSnapshotId"):
			d.snapshot = true // one item per resource: no versions to compare
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

// item decodes one configuration item at the decoder's position: an
// object, or (in select-resource-config results) a JSON string holding one.
func (d *AWSConfigDecoder) item() (engine.Resource, bool, error) {
	start := d.dec.InputOffset()
	var raw json.RawMessage
	if err := d.dec.Decode(&raw); err != nil {
		return engine.Resource{}, false, malformed(err, d.dec.InputOffset())
	}
	// The item was consumed whole: a bad one is skipped and the stream goes on.
	b := jsonObject(raw)
	if len(b) == 0 || b[0] != '{' {
		return engine.Resource{}, false, &LineError{Offset: start, Err: engine.Errorf(engine.CodeValidationFailed,
			"configuration item: expected an object (or a JSON string holding one)")}
	}
	var ci configItem
	ci.partial = len(bytes.TrimSpace(raw)) > 0 && bytes.TrimSpace(raw)[0] == '"'
	if err := json.Unmarshal(b, &ci); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return engine.Resource{}, false, &LineError{Offset: start, Err: engine.FieldErrorf(te.Field,
				"configuration item: %s must not be a JSON %s", fieldName(te.Field), te.Value)}
		}
		return engine.Resource{}, false, &LineError{Offset: start, Err: engine.Errorf(engine.CodeValidationFailed, "configuration item: %v", err)}
	}
	return d.convert(&ci, start)
}

// invokingEvent decodes the invokingEvent of an AWS Config rule's Lambda
// event: a JSON string holding a change notification. A scheduled
// notification names no resource; an oversized one carries only a summary
// without the configuration, so it is reported rather than guessed at.
func (d *AWSConfigDecoder) invokingEvent() (engine.Resource, bool, error) {
	start := d.dec.InputOffset()
	var raw json.RawMessage
	if err := d.dec.Decode(&raw); err != nil {
		return engine.Resource{}, false, malformed(err, d.dec.InputOffset())
	}
	var ev struct {
		Item        json.RawMessage `json:"configurationItem"`
		Summary     json.RawMessage `json:"configurationItemSummary"`
		MessageType string          `json:"messageType"`
	}
	if b := jsonObject(raw); b == nil || json.Unmarshal(b, &ev) != nil {
		return engine.Resource{}, false, &LineError{Offset: start, Err: engine.FieldErrorf("invokingEvent",
			"invokingEvent must be a JSON object or a JSON string holding one")}
	}
	b := jsonObject(ev.Item)
	if b == nil {
		if ev.Summary != nil {
			return engine.Resource{}, false, &LineError{Offset: start, Err: engine.FieldErrorf("invokingEvent",
				"an oversized configuration item change notification carries no configuration; fetch the item with get-resource-config-history")}
		}
		return engine.Resource{}, false, nil // e.g. a ScheduledNotification
	}
	var ci configItem
	if err := json.Unmarshal(b, &ci); err != nil {
		return engine.Resource{}, false, &LineError{Offset: start, Err: engine.FieldErrorf("invokingEvent",
			"invokingEvent.configurationItem: %v", err)}
	}
	return d.convert(&ci, start)
}

func (d *AWSConfigDecoder) convert(ci *configItem, start int64) (engine.Resource, bool, error) {
	key, tracked, newest := d.newest(ci)
	if !newest {
		return engine.Resource{}, false, nil // an older version of a resource already read
	}
	switch ci.Status {
	case "ResourceDeleted", "ResourceDeletedNotRecorded", "ResourceNotRecorded":
		if tracked { // a live version read before is gone too
			d.pending.drop(key)
			d.joins.forget(joinKey(ci))
		}
		return engine.Resource{}, false, nil
	}
	res, err := fromConfigItem(ci, d.joins)
	if err == nil {
		err = Validate(&res)
	}
	if err != nil {
		return engine.Resource{}, false, &LineError{Offset: start, Err: err}
	}
	if tracked {
		d.ready = append(d.ready, d.pending.add(key, res)...)
		return engine.Resource{}, false, nil
	}
	return res, true, nil
}

// newest records ci's capture time for its resource and reports whether ci
// is at least as new as every version of the resource read before (deleted
// ones included, so that an older live version does not come back).
// tracked is false for an item without a capture time or resource id, or
// in a snapshot file (one item per resource): versions are not compared.
func (d *AWSConfigDecoder) newest(ci *configItem) (key uint64, tracked, newest bool) {
	at := ci.CaptureTime.t()
	if d.snapshot || at.IsZero() || ci.ResourceID == "" {
		return 0, false, true
	}
	h := xxhash.New()
	for _, s := range [...]string{ci.ResourceType, firstNonEmpty(ci.AWSAccountID, ci.AccountID), ci.AWSRegion, ci.ResourceID} {
		_, _ = h.WriteString(s)
		_, _ = h.Write([]byte{0})
	}
	key, ns := h.Sum64(), at.UnixNano()
	if prev, ok := d.captured[key]; ok && ns < prev {
		return key, true, false
	}
	d.captured[key] = ns
	return key, true, true
}

// joinKey is the joiner's key of the resource ci names, for the types the
// joiner holds to the end of the input (their resourceId is the id the
// key uses); "" for the others.
func joinKey(ci *configItem) string {
	prefix := map[string]string{"AWS::EC2::VPC": "vpc:", "AWS::S3::Bucket": "s3:", "AWS::EC2::SecurityGroup": "sg:", "AWS::EC2::NatGateway": "nat:"}[ci.ResourceType]
	if prefix == "" {
		return ""
	}
	return prefix + ci.ResourceID
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
		if !jsonvalid.Valid(inner) {
			break // a plain string value
		}
		raw = inner
	}
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	return raw
}
