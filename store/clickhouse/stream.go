package clickhouse

import (
	"context"
	"fmt"
	"strings"

	ch "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/fourd-dev/fourd/engine"
)

// streamBlockRows is the most rows of a block the server sends a resource
// stream: the driver decodes a block's strings into one buffer (grown by
// doubling), so a chunk's block of up to 50k resources with their
// attributes held ~35 MB of a 1M audit's peak heap, 8,192-row blocks ~5 MB
// (heap profiles at the peak; docs/benchmarks.md).
const streamBlockRows = 8192

// streamChunkRows is about how many rows one chunk of a stream holds: the
// server sorts a chunk, never the whole set.
const streamChunkRows = 50_000

// idChunks splits the id space into n equal key ranges [lo, hi); "" is
// unbounded.
func idChunks(prefix string, n int) [][2]string {
	if n < 1 {
		n = 1
	}
	out := make([][2]string, n)
	step := idSpace / uint64(n)
	for i := range n {
		if i > 0 {
			out[i][0] = idBound(prefix, uint64(i)*step)
		}
		if i < n-1 {
			out[i][1] = idBound(prefix, uint64(i+1)*step)
		}
	}
	return out
}

// chunkCount is how many chunks a stream of about total rows is cut into.
func chunkCount(total uint64) int {
	return int(min((total+streamChunkRows-1)/streamChunkRows, 1<<16))
}

// streamFindingsQuery reads the findings of a snapshot in one id range, in
// id order, with one key range per severity bucket.
type streamFindingsQuery struct {
	tenantID, auditID string
	lo, hi            string
}

func (q streamFindingsQuery) toSQL() (string, []any) {
	args := []any{snapshotKey(q.tenantID, q.auditID)}
	alts := make([]string, numBuckets)
	for b := range numBuckets {
		var c conds
		c.add("sev_order = ?", uint8(b))
		if q.lo != "" {
			c.add("id >= ?", idRangeKey(q.lo))
		}
		if q.hi != "" {
			c.add("id < ?", idRangeKey(q.hi))
		}
		alts[b] = "(" + c.sql() + ")"
		args = append(args, c.args...)
	}
	return "SELECT " + findingColumns + " FROM snapshot_findings WHERE snapshot = ? AND (" +
		strings.Join(alts, " OR ") + ") ORDER BY id", args
}

// StreamFindings calls fn with every finding of a snapshot in id order (for
// diffing two snapshots and for reports), reading the snapshot in chunks so
// that neither side holds it whole. It stops at fn's first error and returns
// it. A snapshot that does not exist streams nothing.
func (s *Store) StreamFindings(ctx context.Context, tenantID, auditID string, fn func(engine.Finding) error) (err error) {
	defer wrap(&err, "StreamFindings(%q, %q)", tenantID, auditID)
	ctx = s.scoped(ctx, tenantID, "", auditID)
	if tenantID == "" || auditID == "" {
		return engine.FieldErrorf("audit_id", "tenant and audit ids are required")
	}
	total, err := s.snapshotSize(ctx, tenantID, auditID)
	if err != nil {
		return err
	}
	if total == 0 {
		return nil
	}
	tctx, cancel := s.readCtx(ctx)
	texts, err := s.snapshotTexts(tctx, tenantID, auditID)
	cancel()
	if err != nil {
		return err
	}
	for _, c := range idChunks(engine.PrefixFinding, chunkCount(total)) {
		q := streamFindingsQuery{tenantID: tenantID, auditID: auditID, lo: c[0], hi: c[1]}
		if err := s.streamChunk(ctx, tenantID, auditID, q, texts, fn); err != nil {
			return err
		}
	}
	return nil
}

// streamChunk runs one chunk's query with its own deadline.
func (s *Store) streamChunk(ctx context.Context, tenantID, auditID string, q sqlQuery, texts map[uint64]findingText, fn func(engine.Finding) error) error {
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	text, args := q.toSQL()
	rows, err := s.conn.Query(ctx, text, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	row := newFindingRow()
	for rows.Next() {
		f, id, err := row.scan(rows, tenantID, auditID)
		if err != nil {
			return err
		}
		if err := applyText(&f, id, texts); err != nil {
			return err
		}
		if err := fn(f); err != nil {
			return fmt.Errorf("stream callback: %w", err)
		}
	}
	return rows.Err()
}

// snapshotSize is the number of findings of a snapshot, from its counts.
func (s *Store) snapshotSize(ctx context.Context, tenantID, auditID string) (uint64, error) {
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	var n uint64
	err := s.conn.QueryRow(ctx, "SELECT sum(n) FROM finding_counts WHERE tenant_id = ? AND audit_id = ?",
		tenantID, auditID).Scan(&n)
	return n, err
}

// streamResourcesQuery reads the latest observation of a tenant's
// resources in one id range, in id order.
type streamResourcesQuery struct {
	tenantID string
	lo, hi   string
}

// where selects the tenant and the id range (either bound empty: open).
func (q streamResourcesQuery) where() conds {
	var c conds
	c.add("tenant_id = ?", q.tenantID)
	if q.lo != "" {
		c.add("id >= ?", q.lo)
	}
	if q.hi != "" {
		c.add("id < ?", q.hi)
	}
	return c
}

func (q streamResourcesQuery) toSQL() (string, []any) {
	c := q.where()
	return "SELECT " + streamResourceColumns + " FROM resources WHERE " + c.sql() +
		" ORDER BY id, version DESC LIMIT 1 BY id", c.args
}

// StreamResources calls fn with the latest state of every resource of a
// tenant in id order (for the audit engine), reading in chunks so that
// neither side holds the inventory whole. It stops at fn's first error and
// returns it.
func (s *Store) StreamResources(ctx context.Context, tenantID string, fn func(engine.Resource) error) (err error) {
	defer wrap(&err, "StreamResources(%q)", tenantID)
	ctx = s.scoped(ctx, tenantID, "")
	if tenantID == "" {
		return engine.FieldErrorf("tenant_id", "tenant id is required")
	}
	var total uint64
	cctx, cancel := s.readCtx(ctx)
	err = s.conn.QueryRow(cctx, "SELECT count() FROM resources WHERE tenant_id = ?", tenantID).Scan(&total)
	cancel()
	if err != nil || total == 0 {
		return err
	}
	for _, c := range idChunks(engine.PrefixResource, chunkCount(total)) {
		if err := s.streamResourceChunk(ctx, streamResourcesQuery{tenantID: tenantID, lo: c[0], hi: c[1]}, fn); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) streamResourceChunk(ctx context.Context, q streamResourcesQuery, fn func(engine.Resource) error) error {
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	// Read before the chunk's rows are open (one query at a time).
	sg, err := s.readSightings(ctx, sightingsRangeQuery(q), nil)
	if err != nil {
		return err
	}
	text, args := q.toSQL()
	rows, err := s.conn.Query(ch.Context(ctx, ch.WithSettings(ch.Settings{"max_block_size": streamBlockRows})), text, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	row := newStreamedRow()
	for rows.Next() {
		r, err := row.scan(rows)
		if err != nil {
			return err
		}
		sg.apply(&r)
		if err := fn(r); err != nil {
			return fmt.Errorf("stream callback: %w", err)
		}
	}
	return rows.Err()
}
