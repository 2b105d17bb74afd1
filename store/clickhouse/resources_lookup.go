package clickhouse

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/fourd-dev/fourd/engine"
)

// Lookups of resources by id (GetResources, GetResourcesPartial,
// GetResource). Resource ids are uniform hashes, so the ids of a page fall
// in granules all over the tenant's key range: 200 ids touch a third or
// more of the 256-row granules of every part (115k rows read for 200 ids
// over 200k resources in 5 parts), and since a column's compressed blocks
// (64 KiB and more) span several granules, such a lookup decompresses
// nearly every block of each column it reads. What it costs is therefore
// the width of the columns read and the number of parts, not the number
// of rows returned. Three things keep it small:
//   - only the columns asked for: tags and attributes (the wide ones) only
//     when the caller shows them;
//   - PREWHERE on id, so the other columns are read for the granules that
//     hold an id and filtered before anything else runs;
//   - use_uncompressed_cache for lookups of up to lookupCacheMaxIDs ids,
//     so that repeated lookups over the same parts copy blocks the server
//     already decompressed. The cache is the server's (bounded by its
//     uncompressed_cache_size, no cache when that is 0); it holds blocks of
//     immutable part files, so it can never serve an outdated row.

// lookupCacheMaxIDs is the largest lookup that asks for the server's
// uncompressed cache: a few pages' worth. Larger batches (reports, ingest
// announcements) read without it so they do not evict the pages' blocks.
const lookupCacheMaxIDs = 1000

// lookupChunk is the most ids one lookup query carries.
const lookupChunk = 10_000

// resourceNarrowColumns are the columns every lookup reads, in scan order;
// tags and attributes follow when asked for.
const resourceNarrowColumns = "tenant_id, id, version, provider, account, region, type, native_id, name, first_seen_at, last_seen_at"

// resourcesByIDQuery reads the latest observation of each of the ids that
// the tenant has, with the wide columns that fields names.
type resourcesByIDQuery struct {
	tenantID string
	ids      []string
	fields   engine.ResourceFields
}

func (q resourcesByIDQuery) toSQL() (string, []any) {
	cols := resourceNarrowColumns
	if q.fields.Tags {
		cols += ", tags.key, tags.value"
	}
	if q.fields.Attributes {
		cols += ", attributes"
	}
	if q.fields.CapturedAt {
		cols += ", captured_at"
	}
	return "SELECT " + cols + " FROM resources PREWHERE id IN ? WHERE tenant_id = ?" +
		" ORDER BY id, version DESC LIMIT 1 BY id", []any{groupSet(q.ids), q.tenantID}
}

// settings are the query's settings: a long IN list gets through the
// parser (max_query_size is 256 KiB by default), and a small lookup uses
// the uncompressed cache.
func (q resourcesByIDQuery) settings() ch.Settings { return lookupSettings(len(q.ids)) }

// lookupSettings are the settings of a lookup of n ids.
func lookupSettings(n int) ch.Settings {
	if n > lookupCacheMaxIDs {
		return idListSettings
	}
	return ch.Settings{"max_query_size": idListSettings["max_query_size"], "use_uncompressed_cache": 1}
}

// scan reads one row selected by the query.
func (q resourcesByIDQuery) scan(sc scanner) (engine.Resource, error) {
	var (
		r           engine.Resource
		version     uint64
		keys, vals  []string
		attrs       string
		first, last time.Time
		captured    time.Time
	)
	dest := []any{&r.TenantID, &r.ID, &version, &r.Provider, &r.Account, &r.Region, &r.Type, &r.NativeID, &r.Name, &first, &last}
	if q.fields.Tags {
		dest = append(dest, &keys, &vals)
	}
	if q.fields.Attributes {
		dest = append(dest, &attrs)
	}
	if q.fields.CapturedAt {
		dest = append(dest, &captured)
	}
	if err := sc.Scan(dest...); err != nil {
		return r, fmt.Errorf("scan resource: %w", err)
	}
	fillResource(&r, q.fields.Tags, keys, vals, attrs, first, last)
	r.CapturedAt = optionalTime(captured)
	return r, nil
}

// GetResourcesPartial returns the latest observation of each of the ids
// that the tenant has, in id order, with the tags and attributes only when
// f names them (nil otherwise); ids the tenant does not have are left out.
// An empty tenant or id list returns no resources.
func (s *Store) GetResourcesPartial(ctx context.Context, tenantID string, ids []string, f engine.ResourceFields) (out []engine.Resource, err error) {
	defer s.metrics.Observe("resources", "GetResourcesPartial", time.Now(), &err)
	defer wrap(&err, "GetResourcesPartial(%q, %d ids, %+v)", tenantID, len(ids), f)
	ctx = s.scoped(ctx, tenantID, "")
	return s.lookupResources(ctx, tenantID, ids, f)
}

// lookupResources serves the lookups by id.
func (s *Store) lookupResources(ctx context.Context, tenantID string, ids []string, f engine.ResourceFields) ([]engine.Resource, error) {
	out := []engine.Resource{}
	if tenantID == "" || len(ids) == 0 {
		return out, nil
	}
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	for chunk := range slices.Chunk(ids, lookupChunk) {
		q := resourcesByIDQuery{tenantID: tenantID, ids: chunk, fields: f}
		rs, err := s.lookup(ctx, q)
		if err != nil {
			return nil, err
		}
		if f.LastSeen {
			if err := s.applySightings(ctx, tenantID, rs); err != nil {
				return nil, err
			}
		} else {
			for i := range rs {
				rs[i].LastSeenAt = time.Time{}
			}
		}
		out = append(out, rs...)
	}
	if len(ids) > lookupChunk {
		slices.SortFunc(out, func(a, b engine.Resource) int { return strings.Compare(a.ID, b.ID) })
		out = slices.CompactFunc(out, func(a, b engine.Resource) bool { return a.ID == b.ID })
	}
	return out, nil
}

// lookup runs one lookup query.
func (s *Store) lookup(ctx context.Context, q resourcesByIDQuery) ([]engine.Resource, error) {
	text, args := q.toSQL()
	rows, err := s.conn.Query(ch.Context(ctx, ch.WithSettings(q.settings())), text, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []engine.Resource
	for rows.Next() {
		r, err := q.scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
