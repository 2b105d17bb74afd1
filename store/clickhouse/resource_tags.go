package clickhouse

// The tag index (resource_tags, migration 0018; issue 33 §3): one row per
// tag of every resource version written, which the tag filter reads its
// candidates from (tagMatching). The writer sends these rows itself,
// gathered over the batches of an INSERT into resources and sorted by the
// table's key, in one INSERT sent before the resources' own: a view on
// resources (0017) cost the server more than the resources did on a first
// import, as one small part of unsorted string keys per block. Sent first,
// an index row never lags its resource; a failed INSERT of resources
// leaves rows that name no stored version, which readers discard (they
// check each candidate's latest version).

import (
	"bytes"
	"cmp"
	"context"
	"slices"

	"github.com/go-faster/city"

	"github.com/fourd-dev/fourd/store/clickhouse/internal/bulk"
)

// tenantHash is resource_tags' tenant key of a tenant id: ClickHouse's
// cityHash64(tenant_id), the value the resources are sharded by in cluster
// mode, so that a tenant's index rows are on its resources' shard.
func tenantHash(tenantID string) uint64 {
	var stack [128]byte
	return city.CH64(append(stack[:0], tenantID...))
}

// tagHash is resource_tags' tag key of a tag: ClickHouse's
// cityHash64(concat(key, '\0', value)), as migration 0018 computes it. Two
// tags with one hash (a NUL in a key, or a collision) share candidates,
// which readers check against the resources.
func tagHash(key, value string) uint64 {
	var stack [256]byte
	b := append(append(append(stack[:0], key...), 0), value...)
	return city.CH64(b)
}

// tagRows are resource_tags rows to write, ids copied (the writer's rows
// are recycled).
type tagRows struct {
	tenants, tags []uint64
	ids           byteColumn
	order         []int32 // scratch of insert
}

func (t *tagRows) len() int { return len(t.tags) }

// add appends the index rows of the rows at order.
func (t *tagRows) add(rows []resourceRow, order []sortEntry) {
	lastTenant, th := "", uint64(0)
	for _, e := range order {
		r := &rows[e.row].r
		if len(r.Tags) == 0 {
			continue
		}
		if r.TenantID != lastTenant || th == 0 {
			lastTenant, th = r.TenantID, tenantHash(r.TenantID)
		}
		for _, tag := range r.Tags {
			t.tenants = append(t.tenants, th)
			t.tags = append(t.tags, tagHash(tag.Key, tag.Value))
			t.ids.add(r.ID)
		}
	}
}

// reset empties t, keeping its capacity.
func (t *tagRows) reset() {
	t.tenants, t.tags, t.order = t.tenants[:0], t.tags[:0], t.order[:0]
	t.ids.reset()
}

// insertTagRows writes t into resource_tags in one INSERT sorted by the
// table's key (the server then does not sort the block), and empties t.
func (s *Store) insertTagRows(ctx context.Context, t *tagRows) error {
	n := t.len()
	if n == 0 {
		return nil
	}
	defer t.reset()
	order := slices.Grow(t.order[:0], n)[:n]
	for i := range order {
		order[i] = int32(i)
	}
	t.order = order
	slices.SortFunc(order, func(a, b int32) int {
		if c := cmp.Compare(t.tenants[a], t.tenants[b]); c != 0 {
			return c
		}
		if c := cmp.Compare(t.tags[a], t.tags[b]); c != 0 {
			return c
		}
		return bytes.Compare(t.ids.at(int(a)), t.ids.at(int(b)))
	})
	b, err := s.prepareBatch(ctx, "INSERT INTO resource_tags (tenant, tag, id)")
	if err != nil {
		return err
	}
	tenants, tags, ids := make([]uint64, n), make([]uint64, n), make([]string, n)
	for j, i := range order {
		// The driver copies the values before Append returns.
		tenants[j], tags[j], ids[j] = t.tenants[i], t.tags[i], bulk.String(t.ids.at(int(i)))
	}
	for i, col := range []any{tenants, tags, ids} {
		if err := b.Column(i).Append(col); err != nil {
			b.Abort()
			return err
		}
	}
	return b.Send()
}
