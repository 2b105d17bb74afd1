// Package idempotency keeps Idempotency-Key records: a client that sends a
// mutating POST with the header and retries it gets the first attempt's
// answer again instead of a second effect. The key belongs to its caller
// (token, or the user of an OAuth token) and names one request; the answer
// is the adapter's own encoding (rest: status, headers, body), kept sealed
// with the server's secret (internal/seal) and opaque to this package.
package idempotency
