package webhook

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/seal"
)

// Defaults of StoreOutboxConfig.
const (
	DefaultFanOutBatch = 500
	// DefaultDisableAfter is how long an endpoint may fail continuously
	// (every attempt of every delivery) before it is disabled.
	DefaultDisableAfter = 72 * time.Hour
)

// StoreOutboxConfig configures a StoreOutbox.
type StoreOutboxConfig struct {
	// Queue is the durable outbox (store/postgres).
	Queue engine.DeliveryQueue
	// Master is FOURD_SECRET, which sealed the endpoint secrets.
	Master []byte
	// Worker names this dispatcher in the claims it takes.
	Worker string
	// FanOutBatch bounds the events fanned out per claim; default 500.
	FanOutBatch int
	// DisableAfter disables an endpoint failing continuously this long;
	// default DefaultDisableAfter, negative never.
	DisableAfter time.Duration
	// Now is the clock of records and failing streaks: the Dispatcher's.
	Now    func() time.Time
	Logger *slog.Logger
}

// StoreOutbox is the Outbox of a real deployment: it fans the engine's
// events out to deliveries, claims due ones from an engine.DeliveryQueue,
// opens their endpoint secrets and builds the signed bodies, and records
// attempts with their plans.
type StoreOutbox struct {
	cfg StoreOutboxConfig
	// Successful attempts are group-committed: whoever finds no flush
	// running becomes the flusher and writes everything queued meanwhile
	// in one statement, while the others wait for their batch.
	mu       sync.Mutex
	queued   []*queuedRecord
	flushing bool
}

type queuedRecord struct {
	rec  engine.DeliveryAttemptRecord
	done chan error
}

var _ Outbox = (*StoreOutbox)(nil)

// NewStoreOutbox validates cfg and returns a StoreOutbox.
func NewStoreOutbox(cfg StoreOutboxConfig) (*StoreOutbox, error) {
	switch {
	case cfg.Queue == nil:
		return nil, errors.New("webhook: StoreOutbox needs a Queue")
	case len(cfg.Master) < seal.MinKey:
		return nil, errors.New("webhook: StoreOutbox needs the master key (FOURD_SECRET) of at least 32 bytes")
	case cfg.Worker == "":
		return nil, errors.New("webhook: StoreOutbox needs a Worker name")
	}
	if cfg.FanOutBatch <= 0 {
		cfg.FanOutBatch = DefaultFanOutBatch
	}
	if cfg.DisableAfter == 0 {
		cfg.DisableAfter = DefaultDisableAfter
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &StoreOutbox{cfg: cfg}, nil
}

// ClaimDue fans out waiting events, then leases up to limit due
// deliveries. A delivery whose secret cannot be opened is returned without
// one, so that its attempt fails and is logged rather than retried forever.
func (o *StoreOutbox) ClaimDue(ctx context.Context, now time.Time, limit int, lease time.Duration) ([]Pending, error) {
	if _, err := o.cfg.Queue.FanOutEvents(ctx, o.cfg.FanOutBatch, now); err != nil {
		return nil, err
	}
	claimed, err := o.cfg.Queue.ClaimDeliveries(ctx, o.cfg.Worker, now, limit, lease)
	if err != nil {
		return nil, err
	}
	out := make([]Pending, 0, len(claimed))
	for _, c := range claimed {
		out = append(out, o.pending(c))
	}
	return out, nil
}

func (o *StoreOutbox) pending(c engine.ClaimedDelivery) Pending {
	p := Pending{EndpointID: c.EndpointID, Attempt: c.Attempt, FirstAttemptAt: c.FirstAttemptAt,
		Delivery: Delivery{ID: c.ID, URL: c.URL, EventID: c.Event.ID, EventType: c.Event.Type}}
	body, err := EventBody(c.Event)
	if err != nil {
		o.cfg.Logger.Error("webhook event body", "delivery", c.ID, "event", c.Event.ID, "err", err)
		return p
	}
	p.Body = body
	secret, err := OpenSecret(o.cfg.Master, c.SealedSecret)
	if err != nil {
		// Never log the sealed value: only which endpoint.
		o.cfg.Logger.Error("webhook endpoint secret cannot be opened (FOURD_SECRET changed?)", "endpoint", c.EndpointID)
		return p
	}
	p.Secret = []byte(secret)
	if c.PreviousSealedSecret != "" {
		if prev, err := OpenSecret(o.cfg.Master, c.PreviousSealedSecret); err == nil {
			p.PreviousSecret = []byte(prev)
		}
	}
	return p
}

// RecordAttempt stores the attempt and its plan: 410 Gone disables the
// endpoint, as does a failure ending a failing streak longer than
// DisableAfter.
func (o *StoreOutbox) RecordAttempt(ctx context.Context, rec AttemptRecord) error {
	r := rec.Result
	now := o.cfg.Now()
	status := engine.DeliveryFailed
	switch rec.Plan.State {
	case StateDelivered:
		status = engine.DeliveryDelivered
	case StatePending:
		status = engine.DeliveryPending
	}
	dr := engine.DeliveryAttemptRecord{DeliveryID: rec.DeliveryID, Attempt: rec.Attempt, StartedAt: r.SentAt,
		FirstAttemptAt: rec.FirstAttemptAt, Outcome: string(r.Outcome), StatusCode: r.StatusCode, Latency: r.Latency,
		Error: r.Error, Status: status, NextAttemptAt: rec.Plan.NextAttemptAt, Now: now}
	if rec.Plan.DisableEndpoint {
		dr.DisableReason = "endpoint answered 410 Gone"
	}
	if o.cfg.DisableAfter > 0 {
		dr.FailingLimit = now.Add(-o.cfg.DisableAfter)
	}
	if dr.Outcome == engine.AttemptSuccess && dr.Status == engine.DeliveryDelivered {
		return o.recordDelivered(ctx, dr)
	}
	return o.cfg.Queue.RecordDeliveryAttempt(ctx, dr)
}

// recordDelivered group-commits a successful attempt and returns once it
// is stored (or failed to be).
func (o *StoreOutbox) recordDelivered(ctx context.Context, dr engine.DeliveryAttemptRecord) error {
	q := &queuedRecord{rec: dr, done: make(chan error, 1)}
	o.mu.Lock()
	o.queued = append(o.queued, q)
	lead := !o.flushing
	o.flushing = true
	o.mu.Unlock()
	if lead {
		o.flush(context.WithoutCancel(ctx))
	}
	select {
	case err := <-q.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// maxGroupCommit bounds one flush.
const maxGroupCommit = 1000

// flush writes queued records until none is left.
func (o *StoreOutbox) flush(ctx context.Context) {
	for {
		o.mu.Lock()
		n := min(len(o.queued), maxGroupCommit)
		batch := o.queued[:n:n]
		o.queued = o.queued[n:]
		if n == 0 {
			o.flushing = false
			o.mu.Unlock()
			return
		}
		o.mu.Unlock()
		recs := make([]engine.DeliveryAttemptRecord, n)
		for i, q := range batch {
			recs[i] = q.rec
		}
		fctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		missing, err := o.cfg.Queue.RecordDeliveredAttempts(fctx, recs)
		cancel()
		gone := map[string]bool{}
		for _, id := range missing {
			gone[id] = true
		}
		for _, q := range batch {
			switch {
			case err != nil:
				q.done <- err
			case gone[q.rec.DeliveryID]:
				q.done <- engine.ErrNotFound("delivery", q.rec.DeliveryID)
			default:
				q.done <- nil
			}
		}
	}
}
