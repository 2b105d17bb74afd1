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
	NativeID string            `json:"native_id"`
	Name     string            `json:"name"`
	Tags     map[string]string `json:"tags"`
	// Attributes is the resource's configuration as a JSON object.
	Attributes  json.RawMessage `json:"attributes"`
	FirstSeenAt time.Time       `json:"first_seen_at"`
	LastSeenAt  time.Time       `json:"last_seen_at"`
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
