package engine

import (
	"context"
	"time"
)

// Event types fourd adds to the spec's seven: the disabling of an endpoint
// (visible in GET /v1/events and deliverable to other endpoints) and the
// test event of POST /v1/webhook_endpoints/{id}/test.
const (
	EventWebhookEndpointDisabled = "webhook_endpoint.disabled"
	EventWebhookTest             = "webhook_endpoint.test"
)

// AllEventTypes subscribes an endpoint to every event type, present and
// future.
const AllEventTypes = "*"

// SubscribableEventTypes lists what an endpoint may subscribe to, besides
// AllEventTypes: the spec's seven and the disabling of an endpoint.
var SubscribableEventTypes = append(append([]string(nil), EventTypes...), EventWebhookEndpointDisabled)

// WebhookEndpoint is a customer URL that receives signed events.
type WebhookEndpoint struct {
	ID       string `json:"id"`
	TenantID string `json:"-"`
	URL      string `json:"url"`
	// EventTypes is what the endpoint receives: event types, or ["*"].
	EventTypes  []string `json:"event_types"`
	Description string   `json:"description"`
	Enabled     bool     `json:"enabled"`
	// DisabledReason says why fourd disabled the endpoint (410 Gone, or
	// failing continuously); empty when enabled or disabled by a person.
	DisabledReason string     `json:"disabled_reason"`
	DisabledAt     *time.Time `json:"disabled_at"`
	// FailingSince is when the current run of failed attempts began; nil
	// after a success.
	FailingSince *time.Time `json:"failing_since"`
	// Secret is the signing secret in clear: set only in the answers of
	// create and rotate_secret, never stored or logged.
	Secret string `json:"secret,omitempty"`
	// SealedSecret is the signing secret encrypted with FOURD_SECRET.
	SealedSecret string `json:"-"`
	// PreviousSealedSecret keeps signing X-Service-Signature-Previous
	// until PreviousSecretExpiresAt, after a rotation.
	PreviousSealedSecret    string     `json:"-"`
	PreviousSecretExpiresAt *time.Time `json:"previous_secret_expires_at"`
	CreatedAt               time.Time  `json:"created_at"`
	UpdatedAt               time.Time  `json:"updated_at"`
}

// Subscribed reports whether the endpoint receives events of type typ.
func (e WebhookEndpoint) Subscribed(typ string) bool {
	for _, t := range e.EventTypes {
		if t == AllEventTypes || t == typ {
			return true
		}
	}
	return false
}

// DeliveryStatus is where a delivery stands.
type DeliveryStatus string

// Delivery statuses. A delivery is pending until a dispatcher claims it,
// delivering while an attempt is in flight, and ends delivered or failed
// (attempts exhausted, the endpoint gone or disabled). Failed deliveries
// stay visible and can be redelivered.
const (
	DeliveryPending    DeliveryStatus = "pending"
	DeliveryDelivering DeliveryStatus = "delivering"
	DeliveryDelivered  DeliveryStatus = "delivered"
	DeliveryFailed     DeliveryStatus = "failed"
)

// Delivery is one event sent (or to be sent) to one endpoint, with its log
// of attempts. A redelivery is a new Delivery of the same event.
type Delivery struct {
	ID         string `json:"id"`
	TenantID   string `json:"-"`
	EventID    string `json:"event_id"`
	EventType  string `json:"event_type"`
	EndpointID string `json:"endpoint_id"`
	// Origin is why the delivery exists: fanout, redeliver, recover, test.
	Origin string         `json:"origin"`
	Status DeliveryStatus `json:"status"`
	// Attempts counts the attempts started.
	Attempts      int        `json:"attempts"`
	NextAttemptAt *time.Time `json:"next_attempt_at"`
	// LastStatusCode is the HTTP status of the last attempt; 0 when none
	// arrived.
	LastStatusCode int               `json:"last_status_code"`
	LastError      string            `json:"last_error"`
	CreatedAt      time.Time         `json:"created_at"`
	UpdatedAt      time.Time         `json:"updated_at"`
	DeliveredAt    *time.Time        `json:"delivered_at"`
	AttemptLog     []DeliveryAttempt `json:"attempt_log"`
}

// Attempt outcomes as the attempt log shows them: the webhook package's
// outcomes, and abandoned for an attempt whose dispatcher stopped before
// recording its result (the receiver may or may not have got it).
const (
	AttemptSuccess   = "success"
	AttemptRetry     = "retry"
	AttemptGone      = "gone"
	AttemptFailed    = "failed"
	AttemptAbandoned = "abandoned"
)

// DeliveryAttempt is one attempt of a delivery.
type DeliveryAttempt struct {
	Attempt    int       `json:"attempt"`
	StartedAt  time.Time `json:"started_at"`
	Outcome    string    `json:"outcome"`
	StatusCode int       `json:"status_code"`
	// LatencyMS is the time to the end of the response, in milliseconds.
	LatencyMS float64 `json:"latency_ms"`
	Error     string  `json:"error"`
	// NextAttemptAt is when the attempt that follows was scheduled; nil
	// when none was.
	NextAttemptAt *time.Time `json:"next_attempt_at"`
}

// WebhookEndpointQuery pages a tenant's endpoints, newest first.
type WebhookEndpointQuery struct {
	TenantID string
	BeforeID string
	Limit    int
}

// EventQuery pages a tenant's events, newest first, of one type or all.
type EventQuery struct {
	TenantID string
	Type     string
	BeforeID string
	Limit    int
}

// DeliveryQuery pages deliveries, newest first, of one event or one
// endpoint (exactly one of EventID and EndpointID is set).
type DeliveryQuery struct {
	TenantID   string
	EventID    string
	EndpointID string
	BeforeID   string
	Limit      int
}

// DeliveryQueue is the dispatchers' side of the outbox (PostgreSQL): fan
// events out to deliveries, claim due deliveries, record attempts. Any
// number of dispatchers may share it. Its methods return internal errors
// only, except where noted.
type DeliveryQueue interface {
	// FanOutEvents turns up to limit events not yet fanned out into one
	// pending delivery per enabled endpoint subscribed to each, and marks
	// them fanned out, in one transaction. It returns how many events.
	FanOutEvents(ctx context.Context, limit int, now time.Time) (int, error)
	// ClaimDeliveries leases up to limit deliveries due at now to worker
	// until now+lease, counting the attempt about to start. A delivery
	// whose previous lease expired without a recorded result gets an
	// abandoned attempt in its log first. Deliveries of disabled or
	// deleted endpoints end failed instead of being claimed.
	ClaimDeliveries(ctx context.Context, worker string, now time.Time, limit int, lease time.Duration) ([]ClaimedDelivery, error)
	// RecordDeliveryAttempt stores an attempt's result and applies its
	// plan. A stale record (the lease was taken over) only fills in the
	// attempt's log entry. not_found when the delivery does not exist.
	RecordDeliveryAttempt(ctx context.Context, rec DeliveryAttemptRecord) error
	// RecordDeliveredAttempts is RecordDeliveryAttempt for many successful
	// attempts in one statement (group commit). It returns the ids of the
	// deliveries that do not exist; their records are dropped.
	RecordDeliveredAttempts(ctx context.Context, recs []DeliveryAttemptRecord) (missing []string, err error)
}

// ClaimedDelivery is a leased delivery with what an attempt needs.
type ClaimedDelivery struct {
	ID         string
	EndpointID string
	URL        string
	// SealedSecret signs X-Service-Signature; PreviousSealedSecret, when
	// set, X-Service-Signature-Previous (its grace period has not ended).
	SealedSecret         string
	PreviousSealedSecret string
	Event                Event
	// Attempt is the number of the attempt about to start, from 1.
	Attempt        int
	FirstAttemptAt time.Time
}

// DeliveryAttemptRecord is the result of one attempt and what follows it.
type DeliveryAttemptRecord struct {
	DeliveryID     string
	Attempt        int
	StartedAt      time.Time
	FirstAttemptAt time.Time
	Outcome        string
	StatusCode     int
	Latency        time.Duration
	Error          string
	// Status is the delivery's next status: pending (NextAttemptAt set),
	// delivered or failed.
	Status        DeliveryStatus
	NextAttemptAt time.Time
	// DisableReason, when set, disables the endpoint (410 Gone).
	DisableReason string
	// FailingLimit disables the endpoint when this attempt failed and its
	// failing streak began at or before FailingLimit; zero never does.
	FailingLimit time.Time
	// Now stamps the record.
	Now time.Time
}
