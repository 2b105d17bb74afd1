package webhook

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/webhook/signature"
)

// Defaults of Config.
const (
	DefaultTimeout          = 10 * time.Second
	DefaultMaxBodyBytes     = 256 << 10
	DefaultMaxResponseBytes = 64 << 10
	DefaultUserAgent        = "fourd-webhooks/1"
	// ResponseSnippetBytes is how much of a response body a Result keeps
	// for the delivery log.
	ResponseSnippetBytes = 1 << 10
)

// Config configures a Sender. Zero fields take the defaults above.
type Config struct {
	// Timeout bounds one attempt, from dialing to the end of the response
	// body read; a 2xx arriving later is a failure. Default 10 s.
	Timeout time.Duration
	// MaxBodyBytes bounds a request body; larger deliveries fail without
	// being sent.
	MaxBodyBytes int
	// MaxResponseBytes bounds how much of a response is read; the rest is
	// discarded with the connection.
	MaxResponseBytes int64
	// UserAgent is sent as User-Agent.
	UserAgent string
	// MaxIdleConnsPerHost bounds the keep-alive connections kept per
	// endpoint host; default 16. A dispatcher with more attempts in flight
	// to one host than this reconnects for the excess.
	MaxIdleConnsPerHost int
	// Addresses decides which addresses may be dialed.
	Addresses AddressPolicy
	// RootCAs verifies endpoint certificates; nil uses the system pool.
	RootCAs *x509.CertPool
	// Now is the clock; nil uses time.Now.
	Now func() time.Time
	// Logger receives one debug line per attempt; nil discards.
	Logger *slog.Logger
}

// Validate reports the first invalid field.
func (c Config) Validate() error {
	switch {
	case c.Timeout < 0:
		return errors.New("webhook: Timeout must not be negative")
	case c.MaxBodyBytes < 0 || c.MaxResponseBytes < 0:
		return errors.New("webhook: MaxBodyBytes and MaxResponseBytes must not be negative")
	}
	for _, p := range c.Addresses.AllowCIDRs {
		if !p.IsValid() {
			return errors.New("webhook: AllowCIDRs holds an invalid prefix")
		}
	}
	return nil
}

func (c Config) withDefaults() Config {
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxBodyBytes == 0 {
		c.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if c.MaxResponseBytes == 0 {
		c.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if c.UserAgent == "" {
		c.UserAgent = DefaultUserAgent
	}
	if c.MaxIdleConnsPerHost <= 0 {
		c.MaxIdleConnsPerHost = 16
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// Delivery is one attempt's input: an event body for one endpoint.
type Delivery struct {
	// ID identifies the delivery (dlv_…) in logs; optional.
	ID string
	// URL is the endpoint URL.
	URL string
	// EventID (evt_…) and EventType fill X-Service-Event-Id and
	// X-Service-Event; the id is the same on every attempt.
	EventID   string
	EventType string
	// Body is the raw JSON envelope (see EventBody), the same bytes on
	// every attempt.
	Body []byte
	// Secret signs X-Service-Signature.
	Secret []byte
	// PreviousSecret, during a rotation's grace period, signs
	// X-Service-Signature-Previous.
	PreviousSecret []byte
}

// Sender posts signed deliveries. It is safe for concurrent use and keeps
// connections alive between deliveries to the same host.
type Sender struct {
	cfg       Config
	client    *http.Client
	transport *http.Transport
}

// NewSender returns a Sender whose every connection goes through the
// address policy's check on the dialed address.
func NewSender(cfg Config) (*Sender, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	dialer := &net.Dialer{Timeout: cfg.Timeout, KeepAlive: 30 * time.Second, Control: cfg.Addresses.control}
	tr := &http.Transport{
		// No proxy from the environment: a proxy would dial on our
		// behalf and bypass the address check.
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12, RootCAs: cfg.RootCAs},
		TLSHandshakeTimeout:    cfg.Timeout,
		ResponseHeaderTimeout:  cfg.Timeout,
		MaxIdleConns:           512,
		MaxIdleConnsPerHost:    cfg.MaxIdleConnsPerHost,
		IdleConnTimeout:        90 * time.Second,
		MaxResponseHeaderBytes: 64 << 10,
		DisableCompression:     true,
		ForceAttemptHTTP2:      true,
	}
	client := &http.Client{
		Transport: tr,
		// Redirects are not followed: a 3xx is a failed attempt.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return &Sender{cfg: cfg, client: client, transport: tr}, nil
}

// Close releases idle connections.
func (s *Sender) Close() { s.transport.CloseIdleConnections() }

// EventBody returns the JSON envelope {event_id, type, created_at, data}
// of an event, with created_at in UTC.
func EventBody(ev engine.Event) ([]byte, error) {
	ev.CreatedAt = ev.CreatedAt.UTC()
	if len(ev.Data) == 0 {
		ev.Data = []byte("{}")
	}
	return jsonMarshal(ev)
}

// Send makes one attempt: it signs the body with the current time, posts
// it, and classifies the outcome. It never returns an error; every failure
// is a Result whose Error text is safe to show the endpoint's owner.
func (s *Sender) Send(ctx context.Context, d Delivery) Result {
	now := s.cfg.Now()
	r := Result{SentAt: now, Timestamp: now.Unix()}
	if err := s.check(d); err != nil {
		r.Outcome, r.Error = OutcomeFailed, engine.ErrorMessage(err)
		return r
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(d.Body))
	if err != nil {
		r.Outcome, r.Error = OutcomeFailed, "invalid endpoint url"
		return r
	}
	ts := strconv.FormatInt(r.Timestamp, 10)
	h := req.Header
	h["Content-Type"] = []string{"application/json"}
	h["User-Agent"] = []string{s.cfg.UserAgent}
	h[signature.HeaderEvent] = []string{d.EventType}
	h[signature.HeaderEventID] = []string{d.EventID}
	h[signature.HeaderTimestamp] = []string{ts}
	h[signature.HeaderSignature] = []string{signature.Sign(d.Secret, r.Timestamp, d.Body)}
	if len(d.PreviousSecret) > 0 {
		h[signature.HeaderSignaturePrevious] = []string{signature.Sign(d.PreviousSecret, r.Timestamp, d.Body)}
	}

	resp, err := s.client.Do(req)
	if err != nil {
		r.Latency = time.Since(start)
		r.Outcome, r.Error = OutcomeRetry, describeError(ctx, err, s.cfg.Timeout)
		s.log(d, r)
		return r
	}
	snippet, readErr := readLimited(resp.Body, s.cfg.MaxResponseBytes)
	resp.Body.Close()
	r.Latency = time.Since(start)
	r.StatusCode = resp.StatusCode
	r.ResponseBody = snippet
	if readErr != nil {
		r.Outcome, r.Error = OutcomeRetry, describeError(ctx, readErr, s.cfg.Timeout)
		s.log(d, r)
		return r
	}
	classify(&r, resp, s.cfg.Now())
	s.log(d, r)
	return r
}

// check rejects deliveries that no attempt could send.
func (s *Sender) check(d Delivery) error {
	if err := s.cfg.Addresses.ValidateURL(d.URL); err != nil {
		return err
	}
	switch {
	case len(d.Secret) == 0:
		return engine.Errorf(engine.CodeValidationFailed, "endpoint has no signing secret")
	case d.EventID == "" || d.EventType == "":
		return engine.Errorf(engine.CodeValidationFailed, "event id and type are required")
	case len(d.Body) > s.cfg.MaxBodyBytes:
		return engine.Errorf(engine.CodePayloadTooLarge, "event body of %d bytes exceeds the limit of %d", len(d.Body), s.cfg.MaxBodyBytes)
	}
	return nil
}

// readLimited reads at most limit bytes of body and keeps the first
// ResponseSnippetBytes. Reaching the limit is not an error.
func readLimited(body io.Reader, limit int64) ([]byte, error) {
	var buf bytes.Buffer
	n, err := io.CopyN(&buf, body, limit)
	if errors.Is(err, io.EOF) || n == limit {
		err = nil
	}
	b := buf.Bytes()
	if len(b) > ResponseSnippetBytes {
		b = b[:ResponseSnippetBytes]
	}
	return bytes.Clone(b), err
}

func (s *Sender) log(d Delivery, r Result) {
	s.cfg.Logger.Debug("webhook attempt", "delivery", d.ID, "event", d.EventID, "outcome", r.Outcome,
		"status", r.StatusCode, "latency", r.Latency, "error", r.Error)
}
