package clickhouse

import (
	"context"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/fourd-dev/fourd/engine"
)

// A resource observed again with the content of its latest row is stored
// as a sighting (tenant, id, last_seen_at) in resource_sightings instead of
// a whole new row (migration 0007): a re-import of an unchanged inventory
// then writes a few narrow rows instead of rewriting every resource. Every
// read of resources takes the later last_seen_at of the row and of the
// id's sightings, through the functions here.

// sightings maps resource ids to their latest sighting, in Unix seconds.
type sightings map[string]uint32

// apply moves r's last_seen_at to its latest sighting when that is later.
func (sg sightings) apply(r *engine.Resource) {
	if t, ok := sg[r.ID]; ok {
		if seen := time.Unix(int64(t), 0).UTC(); seen.After(r.LastSeenAt) {
			r.LastSeenAt = seen
		}
	}
}

// sightingsByIDQuery reads the latest sighting of each of a tenant's ids
// that has one.
type sightingsByIDQuery struct {
	tenantID string
	ids      []string
}

func (q sightingsByIDQuery) toSQL() (string, []any) {
	return "SELECT id, toUInt32(max(last_seen_at)) FROM resource_sightings PREWHERE id IN ? WHERE tenant_id = ? GROUP BY id",
		[]any{groupSet(q.ids), q.tenantID}
}

// sightingsRangeQuery reads the latest sighting of each id of a stream's
// chunk (a tenant's id range) that has one.
type sightingsRangeQuery streamResourcesQuery

func (q sightingsRangeQuery) toSQL() (string, []any) {
	c := streamResourcesQuery(q).where()
	return "SELECT id, toUInt32(max(last_seen_at)) FROM resource_sightings WHERE " + c.sql() + " GROUP BY id", c.args
}

// sightingsBetweenQuery reads the latest sighting of each of a tenant's
// ids from first to last that has one.
type sightingsBetweenQuery struct {
	tenantID, first, last string
}

func (q sightingsBetweenQuery) toSQL() (string, []any) {
	return "SELECT id, toUInt32(max(last_seen_at)) FROM resource_sightings WHERE tenant_id = ? AND id >= ? AND id <= ? GROUP BY id",
		[]any{q.tenantID, q.first, q.last}
}

// readSightings runs a sightings query.
func (s *Store) readSightings(ctx context.Context, q sqlQuery, settings ch.Settings) (sightings, error) {
	text, args := q.toSQL()
	rows, err := s.conn.Query(ch.Context(ctx, ch.WithSettings(settings)), text, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := sightings{}
	for rows.Next() {
		var id string
		var t uint32
		if err := rows.Scan(&id, &t); err != nil {
			return nil, err
		}
		out[id] = t
	}
	return out, rows.Err()
}

// applyPageSightings is applySightings for a page of ListResources, in id
// order. Unfiltered, the page is every id of the tenant between its first
// and its last: their sightings are read as that range, a few granules,
// where an IN list of ids spread over the key space touches a granule per
// id (as lookups do, resources_lookup.go). A filtered page may span the
// whole tenant, so it reads by its ids.
func (s *Store) applyPageSightings(ctx context.Context, q engine.ResourceQuery, rs []engine.Resource) error {
	if len(rs) == 0 || q.Filter != (engine.ResourceFilter{}) {
		return s.applySightings(ctx, q.TenantID, rs)
	}
	sg, err := s.readSightings(ctx, sightingsBetweenQuery{tenantID: q.TenantID, first: rs[0].ID, last: rs[len(rs)-1].ID}, nil)
	if err != nil {
		return err
	}
	for i := range rs {
		sg.apply(&rs[i])
	}
	return nil
}

// applySightings moves the last_seen_at of each of a tenant's resources rs
// to its latest sighting when that is later.
func (s *Store) applySightings(ctx context.Context, tenantID string, rs []engine.Resource) error {
	if len(rs) == 0 {
		return nil
	}
	ids := make([]string, len(rs))
	for i := range rs {
		ids[i] = rs[i].ID
	}
	sg, err := s.readSightings(ctx, sightingsByIDQuery{tenantID: tenantID, ids: ids}, lookupSettings(len(ids)))
	if err != nil {
		return err
	}
	for i := range rs {
		sg.apply(&rs[i])
	}
	return nil
}
