package postgres

import (
	"context"
	"encoding/json"
	"iter"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fourd-dev/fourd/engine"
)

var (
	_ engine.EventStore = (*Store)(nil)
	_ engine.AuditQueue = (*Store)(nil)
)

// querier is what the pool and a transaction have in common.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// eventBatch bounds how many events one INSERT carries.
const eventBatch = 1000

// copyEventsFrom is the number of events from which AppendEvents tries a
// COPY first.
const copyEventsFrom = 2 * eventBatch

// copyEvents stores events, none of which may exist yet, with one COPY in
// a transaction.
func copyEvents(ctx context.Context, pool interface {
	Begin(context.Context) (pgx.Tx, error)
}, events []engine.Event) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.Background()) // a no-op after Commit
	tenants := eventTenants(events)
	if err := lockTenants(ctx, tx, tenants); err != nil {
		return err
	}
	subs, err := loadSubscriptions(ctx, tx, tenants)
	if err != nil {
		return err
	}
	src := &eventSource{subs: subs}
	src.next, src.stop = iter.Pull2(func(yield func(engine.Event, error) bool) {
		for _, e := range events {
			if !yield(e, nil) {
				return
			}
		}
	})
	defer src.stop()
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"events"}, eventColumns, src); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// eventColumns are the columns eventSource fills.
var eventColumns = []string{"id", "tenant_id", "type", "created_at", "data", "dispatched_at"}

// eventTenants lists the tenants of events, once each.
func eventTenants(events []engine.Event) []string {
	var out []string
	for i, e := range events {
		if (i == 0 || e.TenantID != events[i-1].TenantID) && !slices.Contains(out, e.TenantID) {
			out = append(out, e.TenantID)
		}
	}
	return out
}

// lockTenants stands for the foreign key from events to tenants, which
// cost a trigger query per row (migration 00070): in the transaction that
// stores events it checks that their tenants exist and holds them FOR KEY
// SHARE until commit, as the foreign key did, so none is deleted meanwhile.
// validation_failed when one does not exist.
func lockTenants(ctx context.Context, db querier, tenantIDs []string) error {
	if len(tenantIDs) == 0 {
		return nil
	}
	rows, err := db.Query(ctx, `SELECT id FROM tenants WHERE id = ANY($1) FOR KEY SHARE`, tenantIDs)
	if err != nil {
		return err
	}
	found, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	if len(found) != len(tenantIDs) {
		return engine.Errorf(engine.CodeValidationFailed, "a referenced record does not exist")
	}
	return nil
}

// AppendEvents commits events to the outbox, from which the webhook
// dispatcher fans them out. An event whose id is already stored is skipped,
// so that a retried append does not deliver twice. validation_failed for an
// event whose data is not JSON or whose tenant does not exist.
func (s *Store) AppendEvents(ctx context.Context, events []engine.Event) (err error) {
	defer wrap(&err, "AppendEvents(%d events)", len(events))
	if len(events) >= copyEventsFrom {
		// Events are almost always new: one COPY (about 1.4× the rate of
		// the INSERTs below) in a transaction; if some were stored already
		// (a retried append), nothing of it stays and the INSERTs, which
		// skip those, run instead.
		err := copyEvents(ctx, s.pool, events)
		if err == nil || !isUniqueViolation(err) {
			return err
		}
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		for len(events) > 0 {
			n := min(len(events), eventBatch)
			if err := appendEvents(ctx, tx, events[:n]); err != nil {
				return err
			}
			events = events[n:]
		}
		return nil
	})
}

// appendEvents inserts one batch in a single statement: the columns travel
// as arrays and unnest turns them back into rows. db is a transaction (see
// lockTenants).
func appendEvents(ctx context.Context, db querier, events []engine.Event) error {
	if len(events) == 0 {
		return nil
	}
	tenantIDs := eventTenants(events)
	if err := lockTenants(ctx, db, tenantIDs); err != nil {
		return err
	}
	subs, err := loadSubscriptions(ctx, db, tenantIDs)
	if err != nil {
		return err
	}
	dispatched := make([]*time.Time, len(events))
	ids := make([]string, len(events))
	tenants := make([]string, len(events))
	types := make([]string, len(events))
	created := make([]time.Time, len(events))
	data := make([]string, len(events))
	for i, e := range events {
		ids[i], tenants[i], types[i], created[i], data[i] = e.ID, e.TenantID, e.Type, e.CreatedAt, string(e.Data)
		dispatched[i] = subs.dispatchedAt(&events[i])
		if len(e.Data) == 0 {
			data[i] = "{}"
		}
	}
	_, err = db.Exec(ctx, `INSERT INTO events (id, tenant_id, type, created_at, data, dispatched_at)
		SELECT id, tenant_id, type, created_at, data::jsonb, dispatched_at
		FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::timestamptz[])
			AS e(id, tenant_id, type, created_at, data, dispatched_at)
		ON CONFLICT (tenant_id, id) DO NOTHING`, ids, tenants, types, created, data, dispatched)
	return err
}

// CompleteAudit appends the events to the outbox and then writes the audit
// that final returns (completed, failed or canceled), in one transaction:
// either both are stored or neither. final is called after events is
// exhausted, so it may report what they counted. The error of events stops
// it (nothing is stored); not_found when the audit does not exist in its
// tenant; validation_failed when final's status is not a final one; conflict
// as UpdateAudit.
func (s *Store) CompleteAudit(ctx context.Context, events iter.Seq2[engine.Event, error], final func() engine.Audit) (err error) {
	defer wrap(&err, "CompleteAudit")
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.Background()) // a no-op after Commit
	// One COPY streams every event: an audit's events are new (fresh ids),
	// and a first audit can have millions of them. They are of the audit's
	// tenant, whose subscriptions are read before the COPY, from the first
	// event (another tenant's events would count as wanted).
	src := &eventSource{}
	src.next, src.stop = iter.Pull2(events)
	defer src.stop()
	if first, ferr, ok := src.next(); ok {
		if ferr != nil {
			return ferr
		}
		if src.subs, err = loadSubscriptions(ctx, tx, []string{first.TenantID}); err != nil {
			return err
		}
		src.peeked = &first
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"events"}, eventColumns, src); err != nil {
		return err
	}
	if src.err != nil {
		return src.err
	}
	// Checked after the COPY, in its transaction: the events' tenants are
	// known once streamed.
	if err := lockTenants(ctx, tx, src.tenants); err != nil {
		return err
	}
	a := final()
	switch a.Status {
	case engine.AuditCompleted, engine.AuditFailed, engine.AuditCanceled:
	default:
		return engine.Errorf(engine.CodeValidationFailed, "an audit cannot end %q", a.Status)
	}
	if err := updateAudit(ctx, tx, a); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// eventSource feeds an event iterator to COPY.
type eventSource struct {
	next    func() (engine.Event, error, bool)
	stop    func()
	peeked  *engine.Event // taken from next before the COPY, given first
	subs    subscriptions // nil: every event is left to the dispatcher
	cur     engine.Event
	err     error
	tenants []string // the events' tenants, once each
	row     []any
}

func (e *eventSource) Next() bool {
	var ev engine.Event
	var err error
	if e.peeked != nil {
		ev, e.peeked = *e.peeked, nil
	} else {
		var ok bool
		if ev, err, ok = e.next(); !ok {
			return false
		}
	}
	if err != nil {
		e.err = err
		return false
	}
	e.cur = ev
	if n := len(e.tenants); n == 0 || e.tenants[n-1] != ev.TenantID && !slices.Contains(e.tenants, ev.TenantID) {
		e.tenants = append(e.tenants, ev.TenantID)
	}
	return true
}

func (e *eventSource) Values() ([]any, error) {
	data := e.cur.Data
	if len(data) == 0 {
		data = []byte("{}")
	}
	var dispatched any
	if t := e.subs.dispatchedAt(&e.cur); t != nil {
		dispatched = *t
	}
	// COPY encodes a row's values before asking for the next: one slice
	// serves every row, and the data goes as it is (raw JSON), uncopied.
	e.row = append(e.row[:0], e.cur.ID, e.cur.TenantID, e.cur.Type, e.cur.CreatedAt, json.RawMessage(data), dispatched)
	return e.row, nil
}

func (e *eventSource) Err() error { return e.err }
