package webhook

import "time"

// State is where a delivery stands after an attempt.
type State string

// Delivery states.
const (
	// StateDelivered: an attempt succeeded.
	StateDelivered State = "delivered"
	// StatePending: the attempt failed and another is scheduled.
	StatePending State = "pending"
	// StateFailed: no attempt remains (attempts or window exhausted, the
	// delivery is invalid, or the endpoint is gone). A failed delivery
	// stays visible and can be redelivered by hand.
	StateFailed State = "failed"
)

// Plan is what the outbox records after an attempt.
type Plan struct {
	State State
	// NextAttemptAt is set when State is StatePending.
	NextAttemptAt time.Time
	// DisableEndpoint is true when the endpoint answered 410 Gone.
	DisableEndpoint bool
}

// Plan decides what follows attempt n (1-based) of a delivery whose first
// attempt started at first, given the attempt's Result and the current
// time.
func (b Backoff) Plan(n int, first, now time.Time, r Result) Plan {
	switch r.Outcome {
	case OutcomeSuccess:
		return Plan{State: StateDelivered}
	case OutcomeGone:
		return Plan{State: StateFailed, DisableEndpoint: true}
	case OutcomeRetry:
		if next, ok := b.Next(n, first, now, r.RetryAfter); ok {
			return Plan{State: StatePending, NextAttemptAt: next}
		}
	}
	return Plan{State: StateFailed}
}
