package webhook

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"syscall"
	"time"
)

// Outcome classifies one attempt.
type Outcome string

// Outcomes of an attempt.
const (
	// OutcomeSuccess: the endpoint answered 2xx within the timeout.
	OutcomeSuccess Outcome = "success"
	// OutcomeRetry: the attempt failed (non-2xx other than 410, 3xx
	// included; timeout; connection or TLS error; refused address) and a
	// later attempt may succeed.
	OutcomeRetry Outcome = "retry"
	// OutcomeGone: the endpoint answered 410 Gone; it is to be disabled
	// and not retried.
	OutcomeGone Outcome = "gone"
	// OutcomeFailed: the delivery itself is invalid (bad URL, no secret,
	// body too large); retrying cannot help.
	OutcomeFailed Outcome = "failed"
)

// Result describes one attempt, for the delivery log and the retry plan.
type Result struct {
	Outcome Outcome
	// StatusCode is the HTTP status, 0 when no response arrived.
	StatusCode int
	// Latency is the time from sending to the end of the response read.
	Latency time.Duration
	// Error explains a failure in words safe to show the endpoint's owner
	// (no secrets, no internal addresses); empty on success.
	Error string
	// RetryAfter is the delay asked for by a 429 or 503 Retry-After
	// header; zero when none.
	RetryAfter time.Duration
	// ResponseBody holds the first ResponseSnippetBytes of the response.
	ResponseBody []byte
	// SentAt is when the attempt started; Timestamp is the signed unix
	// time sent in X-Service-Timestamp.
	SentAt    time.Time
	Timestamp int64
}

// classify sets the outcome of a complete response.
func classify(r *Result, resp *http.Response, now time.Time) {
	code := resp.StatusCode
	switch {
	case code >= 200 && code < 300:
		r.Outcome = OutcomeSuccess
		return
	case code == http.StatusGone:
		r.Outcome, r.Error = OutcomeGone, "endpoint answered 410 Gone; disabling it"
		return
	case code >= 300 && code < 400:
		r.Outcome, r.Error = OutcomeRetry, "redirect ("+strconv.Itoa(code)+") not followed"
	default:
		r.Outcome, r.Error = OutcomeRetry, "endpoint answered HTTP "+strconv.Itoa(code)
	}
	if code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable {
		if d, ok := ParseRetryAfter(resp.Header.Get("Retry-After"), now); ok {
			r.RetryAfter = d
		}
	}
}

// describeError turns a transport error into a fixed, safe message; raw
// errors can carry resolved internal addresses.
func describeError(ctx context.Context, err error, timeout time.Duration) string {
	var blocked *BlockedAddressError
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var recordErr tls.RecordHeaderError
	switch {
	case errors.As(err, &blocked):
		return blocked.Error()
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return "timed out after " + timeout.String()
	case errors.Is(err, context.Canceled):
		return "attempt canceled"
	case errors.As(err, &dnsErr):
		if dnsErr.IsNotFound {
			return "dns lookup failed: no such host"
		}
		return "dns lookup failed"
	case errors.As(err, &certErr), errors.As(err, &unknownAuth), errors.As(err, &hostErr):
		return "tls handshake failed: certificate not trusted for this host"
	case errors.As(err, &recordErr):
		return "tls handshake failed: endpoint did not answer with TLS"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset by the endpoint"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "endpoint unreachable"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "response ended early"
	case errors.Is(err, io.EOF):
		return "connection closed before a response"
	}
	return "connection failed"
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// jsonMarshal is json.Marshal without HTML escaping, so the body carries
// "<" and "&" as they are.
func jsonMarshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
