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
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/go-faster/city"

	"github.com/fourd-dev/fourd/store/clickhouse/internal/bulk"
)

// tagBlockRows is how many rows of the tag index go in one block of its
// INSERT.
const tagBlockRows = 16_384

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
	rows []tagEntry
	ids  byteColumn
	// scratch of insertTagRows
	u64  []uint64
	strs []string
}

// tagEntry is a row of tagRows: its key, and its id's place in
// tagRows.ids.
type tagEntry struct {
	tenant, tag uint64
	id          int32
}

func (t *tagRows) len() int { return len(t.rows) }

// add appends the index rows of the rows gathered in c (rowColumns), in
// their order.
func (t *tagRows) add(c *rowColumns) {
	lastTenant, th := "", uint64(0)
	at := 0
	for j, n := range c.tags {
		if n == 0 {
			continue
		}
		// A view of c's buffer, compared within this call only.
		if tenant := c.str(gatherTenant, j); tenant != lastTenant || th == 0 {
			lastTenant, th = tenant, tenantHash(tenant)
		}
		id := int32(len(t.ids.end))
		t.ids.addBytes(c.strs[gatherID].at(j))
		for k := at; k < at+int(n); k++ {
			t.rows = append(t.rows, tagEntry{tenant: th, tag: tagHash(bulk.String(c.keys.at(k)), bulk.String(c.values.at(k))), id: id})
		}
		at += int(n)
	}
}

// reset empties t, keeping its capacity.
func (t *tagRows) reset() {
	t.rows = t.rows[:0]
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
	t.sort()
	b, err := s.prepareBatch(ctx, "INSERT INTO resource_tags (tenant, tag, id)")
	if err != nil {
		return err
	}
	// Sent in blocks of tagBlockRows, each flushed before the next: the
	// driver reuses its column buffers, where one block of every row grew
	// them (and the garbage collector's work) for each INSERT. The blocks
	// are consecutive runs of the sorted rows, so the part the server
	// gathers them into is sorted too.
	for start := 0; start < n; start += tagBlockRows {
		rows := t.rows[start:min(n, start+tagBlockRows)]
		m := len(rows)
		for i, step := range []func() error{
			func() error { return bulk.Gather(b.Column(0), &t.u64, m, func(j int) uint64 { return rows[j].tenant }) },
			func() error { return bulk.Gather(b.Column(1), &t.u64, m, func(j int) uint64 { return rows[j].tag }) },
			// The driver copies the values before Append returns.
			func() error {
				return bulk.Strings(b.Column(2), &t.strs, m, func(j int) string { return bulk.String(t.ids.at(int(rows[j].id))) })
			},
			b.Flush,
		} {
			if err := step(); err != nil {
				b.Abort()
				return fmt.Errorf("resource_tags block step %d: %w", i, err)
			}
		}
	}
	return b.Send()
}

// sort orders the rows by the table's key, (tenant, tag): integers only,
// the ids of one tag in any order.
func (t *tagRows) sort() {
	slices.SortFunc(t.rows, func(a, b tagEntry) int {
		if a.tenant != b.tenant {
			return cmp.Compare(a.tenant, b.tenant)
		}
		return cmp.Compare(a.tag, b.tag)
	})
}
