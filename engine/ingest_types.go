package engine

// Limits on one inventory item, so a bad producer cannot bloat the store.
const (
	MaxAttributesBytes = 256 << 10
	MaxTags            = 64
)

// IngestItem is one decoded inventory item with its position in the batch.
// Err is set when the item could not be decoded (e.g. a malformed NDJSON
// line); such items are reported, not written. An Index below 0 means the
// input as a whole (e.g. an unknown format): its error fails the batch.
type IngestItem struct {
	Index    int
	Resource Resource
	Err      error
	// Ends marks an error that ended the stream (a read error, a body over
	// its limit, input that cannot be skipped): nothing after it was read.
	Ends bool
	// Prechecked is set by a decoder that guarantees what NormalizeResource
	// would otherwise check again byte by byte: Resource's text fields and
	// tags are valid UTF-8, and its Attributes are empty, null or one valid
	// JSON value (inventory's NDJSON decoder checks both as it reads a
	// line). The other rules still apply.
	Prechecked bool
}

// ItemError reports why one item of a batch was rejected.
type ItemError struct {
	Index   int    `json:"index"`
	Code    string `json:"code"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

// IngestResult says what a batch did: valid items are written even when
// others are rejected.
type IngestResult struct {
	Accepted int64       `json:"accepted"`
	New      int64       `json:"new"`
	Rejected int64       `json:"rejected"`
	Errors   []ItemError `json:"errors"`
	// ErrorsTruncated is true when more items were rejected than Errors lists.
	ErrorsTruncated bool `json:"errors_truncated"`
}
