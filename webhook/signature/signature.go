// Package signature signs and verifies fourd webhook requests. It uses only
// the standard library, so a webhook receiver can import it without pulling
// in the rest of fourd.
//
// A request carries X-Service-Timestamp (unix seconds) and
// X-Service-Signature: "sha256=" followed by the lowercase hex HMAC-SHA256,
// keyed with the endpoint secret, of "<timestamp>.<raw body>". During a
// secret rotation's grace period X-Service-Signature-Previous carries the
// signature made with the previous secret.
package signature

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"time"
)

// Header names of a webhook request, exactly as the API specification
// spells them.
const (
	HeaderEvent             = "X-Service-Event"
	HeaderEventID           = "X-Service-Event-Id"
	HeaderTimestamp         = "X-Service-Timestamp"
	HeaderSignature         = "X-Service-Signature"
	HeaderSignaturePrevious = "X-Service-Signature-Previous"
)

// Prefix starts every signature header value.
const Prefix = "sha256="

// DefaultTolerance is how far a request's timestamp may differ from the
// receiver's clock, in either direction, before the request is rejected as
// a possible replay.
const DefaultTolerance = 300 * time.Second

// headerLen is the length of a well-formed signature header value.
const headerLen = len(Prefix) + 2*sha256.Size

// maxTimestampDigits bounds the timestamp header; 18 digits cannot overflow
// an int64.
const maxTimestampDigits = 18

// The reasons a request fails verification. Each is a distinct value, so a
// receiver can count or log them separately with errors.Is.
var (
	// ErrNoSecret means the receiver has no (non-empty) secret configured.
	ErrNoSecret = errors.New("signature: no signing secret configured")
	// ErrMissingTimestamp means the X-Service-Timestamp header is absent.
	ErrMissingTimestamp = errors.New("signature: missing timestamp header")
	// ErrInvalidTimestamp means the timestamp is not a plain decimal
	// integer of unix seconds, or the header appears more than once.
	ErrInvalidTimestamp = errors.New("signature: invalid timestamp header")
	// ErrTimestampTooOld means the timestamp is further in the past than
	// the tolerance allows.
	ErrTimestampTooOld = errors.New("signature: timestamp too old")
	// ErrTimestampInFuture means the timestamp is further in the future
	// than the tolerance allows.
	ErrTimestampInFuture = errors.New("signature: timestamp too far in the future")
	// ErrMissingSignature means the X-Service-Signature header is absent.
	ErrMissingSignature = errors.New("signature: missing signature header")
	// ErrMalformedSignature means a signature header is not exactly one
	// "sha256=" followed by 64 lowercase hex digits.
	ErrMalformedSignature = errors.New("signature: malformed signature header")
	// ErrMismatch means no signature matches the body under any secret.
	ErrMismatch = errors.New("signature: signature does not match")
)

// Sign returns the X-Service-Signature value for body sent at timestamp
// (unix seconds): "sha256=" and the hex HMAC-SHA256 of "<timestamp>.<body>".
func Sign(secret []byte, timestamp int64, body []byte) string {
	return string(appendSign(nil, secret, strconv.AppendInt(nil, timestamp, 10), body))
}

// appendSign appends the signature header value over "<ts>.<body>" to dst.
func appendSign(dst, secret, ts, body []byte) []byte {
	mac := hmac.New(sha256.New, secret)
	mac.Write(ts)
	mac.Write([]byte{'.'})
	mac.Write(body)
	var sum [sha256.Size]byte
	dst = append(dst, Prefix...)
	return hex.AppendEncode(dst, mac.Sum(sum[:0]))
}

// Option changes how Verify and VerifyRequest check a request.
type Option func(*options)

type options struct {
	tolerance time.Duration
}

// WithTolerance sets the largest accepted difference between the request's
// timestamp and now; the default is DefaultTolerance. A tolerance of zero or
// less is ignored.
func WithTolerance(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.tolerance = d
		}
	}
}

func buildOptions(opts []Option) options {
	o := options{tolerance: DefaultTolerance}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// Verify checks one signature header value against body, following the
// specification's routine: it parses the timestamp header value, rejects it
// when it differs from now by more than the tolerance, computes the
// signature over "<timestamp>.<body>" with secret, and compares it with
// header in constant time (lengths must be equal). It returns nil or one of
// the package's Err values.
func Verify(secret []byte, header, timestamp string, body []byte, now time.Time, opts ...Option) error {
	o := buildOptions(opts)
	if len(secret) == 0 {
		return ErrNoSecret
	}
	if err := checkTimestamp(timestamp, now, o.tolerance); err != nil {
		return err
	}
	if err := checkFormat(header); err != nil {
		return err
	}
	if !matches(secret, header, timestamp, body) {
		return ErrMismatch
	}
	return nil
}

// checkTimestamp parses ts as unix seconds and checks it against now.
func checkTimestamp(ts string, now time.Time, tolerance time.Duration) error {
	if ts == "" {
		return ErrMissingTimestamp
	}
	if len(ts) > maxTimestampDigits {
		return ErrInvalidTimestamp
	}
	for i := 0; i < len(ts); i++ {
		if ts[i] < '0' || ts[i] > '9' {
			return ErrInvalidTimestamp
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return ErrInvalidTimestamp
	}
	// Compare in seconds: a Duration cannot hold every int64 second count.
	diff := now.Unix() - sec
	limit := int64(tolerance / time.Second)
	switch {
	case diff > limit:
		return ErrTimestampTooOld
	case diff < -limit:
		return ErrTimestampInFuture
	}
	return nil
}

// checkFormat reports whether header is "sha256=" and 64 lowercase hex
// digits; anything else (a missing prefix, another algorithm, several
// values, uppercase or non-hex digits, a wrong length) is malformed.
func checkFormat(header string) error {
	if header == "" {
		return ErrMissingSignature
	}
	if len(header) != headerLen || header[:len(Prefix)] != Prefix {
		return ErrMalformedSignature
	}
	for i := len(Prefix); i < len(header); i++ {
		c := header[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return ErrMalformedSignature
		}
	}
	return nil
}

// matches computes the expected header and compares it with header in
// constant time.
func matches(secret []byte, header, ts string, body []byte) bool {
	var buf [headerLen]byte
	want := appendSign(buf[:0], secret, []byte(ts), body)
	return hmac.Equal(want, []byte(header))
}
