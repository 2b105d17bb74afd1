// Package webhook delivers fourd events to customer endpoints: it signs each
// request (see webhook/signature), posts it with SSRF-safe networking,
// classifies the outcome, and schedules retries (8 attempts within 24 h,
// exponential backoff with jitter, Retry-After honoured). Where pending
// deliveries are stored and claimed (the PostgreSQL outbox) is not this
// package's concern: a caller hands a Delivery to Sender.Send and records
// the Result and the Plan it yields.
package webhook
