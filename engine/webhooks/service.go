// Package webhooks is fourd's webhook use cases (issue 7): customers'
// webhook endpoints (create, update, delete, rotate the signing secret, send
// a test event), the events API over the outbox, delivery logs, redelivery
// and recovery. engine keeps the vocabulary (WebhookEndpoint, Delivery,
// Event and the event types); the webhook package delivers the events;
// this package keeps the rules of what a caller may do with them.
//
// Every method takes the caller's Principal and checks its scope; a nil
// *Service, or one without a Store, answers unavailable.
package webhooks

import (
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Config is what the webhook use cases need. engine does not import the
// webhook package, so URL validation and secret sealing are injected.
// Without a Store (or CheckURL, NewSecret, Seal) every method answers
// unavailable.
type Config struct {
	Store Store
	// CheckURL validates an endpoint URL (webhook.AddressPolicy.ValidateURL)
	// and returns a validation_failed *engine.Error about the "url" field.
	CheckURL func(string) error
	// NewSecret returns a fresh signing secret (webhook.NewSigningSecret).
	NewSecret func() string
	// Seal encrypts a signing secret for storage (webhook.SealSecret with
	// FOURD_SECRET).
	Seal func(string) (string, error)
	// GracePeriod is how long a rotated-out secret keeps signing
	// X-Service-Signature-Previous; default 24 h.
	GracePeriod time.Duration
	// Secret keys the lists' cursors (FOURD_SECRET, as findings.Config's);
	// at least 32 bytes.
	Secret []byte
	// CursorTTL bounds how long a cursor stays valid; default 24 h.
	CursorTTL time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Service is the webhook use cases an API adapter may call.
type Service struct {
	cfg     Config
	now     func() time.Time
	cursors *engine.Cursors
}

// New returns the Service over cfg; an error when Secret is shorter than 32
// bytes.
func New(cfg Config) (*Service, error) {
	k, err := engine.NewKeyed("webhooks", cfg.Secret, cfg.CursorTTL, cfg.Now, nil)
	if err != nil {
		return nil, err
	}
	cfg.Now, cfg.CursorTTL = k.Now, k.CursorTTL
	if cfg.GracePeriod <= 0 {
		cfg.GracePeriod = defaultGracePeriod
	}
	return &Service{cfg: cfg, now: k.Now, cursors: k.Cursors}, nil
}

// config checks the caller's scope and returns the configuration, or
// unavailable when there is none.
func (s *Service) config(p engine.Principal, scope engine.Scope) (Config, error) {
	if err := p.Require(scope); err != nil {
		return Config{}, err
	}
	if s == nil {
		return Config{}, unconfigured()
	}
	w := s.cfg
	if w.Store == nil || w.CheckURL == nil || w.NewSecret == nil || w.Seal == nil {
		return Config{}, unconfigured()
	}
	return w, nil
}

func unconfigured() error {
	return engine.Errorf(engine.CodeUnavailable, "webhooks are not configured on this server")
}
