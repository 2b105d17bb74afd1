package clickhouse

import (
	"context"
	"errors"
	"iter"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/fourd-dev/fourd/engine"
)

// tenantIDs is a tenant's list of resource ids, with their first sightings
// (parallel to ids) where firstSeen gives them.
type tenantIDs struct {
	tenantID string
	ids      []string
	first    []time.Time
}

// firstSeenQuery finds which of the ids a tenant already has, with their
// first sighting and the content hash of their latest row.
type firstSeenQuery struct {
	tenantID string
	ids      []string
}

func (q firstSeenQuery) toSQL() (string, []any) {
	const sql = "SELECT id, min(first_seen_at), argMax(content_hash, version) FROM resources" +
		" WHERE tenant_id = ? AND id IN ? GROUP BY id"
	return sql, []any{q.tenantID, groupSet(q.ids)}
}

// knownIDsThreshold is the batch size from which a writer reads all of a
// tenant's ids once (two narrow columns) and keeps them, instead of looking
// up each batch's ids: with ids uniform over the key space, an IN lookup of
// thousands of ids touches nearly every granule of the tenant, so a bulk
// import would read the tenant once per batch.
const knownIDsThreshold = 5000

// oneTenant reports whether every row is of the same tenant.
func oneTenant(rows []resourceRow) bool {
	for i := range rows {
		if rows[i].r.TenantID != rows[0].r.TenantID {
			return false
		}
	}
	return true
}

// firstSeenKnown is firstSeen for rows of one tenant whose ids are all in k,
// which it does not change: a lookup a row, and one more for each row of a
// new id (which of the batch's new ids it is, in k.batch: a map keyed by
// the ids' text cost a first import of 1M resources 270 MB of allocations
// and ~0.3 s of hashing). It marks the rows whose content k has as the
// id's latest (resourceRow.unchanged); their hashes must be set.
func firstSeenKnown(rows []resourceRow, k *tenantKnown) ([]time.Time, []string, []time.Time) {
	out := make([]time.Time, len(rows))
	var newIDs []string
	var newFirst []time.Time   // the earliest sighting in the batch of each new id
	var other map[string]int32 // new id that does not decode → its index in newIDs
	var slot []int32           // row → index in newIDs of its id, -1 for a known one
	k.batch.reset()
	for i := range rows {
		id := rows[i].r.ID
		if kr, ok := k.getRow(&rows[i]); ok {
			out[i] = time.Unix(int64(kr.first), 0).UTC()
			rows[i].unchanged = kr.hash == rows[i].hash
			if slot != nil {
				slot[i] = -1
			}
			continue
		}
		if slot == nil {
			slot = make([]int32, len(rows))
			for j := range i {
				slot[j] = -1
			}
			// Room for every row left being new, as in a first import.
			newIDs, newFirst = make([]string, 0, len(rows)-i), make([]time.Time, 0, len(rows)-i)
		}
		key, keyed := rows[i].key, rows[i].keyed
		if !keyed {
			key, keyed = decodeResourceID(id)
		}
		var j int32
		var seen bool
		if keyed {
			hi, lo := keyHalves(key)
			if j, seen = k.batch.find(hi, lo); !seen {
				j = int32(len(newIDs))
				k.batch.set(hi, lo, j)
			}
		} else {
			if other == nil {
				other = map[string]int32{}
			}
			if j, seen = other[id]; !seen {
				j = int32(len(newIDs))
				other[id] = j
			}
		}
		if !seen {
			newIDs = append(newIDs, id)
			newFirst = append(newFirst, rows[i].firstSeen)
		} else if rows[i].firstSeen.Before(newFirst[j]) {
			newFirst[j] = rows[i].firstSeen
		}
		slot[i] = j
	}
	for i, j := range slot {
		if j >= 0 {
			out[i] = newFirst[j]
		}
	}
	return out, newIDs, newFirst
}

// firstSeen decides the first_seen_at of each row: the stored one for an id
// the tenant already has, else the earliest in the batch. It also returns
// the ids that are new to each tenant, in the order first met, and sets
// each row's content hash and whether it is unchanged from the stored
// latest row of its id (then only a sighting is written). known holds the
// ids of tenants read whole (see knownIDsThreshold); it is filled here and
// may be nil.
func (s *Store) firstSeen(ctx context.Context, rows []resourceRow, known map[string]*tenantKnown) ([]time.Time, []tenantIDs, error) {
	for i := range rows {
		rows[i].hash = contentHash(&rows[i])
		rows[i].unchanged = false
	}
	if known != nil && len(rows) > 0 && oneTenant(rows) {
		tenant := rows[0].r.TenantID
		if known[tenant] == nil && len(rows) >= knownIDsThreshold {
			k, err := s.loadKnown(ch.Context(ctx, ch.WithSettings(idListSettings)), tenant)
			if err != nil {
				return nil, nil, err
			}
			known[tenant] = k
		}
		if k := known[tenant]; k != nil {
			out, ids, first := firstSeenKnown(rows, k)
			if len(ids) == 0 {
				return out, nil, nil
			}
			return out, []tenantIDs{{tenant, ids, first}}, nil
		}
	}
	type key struct{ tenant, id string }
	order := []string{}
	byTenant := map[string][]string{}
	seen := map[key]time.Time{}
	for i := range rows {
		k := key{rows[i].r.TenantID, rows[i].r.ID}
		t, ok := seen[k]
		if !ok {
			if _, ok := byTenant[k.tenant]; !ok {
				order = append(order, k.tenant)
			}
			byTenant[k.tenant] = append(byTenant[k.tenant], k.id)
		}
		if !ok || rows[i].firstSeen.Before(t) {
			seen[k] = rows[i].firstSeen
		}
	}
	ctx = ch.Context(ctx, ch.WithSettings(idListSettings))
	have := map[key]bool{}
	stored := map[key]uint64{} // content hash of the latest stored row
	for _, tenant := range order {
		if known != nil && known[tenant] == nil && len(byTenant[tenant]) >= knownIDsThreshold {
			k, err := s.loadKnown(ctx, tenant)
			if err != nil {
				return nil, nil, err
			}
			known[tenant] = k
		}
		if k := known[tenant]; k != nil {
			for _, id := range byTenant[tenant] {
				if kr, ok := k.get(id); ok {
					have[key{tenant, id}] = true
					seen[key{tenant, id}] = time.Unix(int64(kr.first), 0).UTC()
					stored[key{tenant, id}] = kr.hash
				}
			}
			continue
		}
		text, args := firstSeenQuery{tenantID: tenant, ids: byTenant[tenant]}.toSQL()
		res, err := s.conn.Query(ctx, text, args...)
		if err != nil {
			return nil, nil, err
		}
		for res.Next() {
			var id string
			var t time.Time
			var hash uint64
			if err := res.Scan(&id, &t, &hash); err != nil {
				res.Close()
				return nil, nil, err
			}
			k := key{tenant, id}
			have[k] = true
			seen[k] = t.UTC()
			stored[k] = hash
		}
		err = res.Err()
		res.Close()
		if err != nil {
			return nil, nil, err
		}
	}
	out := make([]time.Time, len(rows))
	for i := range rows {
		k := key{rows[i].r.TenantID, rows[i].r.ID}
		out[i] = seen[k]
		rows[i].unchanged = stored[k] == rows[i].hash
	}
	var newIDs []tenantIDs
	for _, tenant := range order {
		var ids []string
		var first []time.Time
		for _, id := range byTenant[tenant] {
			if k := (key{tenant, id}); !have[k] {
				ids = append(ids, id)
				first = append(first, seen[k])
			}
		}
		if len(ids) > 0 {
			newIDs = append(newIDs, tenantIDs{tenant, ids, first})
		}
	}
	return out, newIDs, nil
}

// WriteResources stores observations of a tenant's resources in batches of
// DefaultResourceBatchSize through a pipeline (resources_bulk.go). It returns how many it
// wrote and the ids the tenant never had before. On error (validation_failed
// for an observation the table cannot hold, the iterator's error, or an
// internal one) the observations before it are still written and the
// result says so.
func (s *Store) WriteResources(ctx context.Context, tenantID string, resources iter.Seq2[engine.Resource, error]) (res engine.WriteResourcesResult, err error) {
	defer s.metrics.Observe("resources", "WriteResources", time.Now(), &err)
	defer wrap(&err, "WriteResources(%q)", tenantID)
	ctx = s.scoped(ctx, tenantID, "")
	res.NewIDs = []string{}
	if tenantID == "" {
		return res, engine.FieldErrorf("tenant_id", "tenant id is required")
	}
	written, newIDs, err := s.writeBulk(ctx, tenantID, resources, false, nil)
	res.Written = written
	if newIDs != nil {
		res.NewIDs = newIDs
	}
	return res, err
}

// errBatchesStopped is what the notifier sees once the caller of
// WriteResourceBatches stopped its loop.
var errBatchesStopped = errors.New("clickhouse: the caller stopped reading the batches")

// WriteResourceBatches is WriteResources handing each stored batch back to
// the caller (engine/ingest.BatchWriter): its ids new to the tenant and
// their resource.added data, packed as their rows are appended to an
// INSERT and yielded once that INSERT is sent, in batch order. The
// pipeline reads resources on a goroutine of its own and goes on while the
// loop body runs; the notifier waits for the body, so a slow caller slows
// the write rather than piling up batches. Stopping the loop stops the
// write; a failure yields the stored batches, then the error.
func (s *Store) WriteResourceBatches(ctx context.Context, tenantID string, resources iter.Seq2[engine.Resource, error]) iter.Seq2[engine.ResourceBatch, error] {
	return func(yield func(engine.ResourceBatch, error) bool) {
		var err error
		defer s.metrics.Observe("resources", "WriteResources", time.Now(), &err)
		if tenantID == "" {
			err = engine.FieldErrorf("tenant_id", "tenant id is required")
			yield(engine.ResourceBatch{}, err)
			return
		}
		ctx := s.scoped(ctx, tenantID, "")
		batches := make(chan engine.ResourceBatch)
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer close(batches)
			_, _, err = s.writeBulk(ctx, tenantID, resources, true, func(b engine.ResourceBatch) error {
				select {
				case batches <- b:
					return nil
				case <-stop:
					return errBatchesStopped
				}
			})
		}()
		for b := range batches {
			if !yield(b, nil) {
				close(stop) // the notifier's next delivery fails: the write stops
				<-done
				err = nil // the caller's choice, not the store's failure
				return
			}
		}
		<-done
		if err != nil {
			wrap(&err, "WriteResources(%q)", tenantID)
			yield(engine.ResourceBatch{}, err)
		}
	}
}
