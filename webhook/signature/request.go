package signature

import (
	"net/http"
	"time"
)

// VerifyRequest checks a webhook request's headers and raw body against the
// receiver's configured secrets. It accepts the request when
// X-Service-Signature, or during a secret rotation
// X-Service-Signature-Previous, matches under any of secrets, so a receiver
// can hold its old and new secret while it switches. Every signature header
// present must be a single well-formed value. It returns nil or one of the
// package's Err values.
func VerifyRequest(secrets [][]byte, h http.Header, body []byte, now time.Time, opts ...Option) error {
	o := buildOptions(opts)
	usable := 0
	for _, s := range secrets {
		if len(s) > 0 {
			usable++
		}
	}
	if usable == 0 {
		return ErrNoSecret
	}

	ts, err := single(h, HeaderTimestamp, ErrMissingTimestamp, ErrInvalidTimestamp)
	if err != nil {
		return err
	}
	if err := checkTimestamp(ts, now, o.tolerance); err != nil {
		return err
	}
	sig, err := single(h, HeaderSignature, ErrMissingSignature, ErrMalformedSignature)
	if err != nil {
		return err
	}
	if err := checkFormat(sig); err != nil {
		return err
	}
	candidates := []string{sig}
	if prev, err := single(h, HeaderSignaturePrevious, nil, ErrMalformedSignature); err != nil {
		return err
	} else if prev != "" {
		if err := checkFormat(prev); err != nil {
			return err
		}
		candidates = append(candidates, prev)
	}

	ok := false
	for _, s := range secrets {
		if len(s) == 0 {
			continue
		}
		for _, c := range candidates {
			// No early exit: the work done does not depend on which
			// secret matched.
			if matches(s, c, ts, body) {
				ok = true
			}
		}
	}
	if !ok {
		return ErrMismatch
	}
	return nil
}

// single returns the one value of header name: missing (or "" when missing
// is nil) when it is absent or empty, multiple when it appears more than
// once.
func single(h http.Header, name string, missing, multiple error) (string, error) {
	vs := h.Values(name)
	switch {
	case len(vs) > 1:
		return "", multiple
	case len(vs) == 0 || vs[0] == "":
		if missing == nil {
			return "", nil
		}
		return "", missing
	}
	return vs[0], nil
}
