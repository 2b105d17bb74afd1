package engine

import (
	"encoding/json"
	"time"
)

// Resource is a cloud object discovered in a tenant: an instance, a bucket,
// an IAM principal, a network rule.
type Resource struct {
	ID       string `json:"id"`
	TenantID string `json:"-"`
	Provider string `json:"provider"` // aws, gcp, azure, …
	Account  string `json:"account"`
	Region   string `json:"region"`
	Type     string `json:"type"` // e.g. aws_s3_bucket
	// NativeID is the provider's id, e.g. an ARN.
	NativeID string `json:"native_id"`
	Name     string `json:"name"`
	Tags     Tags   `json:"tags"`
	// Attributes is the resource's configuration as a JSON object.
	Attributes  json.RawMessage `json:"attributes"`
	FirstSeenAt time.Time       `json:"first_seen_at"`
	LastSeenAt  time.Time       `json:"last_seen_at"`
	// CapturedAt is when the source captured this configuration (AWS
	// Config's configurationItemCaptureTime, an NDJSON line's
	// captured_at); nil when the input carries no time (Terraform state,
	// an NDJSON line without it) or the row was written before it was
	// kept, and the API then shows null. It belongs to the stored row: a
	// re-import that finds the configuration unchanged moves LastSeenAt
	// only. A batched read fills it only when it names it
	// (ResourceFields.CapturedAt).
	CapturedAt *time.Time `json:"captured_at"`
}

// ResourceFields names the fields of a resource that a batched read fills
// in (GetResourcesPartial) beyond the narrow ones (id, provider, account,
// region, type, native id, name, first seen), which are always filled. A
// field not named is left zero, so a read that does not show it (a GraphQL
// selection without it) skips its cost: the wide columns of tags and
// attributes, and for LastSeen the read of the resources' latest sightings
// (a re-import that finds a resource unchanged records only a sighting).
type ResourceFields struct {
	Tags       bool
	Attributes bool
	LastSeen   bool
	CapturedAt bool
}

// AllResourceFields fills in every field of a resource.
var AllResourceFields = ResourceFields{Tags: true, Attributes: true, LastSeen: true, CapturedAt: true}

// Covers reports whether a read filling in f fills in every field that g
// names.
func (f ResourceFields) Covers(g ResourceFields) bool {
	return (f.Tags || !g.Tags) && (f.Attributes || !g.Attributes) && (f.LastSeen || !g.LastSeen) && (f.CapturedAt || !g.CapturedAt)
}

// ResourceFilter selects resources. Empty fields do not filter.
type ResourceFilter struct {
	Type     string
	Provider string
	Account  string
	Region   string
}

// ResourceQuery is one page of the tenant's inventory in id order.
type ResourceQuery struct {
	TenantID string
	Filter   ResourceFilter
	AfterID  string // empty for the first page
	Limit    int
}
