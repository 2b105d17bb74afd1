package clickhouse

import (
	"context"
	"slices"
	"sort"
	"strconv"
	"sync/atomic"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/ext"

	"github.com/fourd-dev/fourd/engine"
)

// The rows of a selective filter (issue 33 §3). Read by key, a finding
// costs a granule in every part of its snapshot (finding ids are uniform
// hashes, so a resource's findings lie all over it): at 10M, a page of 60
// of an owner tag's 1,000 findings read ~320 granules (~80 ms of
// ClickHouse CPU under load), its count ~3,700 (~0.4 s), whatever the
// memo kept of the filter. Once the filter's keys are known for a complete
// snapshot (immutable), the memo also keeps every row of those keys as
// read (maxMemoRows at most), fetched once in the background after the
// first page by key; the next pages and the counts then read no granule
// of the snapshot: the rows after the position go to ClickHouse as an
// external table (memoRowsTable), on which the same conditions as on the
// snapshot (the other filters, people's decisions, the mutes' subqueries)
// pick the page's keys or count, and the page's rows come from the memo.

// maxMemoRows is the most rows of one filter the memo keeps; maxMemoFills
// the most reads of them under way at once (more are not started);
// memoFillTimeout bounds one.
const (
	maxMemoRows     = 10_000
	maxMemoFills    = 2
	memoFillTimeout = 30 * time.Second
)

// useMemoRows is whether the memo keeps a selective filter's rows; tests
// turn it off to compare with the reads by key.
var useMemoRows = true

// memoRowFills counts the rows the memo read and kept, and memoRowReads
// the pages and counts it answered, for tests.
var memoRowFills, memoRowReads atomic.Int64

// memoRowsTable names the external table of withMemoRowsTable.
const memoRowsTable = "memo_rows"

// memoRowsIn is the condition that a row's key is one of the external
// table's (a bound of the mutes' subqueries on the rows read).
const memoRowsIn = "(sev_order, id) IN (SELECT sev_order, id FROM " + memoRowsTable + ")"

// memoRow is one finding of a memoRows: its key, the finding as read (no
// text: fillTexts) and its text id.
type memoRow struct {
	key    findingKey
	f      engine.Finding
	textID uint64
}

// memoRows are the rows of every finding of a selective filter's
// resources in one snapshot, in list order.
type memoRows struct {
	snapshot uint64
	rows     []memoRow
}

// costKB is the rows' approximate size in KiB (the memo's LRU cost).
func (m *memoRows) costKB() int {
	n := 0
	for i := range m.rows {
		f := &m.rows[i].f
		n += 320 + len(f.ID) + len(f.ResourceID) + len(f.RuleID) + len(f.ResourceType) + len(f.Account) + len(f.Region) +
			len(f.Title) + len(f.Description) + len(f.Remediation) + len(f.Evidence)
		for _, c := range f.Compliance {
			n += 16 + len(c)
		}
	}
	return 1 + n>>10
}

// after returns the rows after the position after (nil: from the start),
// of severity sev when set (as keysAfter).
func (m *memoRows) after(sev engine.Severity, after *engine.FindingKey) []memoRow {
	rows := m.rows
	if after != nil {
		o, id := sevOrder(engine.SeverityFromRank(after.SeverityRank)), idRangeKey(after.ID)
		rows = rows[sort.Search(len(rows), func(i int) bool {
			k := rows[i].key
			return k.sevOrder > o || (k.sevOrder == o && k.id > id)
		}):]
	}
	if sev == "" {
		return rows
	}
	o := sevOrder(sev)
	lo := sort.Search(len(rows), func(i int) bool { return rows[i].key.sevOrder >= o })
	hi := sort.Search(len(rows), func(i int) bool { return rows[i].key.sevOrder > o })
	return rows[lo:hi]
}

// memoRowsOf returns the kept rows under key, nil when there are none.
// A read of them under way is not awaited: at 10M it costs ~0.75 s of
// ClickHouse CPU (0.7–1.5 s of wall time under load) against ~0.3 s for
// a count by key, so a count asked meanwhile (with a listing's first
// page, say) counts by key.
func (s *Store) memoRowsOf(key memoKey) *memoRows {
	if !useFilterMemo || !useMemoRows {
		return nil
	}
	if r, ok := s.memo.rows.Get(key); ok {
		return r
	}
	return nil
}

// memoFillHook, when set (tests), runs in a read of rows before it
// queries.
var memoFillHook func()

// startRowFill reads, in the background, the rows of keys (every finding
// of resources ids in the complete snapshot of f) into the memo under
// key, unless they are too many, being read already, or maxMemoFills
// reads are under way. The read keeps ctx's values (the tenant's shard,
// settings), not its deadline.
func (s *Store) startRowFill(ctx context.Context, key memoKey, tenantID string, f engine.FindingFilter, ids []string, keys []findingKey) {
	if !useFilterMemo || !useMemoRows || len(keys) == 0 || len(keys) > maxMemoRows {
		return
	}
	m := s.memo
	m.mu.Lock()
	if _, ok := m.fills[key]; ok || len(m.fills) >= maxMemoFills {
		m.mu.Unlock()
		return
	}
	if _, ok := m.rows.Get(key); ok {
		m.mu.Unlock()
		return
	}
	done := make(chan struct{})
	m.fills[key] = done
	m.mu.Unlock()
	purges := m.purges.Load()
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), memoFillTimeout)
	go func() {
		defer func() {
			cancel()
			m.mu.Lock()
			delete(m.fills, key)
			m.mu.Unlock()
			close(done)
		}()
		if memoFillHook != nil {
			memoFillHook()
		}
		r, err := s.readMemoRows(fctx, tenantID, f.AuditID, ids, keys)
		if err != nil {
			s.log.Debug("filter memo: rows not kept", "tenant", tenantID, "audit", f.AuditID, "err", err)
			return
		}
		m.mu.Lock()
		if m.purges.Load() == purges { // no snapshot dropped meanwhile
			m.rows.Put(key, r)
			memoRowFills.Add(1)
		}
		m.mu.Unlock()
	}()
}

// readMemoRows reads the rows of keys of the snapshot of tenantID and
// auditID that are findings of resources ids (a key of the resource index
// may be another resource's: a shared hash).
func (s *Store) readMemoRows(ctx context.Context, tenantID, auditID string, ids []string, keys []findingKey) (*memoRows, error) {
	ctx, err := withKeysTable(ctx, keys)
	if err != nil {
		return nil, err
	}
	var c conds
	addSnapshot(&c, tenantID, auditID)
	expr, args := resourcesIn(ids)
	c.add(expr, args...)
	rows, err := s.conn.Query(ctx, "SELECT "+findingColumns+" FROM snapshot_findings PREWHERE "+keyedInTable+
		" WHERE "+c.sql()+" ORDER BY sev_order, id", c.args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := &memoRows{snapshot: snapshotKey(tenantID, auditID), rows: make([]memoRow, 0, len(keys))}
	row := newFindingRow()
	for rows.Next() {
		f, textID, err := row.scan(rows, tenantID, auditID)
		if err != nil {
			return nil, err
		}
		out.rows = append(out.rows, memoRow{key: findingKey{sevOrder: row.sevOrd, id: row.id}, f: f, textID: textID})
	}
	return out, rows.Err()
}

// withMemoRowsTable returns ctx with rows as its external table
// memoRowsTable: the snapshot_findings columns that the filters, the
// status under decisions and mutes and the count groups read.
func withMemoRowsTable(ctx context.Context, snapshot uint64, rows []memoRow) (context.Context, error) {
	t, err := ext.NewTable(memoRowsTable, ext.Column("snapshot", "UInt64"), ext.Column("sev_order", "UInt8"),
		ext.Column("id", "FixedString(16)"), ext.Column("severity", "String"), ext.Column("dimension", "String"),
		ext.Column("status", "String"), ext.Column("resolution", "String"), ext.Column("resource_id", "String"),
		ext.Column("rule_id", "String"), ext.Column("resource_type", "String"), ext.Column("account", "String"),
		ext.Column("region", "String"), ext.Column("first_seen_at", "DateTime('UTC')"), ext.Column("text_id", "UInt64"))
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		// A row of no snapshot (0): matches nothing, keeps one query shape.
		rows, snapshot = []memoRow{{key: findingKey{sevOrder: 255}}}, 0
	}
	for i := range rows {
		r := &rows[i]
		first := r.f.FirstSeenAt
		if first.IsZero() {
			first = minTime
		}
		if err := t.Append(snapshot, r.key.sevOrder, r.key.id, string(r.f.Severity), string(r.f.Dimension), string(r.f.Status),
			string(r.f.Resolution), r.f.ResourceID, r.f.RuleID, r.f.ResourceType, r.f.Account, r.f.Region, first, r.textID); err != nil {
			return nil, err
		}
	}
	return ch.Context(ctx, ch.WithExternalTable(t)), nil
}

// memoPageQuery picks the keys of a page among a memo's rows (the
// external table): the conditions of byKeysPageQuery on them.
type memoPageQuery struct {
	tenantID, auditID string
	filter            engine.FindingFilter
	forced            forced
	onlyIDs           []string
	limit             int
	sel               *selectiveResources
}

func (q memoPageQuery) toSQL() (string, []any) {
	var c, bounds conds
	addSnapshot(&c, q.tenantID, q.auditID)
	addSnapshot(&bounds, q.tenantID, q.auditID)
	bounds.add(memoRowsIn)
	addRowFilter(&c, q.tenantID, q.filter, q.onlyIDs, q.sel)
	addPageFilter(&c, q.filter, q.forced, bounds)
	return "SELECT sev_order, id FROM " + memoRowsTable + " WHERE " + c.sql() +
		" ORDER BY sev_order, id LIMIT " + strconv.Itoa(q.limit), c.args
}

// listMemoRows appends up to q.Limit findings of q from the memo's rows m
// of its selective filter (sel, listed).
func (s *Store) listMemoRows(ctx context.Context, q engine.FindingQuery, sel *selectiveResources, m *memoRows, out []engine.Finding) ([]engine.Finding, error) {
	rows := m.after(q.Filter.Severity, q.After)
	if len(rows) == 0 {
		return out, nil
	}
	memoRowReads.Add(1)
	tctx, err := withMemoRowsTable(ctx, m.snapshot, rows)
	if err != nil {
		return nil, err
	}
	text, args := memoPageQuery{tenantID: q.TenantID, auditID: q.Filter.AuditID, filter: q.Filter, forced: forcedOf(q),
		onlyIDs: q.OnlyIDs, limit: q.Limit - len(out), sel: sel.byKey()}.toSQL()
	keep := map[findingKey]bool{}
	err = s.each(tctx, rawQuery{sql: text, args: args}, func(sc scanner) error {
		var k findingKey
		err := sc.Scan(&k.sevOrder, &k.id)
		keep[k] = true
		return err
	})
	if err != nil {
		return nil, err
	}
	start := len(out)
	var texts []uint64
	for i := range rows {
		if !keep[rows[i].key] {
			continue
		}
		f := rows[i].f
		f.Evidence, f.Compliance = slices.Clone(f.Evidence), slices.Clone(f.Compliance)
		if q.OmitEvidence {
			f.Evidence = nil
		}
		out, texts = append(out, f), append(texts, rows[i].textID)
	}
	if len(texts) > 0 {
		if err := s.fillTexts(ctx, q.TenantID, out[start:], texts); err != nil {
			return nil, err
		}
	}
	return out, nil
}
