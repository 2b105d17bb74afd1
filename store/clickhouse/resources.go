package clickhouse

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/cespare/xxhash/v2"

	"github.com/fourd-dev/fourd/engine"
)

// resourceStoredColumns are the columns of a resource that every write
// stores: resourceInsertColumns adds content_hash and captured_at, and
// resourceColumns, the column list pages of resources are read with,
// captured_at.
const resourceStoredColumns = `tenant_id, id, version, provider, account, region, type, native_id, name,
tags.key, tags.value, attributes, first_seen_at, last_seen_at`

// resourceColumns is the column list pages of resources are read with.
const resourceColumns = resourceStoredColumns + ", captured_at"

// resourceInsertColumns is the column list resources are written with.
const resourceInsertColumns = resourceStoredColumns + ", content_hash, captured_at"

// resourceRow is an observation checked and converted for the resources
// table.
type resourceRow struct {
	r                   engine.Resource
	version             uint64
	firstSeen, lastSeen time.Time
	captured            time.Time // the DateTime zero when not known
	// hash is contentHash's, set when the writer looks the row up;
	// unchanged then says whether the tenant's latest row of the id has
	// the same content, so that a sighting is all that needs storing.
	hash      uint64
	unchanged bool
	// key is the id's 128 bits when keyed (set by newResourceRow), so that
	// the writer's lookups of the id (tenantKnown) decode it once.
	key   [16]byte
	keyed bool
}

// contentHash is a hash of what a row stores of a resource besides its
// times: provider, account, region, type, native id, name, tags and
// attributes (their bytes as given), and the capture time when the input
// gave one (a configuration the source recorded again is a new row, so
// that evidence says when what it shows was captured; without a capture
// time the hash is what it was before there was one). Never 0, which
// stands for "unknown" in rows written before there was a hash.
func contentHash(row *resourceRow) uint64 {
	var d xxhash.Digest
	d.Reset()
	// The short fields gathered in a stack buffer, each after its length:
	// a few Writes instead of two per field (a fifth of the cost).
	var buf [512]byte
	b := buf[:0]
	str := func(v string) {
		if len(b)+binary.MaxVarintLen64+len(v) > cap(b) {
			_, _ = d.Write(b)
			b = buf[:0]
		}
		b = binary.AppendUvarint(b, uint64(len(v)))
		if len(v) > cap(b)-len(b) {
			_, _ = d.Write(b)
			_, _ = d.WriteString(v)
			b = buf[:0]
			return
		}
		b = append(b, v...)
	}
	r := &row.r
	str(r.Provider)
	str(r.Account)
	str(r.Region)
	str(r.Type)
	str(r.NativeID)
	str(r.Name)
	b = binary.AppendUvarint(b, uint64(len(r.Tags)))
	for _, t := range r.Tags {
		str(t.Key)
		str(t.Value)
	}
	b = binary.AppendUvarint(b, uint64(len(r.Attributes)))
	_, _ = d.Write(b)
	_, _ = d.Write(r.Attributes)
	if sec := row.captured.Unix(); sec > 0 {
		_, _ = d.Write(binary.BigEndian.AppendUint64(buf[:0], uint64(sec)))
	}
	if h := d.Sum64(); h != 0 {
		return h
	}
	return 1
}

// newResourceRow validates an observation: a valid resource id and
// representable times. A zero LastSeenAt is now; a zero FirstSeenAt is
// LastSeenAt (for a resource seen for the first time). Attributes are
// stored as given: that they are a JSON object is engine's rule
// (NormalizeResource checks it on every way in), and checking again here
// cost a bulk import a fifth of its time.
func newResourceRow(tenantID string, r engine.Resource, now time.Time) (resourceRow, error) {
	row := resourceRow{r: r}
	row.r.TenantID = tenantID
	if tenantID == "" {
		return row, engine.FieldErrorf("tenant_id", "tenant id is required")
	}
	// A valid resource id (engine.ValidID) is one that decodes.
	if row.key, row.keyed = decodeResourceID(r.ID); !row.keyed {
		return row, engine.FieldErrorf("id", "resource id must be a resource id (res_…); got %q", r.ID)
	}
	if r.LastSeenAt.IsZero() {
		r.LastSeenAt = now
	}
	if r.FirstSeenAt.IsZero() || r.FirstSeenAt.After(r.LastSeenAt) {
		r.FirstSeenAt = r.LastSeenAt
	}
	var err error
	if row.lastSeen, err = toCHTime("last_seen_at", r.LastSeenAt); err != nil {
		return row, err
	}
	if row.firstSeen, err = toCHTime("first_seen_at", r.FirstSeenAt); err != nil {
		return row, err
	}
	// A capture time outside DateTime's range is no time a source could
	// have captured anything at: not known, rather than a failed import.
	row.captured = minTime
	if r.CapturedAt != nil {
		if row.captured, err = toCHTime("captured_at", *r.CapturedAt); err != nil {
			row.captured = minTime
		}
	}
	row.version = uint64(r.LastSeenAt.UnixNano())
	row.r.Tags = r.Tags.Sorted() // stored in key order
	return row, nil
}

// scanResource reads one row selected with resourceColumns.
func scanResource(sc scanner) (engine.Resource, error) {
	var (
		r           engine.Resource
		version     uint64
		keys, vals  []string
		attrs       string
		first, last time.Time
		captured    time.Time
	)
	if err := sc.Scan(&r.TenantID, &r.ID, &version, &r.Provider, &r.Account, &r.Region, &r.Type, &r.NativeID, &r.Name,
		&keys, &vals, &attrs, &first, &last, &captured); err != nil {
		return r, fmt.Errorf("scan resource: %w", err)
	}
	fillResource(&r, true, keys, vals, attrs, first, last)
	r.CapturedAt = optionalTime(captured)
	return r, nil
}

// streamResourceColumns is resourceColumns with the tags packed into one
// string (packedTags): the driver scans an Array(String) into a []string
// by reflection, element by element, which cost an audit of 1M resources
// 2.9 s of its CPU; one string a row it copies once.
const streamResourceColumns = `tenant_id, id, version, provider, account, region, type, native_id, name,
arrayStringConcat(arrayMap((k, v) -> concat(toString(length(k)), ':', k, toString(length(v)), ':', v), tags.key, tags.value)),
attributes, first_seen_at, last_seen_at`

// streamedRow reads rows selected with streamResourceColumns into
// destinations it reuses row after row: scanning into a fresh set each row
// (the driver takes them as interfaces) allocated every one of them, 14 a
// resource. The attributes are scanned as json.RawMessage, which the driver
// fills without copying the string it reads.
type streamedRow struct {
	r           engine.Resource
	version     uint64
	tags        string
	attrs       json.RawMessage
	first, last time.Time
	dest        []any
}

func newStreamedRow() *streamedRow {
	x := &streamedRow{}
	x.dest = []any{&x.r.TenantID, &x.r.ID, &x.version, &x.r.Provider, &x.r.Account, &x.r.Region, &x.r.Type,
		&x.r.NativeID, &x.r.Name, &x.tags, &x.attrs, &x.first, &x.last}
	return x
}

// scan reads the current row of sc into a new Resource.
func (x *streamedRow) scan(sc scanner) (engine.Resource, error) {
	x.r, x.attrs = engine.Resource{}, nil
	if err := sc.Scan(x.dest...); err != nil {
		return engine.Resource{}, fmt.Errorf("scan resource: %w", err)
	}
	r := x.r
	t, err := unpackTags(x.tags)
	if err != nil {
		return r, fmt.Errorf("scan resource %s: %w", r.ID, err)
	}
	r.Tags = engine.SortTags(t) // stored in key order: a check
	if len(x.attrs) > 0 {
		r.Attributes = x.attrs
	}
	r.FirstSeenAt, r.LastSeenAt = fromCHTime(x.first), fromCHTime(x.last)
	return r, nil
}

// unpackTags splits the tags streamResourceColumns packs: each key and
// value as its length in bytes (decimal), ':' and its bytes. The tags are
// substrings of s.
func unpackTags(s string) (engine.Tags, error) {
	next := func() (string, bool) {
		n, i := 0, 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9' && i < 9; i++ {
			n = n*10 + int(s[i]-'0')
		}
		if i == 0 || i == len(s) || s[i] != ':' || n > len(s)-i-1 {
			return "", false
		}
		v := s[i+1 : i+1+n]
		s = s[i+1+n:]
		return v, true
	}
	var out engine.Tags
	for len(s) > 0 {
		k, ok := next()
		v, ok2 := next()
		if !ok || !ok2 {
			return nil, fmt.Errorf("packed tags: malformed at %q", s[:min(len(s), 20)])
		}
		if out == nil {
			out = make(engine.Tags, 0, 8)
		}
		out = append(out, engine.Tag{Key: k, Value: v})
	}
	if out == nil {
		out = engine.Tags{}
	}
	return out, nil
}

// fillResource sets what a scanned row's columns give r: its tags (when
// withTags), attributes and times.
func fillResource(r *engine.Resource, withTags bool, keys, vals []string, attrs string, first, last time.Time) {
	if withTags {
		r.Tags = make(engine.Tags, 0, len(keys))
		for i, k := range keys {
			if i < len(vals) {
				r.Tags = append(r.Tags, engine.Tag{Key: k, Value: vals[i]})
			}
		}
		r.Tags = engine.SortTags(r.Tags) // stored in key order: a check
	}
	if attrs != "" {
		r.Attributes = json.RawMessage(attrs)
	}
	r.FirstSeenAt, r.LastSeenAt = fromCHTime(first), fromCHTime(last)
}

// resourcePageQuery reads the latest observation of up to limit resources
// with lo < id (lo <= id when loInclusive) and id < hi, in id order. The
// inner query picks the ids, the outer one their newest rows. The filter
// applies to observations: type, provider, account and region are part of
// what a resource id is derived from, so they do not change between them.
type resourcePageQuery struct {
	tenantID    string
	filter      engine.ResourceFilter
	lo          string
	loInclusive bool
	hi          string
	limit       int
}

func (q resourcePageQuery) toSQL() (string, []any) {
	var rng conds
	rng.add("tenant_id = ?", q.tenantID)
	if q.lo != "" {
		if q.loInclusive {
			rng.add("id >= ?", q.lo)
		} else {
			rng.add("id > ?", q.lo)
		}
	}
	if q.hi != "" {
		rng.add("id < ?", q.hi)
	}
	inner := conds{exprs: slices.Clone(rng.exprs), args: slices.Clone(rng.args)}
	for _, f := range []struct{ col, v string }{{"type", q.filter.Type}, {"provider", q.filter.Provider},
		{"account", q.filter.Account}, {"region", q.filter.Region}} {
		if f.v != "" {
			inner.add(f.col+" = ?", f.v)
		}
	}
	lim := strconv.Itoa(q.limit)
	sql := "SELECT " + resourceColumns + " FROM resources WHERE " + rng.sql() +
		" AND id IN (SELECT id FROM resources WHERE " + inner.sql() + " ORDER BY id LIMIT 1 BY id LIMIT " + lim + ")" +
		" ORDER BY id, version DESC LIMIT 1 BY id"
	return sql, append(rng.args, inner.args...)
}

// ListResources returns up to q.Limit resources (the latest observation of
// each) in id order, strictly after q.AfterID. Like ListFindings it reads a
// key range expected to hold the page (resource ids are uniform hashes),
// widened when short. Errors: validation_failed for a missing tenant or a
// bad limit.
func (s *Store) ListResources(ctx context.Context, q engine.ResourceQuery) (out []engine.Resource, err error) {
	defer s.metrics.Observe("resources", "ListResources", time.Now(), &err)
	defer wrap(&err, "ListResources(%q)", q.TenantID)
	ctx = s.scoped(ctx, q.TenantID, "")
	if q.TenantID == "" {
		return nil, engine.FieldErrorf("tenant_id", "tenant id is required")
	}
	if q.Limit < 1 || q.Limit > maxListLimit {
		return nil, &engine.Error{Code: engine.CodeInvalidLimit, Field: "limit", Message: "limit must be from 1 to 10000"}
	}
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	var total uint64
	if err := s.conn.QueryRow(ctx, "SELECT count() FROM resources WHERE tenant_id = ?", q.TenantID).Scan(&total); err != nil {
		return nil, err
	}
	out = []engine.Resource{}
	if total == 0 {
		return out, nil
	}
	lo, loInclusive, factor := q.AfterID, false, initialRangeFactor
	for try := 0; ; try++ {
		need := q.Limit - len(out)
		hi := ""
		if try < boundedTries {
			hi = rangeEnd(engine.PrefixResource, lo, need, total, factor)
		}
		page, err := s.queryResources(ctx, resourcePageQuery{tenantID: q.TenantID, filter: q.Filter,
			lo: lo, loInclusive: loInclusive, hi: hi, limit: need}, s.tenantLocalSettings()...)
		if err != nil {
			return nil, err
		}
		out = append(out, page...)
		if len(page) == need || hi == "" {
			return out, s.applyPageSightings(ctx, q, out)
		}
		lo, loInclusive = hi, true
		factor *= rangeWidening
	}
}

// queryResources runs a query selecting resourceColumns.
func (s *Store) queryResources(ctx context.Context, q sqlQuery, settings ...ch.Settings) ([]engine.Resource, error) {
	text, args := q.toSQL()
	if len(settings) > 0 {
		ctx = ch.Context(ctx, ch.WithSettings(settings[0]))
	}
	rows, err := s.conn.Query(ctx, text, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []engine.Resource
	for rows.Next() {
		r, err := scanResource(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// idListSettings lets the text of a query with a long IN list through the
// parser (max_query_size is 256 KiB by default).
var idListSettings = ch.Settings{"max_query_size": 16 << 20}

// GetResource returns the latest observation of a resource; not_found when
// the tenant has none with that id.
func (s *Store) GetResource(ctx context.Context, tenantID, id string) (r engine.Resource, err error) {
	defer s.metrics.Observe("resources", "GetResource", time.Now(), &err)
	defer wrap(&err, "GetResource(%q, %q)", tenantID, id)
	ctx = s.scoped(ctx, tenantID, "")
	if tenantID == "" || !engine.ValidID(engine.PrefixResource, id) {
		return r, engine.ErrNotFound("resource", id)
	}
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	rs, err := s.lookup(ctx, resourcesByIDQuery{tenantID: tenantID, ids: []string{id}, fields: engine.AllResourceFields})
	if err != nil {
		return r, err
	}
	if len(rs) == 0 {
		return r, engine.ErrNotFound("resource", id)
	}
	if err := s.applySightings(ctx, tenantID, rs); err != nil {
		return r, err
	}
	return rs[0], nil
}

// GetResources returns the latest observation of each of the ids that the
// tenant has, in id order; ids it does not have are left out.
func (s *Store) GetResources(ctx context.Context, tenantID string, ids []string) (out []engine.Resource, err error) {
	defer s.metrics.Observe("resources", "GetResources", time.Now(), &err)
	defer wrap(&err, "GetResources(%q, %d ids)", tenantID, len(ids))
	ctx = s.scoped(ctx, tenantID, "")
	return s.lookupResources(ctx, tenantID, ids, engine.AllResourceFields)
}
