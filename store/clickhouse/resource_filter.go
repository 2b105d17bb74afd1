package clickhouse

import (
	"context"
	"slices"
	"strconv"

	ch "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/fourd-dev/fourd/engine"
)

// findingKey is a finding's position in its snapshot's order key.
type findingKey struct {
	sevOrder uint8
	id       string // stored (idkey.go)
}

// maxResourceKeys bounds the keys read for one resource filter; past it
// the filter falls back to a scan. (A resource has one finding per rule
// that fires on it: tens, not thousands.)
const maxResourceKeys = 20_000

// usePrewhereHashes is whether the keys query reads the resource hashes
// as a PREWHERE; tests turn it off to compare with the read before.
var usePrewhereHashes = true

// resourceKeysQuery reads the keys of a resource's findings in a snapshot
// (or of several resources': resourceIDs), after a position, in list
// order, of one severity when severity is set.
type resourceKeysQuery struct {
	tenantID, auditID, resourceID string
	resourceIDs                   []string
	severity                      engine.Severity
	after                         *engine.FindingKey
	limit                         int
}

// The keys are in snapshot_finding_index by snapshot key and resource
// hash (also those of snapshots written before it: migration 0013). A hash
// shared by two resources or a key shared by two snapshots brings others'
// keys too, which the findings query drops by its resource_id filter.
//
// The hashes are a PREWHERE (issue 33 §3): the key selects a hash's
// granule in every part of the snapshot, and only the part that holds the
// resource's findings (one, when they came in one run) needs the other
// columns read. Of the keys of 100 resources in the six parts of a
// 10M-finding snapshot, 555 granules, the columns of ~100 are read: 4.4
// MB instead of 18, ~10 % less CPU (each granule read decompresses a
// 64 KiB block per column).
func (q resourceKeysQuery) toSQL() (string, []any) {
	var c, pre conds
	c.add("snapshot = ?", snapshotKey(q.tenantID, q.auditID))
	if q.resourceIDs == nil {
		pre.add("resource_hash = ?", resourceHash(q.resourceID))
	} else {
		hashes := make([]any, len(q.resourceIDs))
		for i, id := range q.resourceIDs {
			hashes[i] = resourceHash(id)
		}
		pre.add("resource_hash IN ?", ch.GroupSet{Value: hashes})
	}
	if q.severity != "" {
		c.add("sev_order = ?", sevOrder(q.severity))
	}
	if q.after != nil {
		o := uint8(numBuckets - q.after.SeverityRank)
		c.add("(sev_order > ? OR (sev_order = ? AND id > ?))", o, o, idRangeKey(q.after.ID))
	}
	if !usePrewhereHashes {
		c.exprs, c.args = append(c.exprs, pre.exprs...), append(c.args, pre.args...)
		return "SELECT sev_order, id FROM snapshot_finding_index WHERE " + c.sql() +
			" ORDER BY sev_order, id LIMIT " + strconv.Itoa(q.limit), c.args
	}
	return "SELECT sev_order, id FROM snapshot_finding_index PREWHERE " + pre.sql() + " WHERE " + c.sql() +
		" ORDER BY sev_order, id LIMIT " + strconv.Itoa(q.limit), append(pre.args, c.args...)
}

// keysGroupSet renders keys as an IN list of (sev_order, id) tuples.
func keysGroupSet(keys []findingKey) ch.GroupSet {
	v := make([]any, len(keys))
	for i, k := range keys {
		v[i] = ch.GroupSet{Value: []any{k.sevOrder, k.id}}
	}
	return ch.GroupSet{Value: v}
}

// byKeysPageQuery reads the findings with the given keys that match the
// rest of the filter, in list order: point ranges of the primary key. sel,
// when not nil, is the tag and q filters' resources the keys were read for
// (keyedRead): those filters are then conditions on resource_id.
type byKeysPageQuery struct {
	tenantID, auditID string
	filter            engine.FindingFilter
	forced            forced
	onlyIDs           []string
	keys              []findingKey
	limit             int
	columns           string // selectColumns
	sel               *selectiveResources
}

func (q byKeysPageQuery) toSQL() (string, []any) {
	// The keys as PREWHERE: a key's point range is a granule in each part
	// of the snapshot, and those of the parts without it need none of the
	// other (wide) columns read.
	var c, pre conds
	addSnapshot(&c, q.tenantID, q.auditID)
	pre.add("(sev_order, id) IN ?", keysGroupSet(q.keys))
	bounds := conds{exprs: append(slices.Clone(c.exprs), pre.exprs...), args: append(slices.Clone(c.args), pre.args...)}
	if q.filter.ResourceID != "" {
		c.add("resource_id = ?", q.filter.ResourceID) // the keys may hold another's (resourceKeysQuery)
	}
	addRowFilter(&c, q.tenantID, q.filter, q.onlyIDs, q.sel)
	addPageFilter(&c, q.filter, q.forced, bounds)
	return "SELECT " + selectColumns(q.columns) + " FROM snapshot_findings PREWHERE " + pre.sql() + " WHERE " + c.sql() +
		" ORDER BY sev_order, id LIMIT " + strconv.Itoa(q.limit), append(pre.args, c.args...)
}

// resourceKeys returns up to limit keys of a resource's findings after a
// position, in list order.
func (s *Store) resourceKeys(ctx context.Context, q resourceKeysQuery) ([]findingKey, error) {
	text, args := q.toSQL()
	rows, err := s.conn.Query(ctx, text, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []findingKey
	for rows.Next() {
		var k findingKey
		if err := rows.Scan(&k.sevOrder, &k.id); err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// listByResource pages the findings of one resource: its keys from
// the resource index, then the findings by key, a chunk of keys at a time
// until the page is full.
func (s *Store) listByResource(ctx context.Context, q engine.FindingQuery, out []engine.Finding) ([]engine.Finding, error) {
	const chunk = 1000
	after := q.After
	ctx = ch.Context(ctx, ch.WithSettings(idListSettings))
	for len(out) < q.Limit {
		keys, err := s.resourceKeys(ctx, resourceKeysQuery{tenantID: q.TenantID, auditID: q.Filter.AuditID,
			resourceID: q.Filter.ResourceID, after: after, limit: chunk})
		if err != nil || len(keys) == 0 {
			return out, err
		}
		if out, err = s.queryFindings(ctx, q.TenantID, q.Filter.AuditID, byKeysPageQuery{tenantID: q.TenantID, auditID: q.Filter.AuditID,
			filter: q.Filter, forced: forcedOf(q), onlyIDs: q.OnlyIDs, keys: keys, limit: q.Limit - len(out), columns: pageColumns(q)}, out); err != nil {
			return nil, err
		}
		if len(keys) < chunk {
			return out, nil
		}
		last := keys[len(keys)-1]
		id, err := findingIDText(last.id)
		if err != nil {
			return nil, err
		}
		after = &engine.FindingKey{SeverityRank: severityOfOrder(int(last.sevOrder)).Rank(), ID: id}
	}
	return out, nil
}

// countByResource counts the findings of one resource: from its keys, or
// by a scan (ok false) when it has more than maxResourceKeys.
func (s *Store) countByResource(ctx context.Context, q countQuery) (_ []countGroup, ok bool, err error) {
	keys, err := s.resourceKeys(ctx, resourceKeysQuery{tenantID: q.tenantID, auditID: q.auditID,
		resourceID: q.filter.ResourceID, limit: maxResourceKeys + 1})
	if err != nil || len(keys) > maxResourceKeys {
		return nil, false, err
	}
	if len(keys) == 0 {
		keys = []findingKey{{sevOrder: 255}} // matches nothing, keeps one query shape
	}
	q.keys = slices.Clip(keys)
	groups, err := s.countGroups(ch.Context(ctx, ch.WithSettings(idListSettings)), q)
	return groups, true, err
}
