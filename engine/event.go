package engine

import (
	"encoding/json"
	"time"
)

// Event types, as the spec names them.
const (
	EventFindingCreated         = "finding.created"
	EventFindingSeverityChanged = "finding.severity_changed"
	EventFindingResolved        = "finding.resolved"
	EventAuditStarted           = "audit.started"
	EventAuditCompleted         = "audit.completed"
	EventResourceAdded          = "resource.added"
	EventPolicyViolated         = "policy.violated"
)

// EventTypes lists the event types.
var EventTypes = []string{EventFindingCreated, EventFindingSeverityChanged, EventFindingResolved,
	EventAuditStarted, EventAuditCompleted, EventResourceAdded, EventPolicyViolated}

// Event is something that happened in a tenant, delivered to webhooks in the
// spec's envelope: {event_id, type, created_at, data}.
type Event struct {
	ID        string          `json:"event_id"`
	TenantID  string          `json:"-"`
	Type      string          `json:"type"`
	CreatedAt time.Time       `json:"created_at"`
	Data      json.RawMessage `json:"data"`
	// Strict says that Data is known to pass jsonvalid.Strict (internal/jsonvalid), so that a
	// store need not walk it again (a first import builds a million).
	Strict bool `json:"-"`
}

// NewEvent returns an event of the tenant of type typ made at (in UTC),
// with data encoded as its JSON payload and a fresh event id.
func NewEvent(tenantID, typ string, data any, at time.Time) (Event, error) {
	b, err := json.Marshal(data)
	if err != nil {
		return Event{}, err
	}
	at = at.UTC()
	return Event{ID: NewID(PrefixEvent, at), TenantID: tenantID, Type: typ, CreatedAt: at, Data: b}, nil
}
