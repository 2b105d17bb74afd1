package webhook

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// Outbox holds pending deliveries for a Dispatcher. store/postgres
// implements it over the delivery table (claiming with FOR UPDATE SKIP
// LOCKED, so several replicas share the work); tests use an in-memory fake.
type Outbox interface {
	// ClaimDue leases up to limit deliveries whose next attempt is due at
	// now, so that no other dispatcher takes them until lease has passed,
	// and returns them. It returns internal errors only.
	ClaimDue(ctx context.Context, now time.Time, limit int, lease time.Duration) ([]Pending, error)
	// RecordAttempt stores one attempt and applies its plan in one
	// transaction: the delivery's state and next attempt time, and
	// disabling the endpoint when the plan says so; it ends the lease.
	// It returns not_found when the delivery no longer exists.
	RecordAttempt(ctx context.Context, rec AttemptRecord) error
}

// Pending is a claimed delivery and where it stands in its schedule.
type Pending struct {
	Delivery
	EndpointID string
	// Attempt is the number of the attempt about to be made, from 1.
	Attempt int
	// FirstAttemptAt is when attempt 1 started; zero before it.
	FirstAttemptAt time.Time
}

// AttemptRecord is what RecordAttempt stores.
type AttemptRecord struct {
	DeliveryID     string
	EndpointID     string
	Attempt        int
	FirstAttemptAt time.Time
	Result         Result
	Plan           Plan
}

// DispatcherConfig configures a Dispatcher; zero fields take defaults.
type DispatcherConfig struct {
	Outbox Outbox
	Sender *Sender
	// Backoff is the retry schedule; zero uses DefaultBackoff.
	Backoff Backoff
	// Concurrency bounds simultaneous attempts; default 16.
	Concurrency int
	// PollInterval is the pause when nothing is due; default 1 s.
	PollInterval time.Duration
	// Lease is how long a claim lasts; default 1 minute, more than an
	// attempt's timeout.
	Lease  time.Duration
	Now    func() time.Time
	Logger *slog.Logger
}

// Dispatcher drains an Outbox: it claims due deliveries, sends them with a
// Sender, and records each attempt with its Plan.
type Dispatcher struct {
	cfg DispatcherConfig
}

// NewDispatcher validates cfg and returns a Dispatcher.
func NewDispatcher(cfg DispatcherConfig) (*Dispatcher, error) {
	if cfg.Outbox == nil || cfg.Sender == nil {
		return nil, errors.New("webhook: Dispatcher needs an Outbox and a Sender")
	}
	if cfg.Backoff.Attempts == 0 {
		cfg.Backoff = DefaultBackoff()
	}
	if err := cfg.Backoff.Validate(); err != nil {
		return nil, err
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 16
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = time.Second
	}
	if cfg.Lease <= 0 {
		cfg.Lease = time.Minute
	}
	if cfg.Lease <= cfg.Sender.cfg.Timeout {
		return nil, errors.New("webhook: Dispatcher Lease must exceed the Sender's Timeout")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Dispatcher{cfg: cfg}, nil
}

// Run dispatches until ctx is done, pausing PollInterval whenever nothing
// is due or the outbox fails. It returns ctx's error.
func (d *Dispatcher) Run(ctx context.Context) error {
	for {
		n, err := d.RunOnce(ctx)
		if err != nil && ctx.Err() != nil {
			return ctx.Err() // shutting down: what was cut short is not a failure
		}
		if err != nil {
			d.cfg.Logger.Error("webhook dispatch", "err", err)
		}
		if n == 0 || err != nil {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(d.cfg.PollInterval):
			}
		} else if ctx.Err() != nil {
			return ctx.Err()
		}
	}
}

// RunOnce claims one batch of due deliveries, attempts them concurrently
// and records the results. It returns how many were attempted and the
// first error of the outbox.
func (d *Dispatcher) RunOnce(ctx context.Context) (int, error) {
	batch, err := d.cfg.Outbox.ClaimDue(ctx, d.cfg.Now(), d.cfg.Concurrency, d.cfg.Lease)
	if err != nil || len(batch) == 0 {
		return 0, err
	}
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	for _, p := range batch {
		wg.Go(func() {
			if err := d.attempt(ctx, p); err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return len(batch), firstErr
}

// attempt sends one delivery and records the outcome. The record is
// written even when ctx ends mid-attempt, so a lease is never left to
// expire when the dispatcher stops cleanly.
func (d *Dispatcher) attempt(ctx context.Context, p Pending) error {
	r := d.cfg.Sender.Send(ctx, p.Delivery)
	first := p.FirstAttemptAt
	if p.Attempt <= 1 || first.IsZero() {
		first = r.SentAt
	}
	plan := d.cfg.Backoff.Plan(max(p.Attempt, 1), first, d.cfg.Now(), r)
	rec := AttemptRecord{DeliveryID: p.ID, EndpointID: p.EndpointID, Attempt: max(p.Attempt, 1),
		FirstAttemptAt: first, Result: r, Plan: plan}
	recCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := d.cfg.Outbox.RecordAttempt(recCtx, rec); err != nil {
		return err
	}
	if plan.DisableEndpoint {
		d.cfg.Logger.Warn("webhook endpoint gone; disabled", "endpoint", p.EndpointID, "delivery", p.ID)
	}
	return nil
}
