package postgres

import (
	"context"
	"iter"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fourd-dev/fourd/engine"
)

var _ engine.EventStore = (*Store)(nil)

// querier is what the pool and a transaction have in common.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// eventBatch bounds how many events one INSERT carries.
const eventBatch = 1000

// copyEventsFrom is the number of events from which an append is stored
// as batches (event_batches) rather than a row per event.
const copyEventsFrom = 2 * eventBatch

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
// event whose data is not JSON or whose tenant does not exist. A large
// append stores its runs of consecutive ids as batches (event_batches).
func (s *Store) AppendEvents(ctx context.Context, events []engine.Event) (err error) {
	defer wrap(&err, "AppendEvents(%d events)", len(events))
	if len(events) >= copyEventsFrom {
		return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error { return appendBatched(ctx, tx, events) })
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error { return appendEvents(ctx, tx, events) })
}

// appendEvents stores events as a row each. db is a transaction (see
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
	return insertEventRows(ctx, db, events, subs)
}

// insertEventRows inserts events as rows, eventBatch in a statement: the
// columns travel as arrays and unnest turns them back into rows. An event
// stored already, as a row or in a batch, is skipped.
func insertEventRows(ctx context.Context, db querier, events []engine.Event, subs subscriptions) error {
	for len(events) > 0 {
		n := min(len(events), eventBatch)
		if err := insertEventChunk(ctx, db, events[:n], subs); err != nil {
			return err
		}
		events = events[n:]
	}
	return nil
}

func insertEventChunk(ctx context.Context, db querier, events []engine.Event, subs subscriptions) error {
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
	_, err := db.Exec(ctx, `INSERT INTO events (id, tenant_id, type, created_at, data, dispatched_at)
		SELECT id, tenant_id, type, created_at, data::jsonb, dispatched_at
		FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::timestamptz[])
			AS e(id, tenant_id, type, created_at, data, dispatched_at)
		WHERE NOT EXISTS (SELECT 1 FROM (SELECT b.last_id FROM event_batches b
			WHERE b.tenant_id = e.tenant_id AND b.id <= e.id ORDER BY b.id DESC LIMIT 1) b WHERE b.last_id >= e.id)
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
	next, stop := iter.Pull2(events)
	defer stop()
	// The first copyEventsFrom events decide: fewer are stored as rows,
	// more as batches that one COPY streams (a first audit can have
	// millions of events, all new: fresh ids).
	var head []engine.Event
	more := true
	for len(head) < copyEventsFrom {
		e, ferr, ok := next()
		if !ok {
			more = false
			break
		}
		if ferr != nil {
			return ferr
		}
		head = append(head, e)
	}
	if !more {
		if err := appendEvents(ctx, tx, head); err != nil {
			return err
		}
	} else if err := streamBatches(ctx, tx, head, next); err != nil {
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

// maxStreamedRows bounds the events of a streamed append kept in memory to
// be stored as rows after its batches: beyond it, an event that follows
// no other is a batch of one.
const maxStreamedRows = 10_000

// streamBatches stores head and then the rest of next with one COPY of
// batches, the events that follow no other as rows after it. The events
// are of one tenant, the first's, whose subscriptions are read before the
// COPY (another tenant's events would count as wanted).
func streamBatches(ctx context.Context, tx pgx.Tx, head []engine.Event, next func() (engine.Event, error, bool)) error {
	subs, err := loadSubscriptions(ctx, tx, []string{head[0].TenantID})
	if err != nil {
		return err
	}
	g := newGrouper()
	var tenants []string
	var rows []engine.Event
	done := false
	src := &batchSource{subs: subs}
	src.next = func() (*batchRow, bool) {
		for {
			for len(g.ready) > 0 {
				b := g.ready[0]
				g.ready = g.ready[1:]
				if len(b.events) == 1 && (b.row || len(rows) < maxStreamedRows) {
					rows = append(rows, b.events[0])
					continue
				}
				return b, true
			}
			if done {
				return nil, false
			}
			var e engine.Event
			if len(head) > 0 {
				e, head = head[0], head[1:]
			} else {
				ev, ferr, ok := next()
				if !ok {
					done = true
					g.close()
					continue
				}
				if ferr != nil {
					src.err = ferr
					return nil, false
				}
				e = ev
			}
			if n := len(tenants); n == 0 || tenants[n-1] != e.TenantID && !slices.Contains(tenants, e.TenantID) {
				tenants = append(tenants, e.TenantID)
			}
			g.add(e, 0)
		}
	}
	if err := copyBatches(ctx, tx, src); err != nil {
		return err
	}
	// Checked after the COPY, in its transaction: the events' tenants are
	// known once streamed.
	if err := lockTenants(ctx, tx, tenants); err != nil {
		return err
	}
	return insertEventRows(ctx, tx, rows, subs)
}
