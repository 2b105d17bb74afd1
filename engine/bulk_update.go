package engine

// MaxBulkFindings is the most findings one bulk update changes.
const MaxBulkFindings = 1000

// MaxFindingOverrides is the most decisions on findings (a status, an
// assignee) a tenant holds at once.
const MaxFindingOverrides = 10000

// BulkFindingUpdate changes several findings of the latest snapshot at
// once: those with the given ids, or those matching Filter (exactly one of
// the two).
type BulkFindingUpdate struct {
	IDs    []string
	Filter *FindingFilter
	Update FindingUpdate
}

// BulkItemResult is the outcome of a bulk update for one finding: the
// finding as changed, or the error that left it unchanged.
type BulkItemResult struct {
	ID      string         `json:"id"`
	OK      bool           `json:"ok"`
	Finding *Finding       `json:"finding,omitempty"`
	Error   *BulkItemError `json:"error,omitempty"`
}

// BulkItemError is why one item of a bulk request failed: an error code of the
// API's envelope and a message.
type BulkItemError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// BulkResult is the answer to a bulk update, one result per finding in the
// order of the ids (or of the list, for a filter).
type BulkResult struct {
	Updated int              `json:"updated"`
	Failed  int              `json:"failed"`
	Results []BulkItemResult `json:"results"`
}
