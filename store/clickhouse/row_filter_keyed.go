package clickhouse

import (
	"context"
	"sort"
	"sync/atomic"

	ch "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/fourd-dev/fourd/engine"
)

// Reads by key under a selective tag or q filter (issue 33 §3). A
// finding's key (sev_order, id) is a uniform hash, so the findings of a
// hundred resources lie in a thousand different granules of their
// snapshot: a page that keeps them by an IN subquery over the resource
// index (keysOf) reads every one of those granules, and every later row's
// narrow columns before its LIMIT (3.7M rows for 111 resources at 10M).
// When the filters' resources are listed (resolveSelective), a page reads
// their keys from the resource index in list order, then the rows of the
// first few keys only (point ranges of the primary key, as the resource
// filter does: listByResource), and a count the rows of all their keys.

// maxKeyedCountKeys is the most finding keys a count under a selective
// filter reads from the resource index to count by key; past it the count
// reads the rows as before (a thousand resources have a few thousand).
var maxKeyedCountKeys = 50_000

// useKeyedReads is whether pages and counts under a selective tag or q
// filter read by key; tests turn it off to compare with the reads before.
var useKeyedReads = true

// rowFilterKeyedReads counts the key reads of pages by key, for tests.
var rowFilterKeyedReads atomic.Int64

// keyedChunk is the most keys one query of a page by key names (a literal
// of ~40 bytes a key).
const keyedChunk = 1000

// keyedResources returns the resources whose findings hold every finding
// the tag and q filters of f may keep, as resolveSelective listed them: the
// tag's, and q's when q holds no title (its matches are then its
// resources' findings only), intersected. Nil when they cannot bound the
// read: neither filter listed, or q also matching titles with no tag.
func (s *selectiveResources) keyedResources(f engine.FindingFilter) []string {
	if s == nil {
		return nil
	}
	var ids []string
	if f.Tags != "" && s.tags != nil {
		ids = s.tags
	}
	if f.Q != "" && s.q != nil && s.titles != nil && len(s.titles) == 0 {
		if ids == nil {
			ids = s.q
		} else {
			ids = intersectIDs(ids, s.q)
		}
	}
	return ids
}

// intersectIDs returns the ids in both a and b (never nil).
func intersectIDs(a, b []string) []string {
	in := make(map[string]bool, len(b))
	for _, id := range b {
		in[id] = true
	}
	out := []string{}
	for _, id := range a {
		if in[id] {
			out = append(out, id)
		}
	}
	return out
}

// byKey returns a copy of s whose tag and q filters are conditions on
// resource_id (addRowFilter), for a read already bounded to their
// resources' keys.
func (s *selectiveResources) byKey() *selectiveResources {
	c := *s
	c.keyed = true
	return &c
}

// listKeyed appends up to q.Limit findings of q, whose tag and q filters
// keep only findings of resources ids (keyedResources): the keys of their
// findings (keyedKeys: every one, from the memo or one read of the
// resource index; as cheap to read as the first few, which the server
// finds only by sorting them all) after the position, then the rows of
// those keys, the page's worth and a quarter more first (every key costs
// a granule in each part of the snapshot), then a chunk at a time while
// the other filters leave the page short. With more keys than the memo
// keeps, the keys are read after the position a chunk at a time.
func (s *Store) listKeyed(ctx context.Context, q engine.FindingQuery, sel *selectiveResources, ids []string, out []engine.Finding) ([]engine.Finding, error) {
	if len(ids) == 0 {
		return out, nil
	}
	key := memoKeyOf(q.TenantID, q.Filter)
	if m := s.memoRowsOf(key); m != nil {
		return s.listMemoRows(ctx, q, sel, m, out)
	}
	sel = sel.byKey()
	keysCtx := ch.Context(ctx, ch.WithSettings(keyReadSettings()))
	all, kept, err := s.keyedKeys(keysCtx, q.TenantID, q.Filter, ids)
	if err != nil {
		return nil, err
	}
	if kept {
		// The next pages and the counts read the rows from the memo once
		// read: after this page's own read, which they would slow.
		defer s.startRowFill(keysCtx, key, q.TenantID, q.Filter, ids, all)
	}
	want := q.Limit - len(out)
	if !keysAlone(q, sel) {
		want = want*5/4 + 8 // the other conditions may drop some
	}
	read := func(keys []findingKey) (full bool, err error) {
		for len(keys) > 0 {
			n := min(len(keys), want, keyedChunk)
			if out, err = s.queryFindings(ctx, q.TenantID, q.Filter.AuditID, byKeysPageQuery{tenantID: q.TenantID,
				auditID: q.Filter.AuditID, filter: q.Filter, forced: forcedOf(q), onlyIDs: q.OnlyIDs, keys: keys[:n],
				limit: q.Limit - len(out), columns: pageColumns(q), sel: sel}, out); err != nil {
				return false, err
			}
			if len(out) == q.Limit {
				return true, nil
			}
			keys, want = keys[n:], keyedChunk
		}
		return false, nil
	}
	if all != nil {
		_, err := read(keysAfter(all, q.Filter.Severity, q.After))
		return out, err
	}
	after := q.After
	for {
		keys, err := s.resourceKeys(keysCtx, resourceKeysQuery{tenantID: q.TenantID, auditID: q.Filter.AuditID,
			resourceIDs: ids, severity: q.Filter.Severity, after: after, limit: maxKeyedCountKeys})
		if err != nil || len(keys) == 0 {
			return out, err
		}
		rowFilterKeyedReads.Add(1)
		if full, err := read(keys); err != nil || full || len(keys) < maxKeyedCountKeys {
			return out, err
		}
		last := keys[len(keys)-1]
		id, err := findingIDText(last.id)
		if err != nil {
			return nil, err
		}
		after = &engine.FindingKey{SeverityRank: severityOfOrder(int(last.sevOrder)).Rank(), ID: id}
	}
}

// keyReadSettings are the settings of a read of keys from the resource
// index, bounded by the resources (tests' rowFilterReadLimit is on the
// snapshot's rows).
func keyReadSettings() ch.Settings {
	if logRowFilterQueries {
		return ch.Settings{"max_query_size": idListSettings["max_query_size"], "log_queries": 1}
	}
	return idListSettings
}

// keysAlone reports whether every finding of the keys of q's selective
// filter (sel, keyedResources) is one q keeps: no other condition, and the
// q filter, if any, holds no title (its resources are then among those
// listed). A page by key then reads the rows of as many keys as it needs
// first (a granule each in every part of the snapshot), not a quarter
// more; a key of another resource (a shared hash) only makes it read on.
func keysAlone(q engine.FindingQuery, sel *selectiveResources) bool {
	f := q.Filter
	return f.Dimension == "" && f.Status == "" && f.RuleID == "" && f.ResourceType == "" && f.Account == "" && f.Region == "" &&
		f.ResourceID == "" && f.FirstSeenAfter.IsZero() && f.FirstSeenBefore.IsZero() && f.Compliance == "" && f.Assignee == "" && q.OnlyIDs == nil &&
		(f.Q == "" || (sel.q != nil && sel.titles != nil && len(sel.titles) == 0))
}

// keysAfter returns the keys of keys (in list order) after the position
// after (nil: from the start), of severity sev when set.
func keysAfter(keys []findingKey, sev engine.Severity, after *engine.FindingKey) []findingKey {
	if after != nil {
		o, id := sevOrder(engine.SeverityFromRank(after.SeverityRank)), idRangeKey(after.ID)
		keys = keys[sort.Search(len(keys), func(i int) bool {
			k := keys[i]
			return k.sevOrder > o || (k.sevOrder == o && k.id > id)
		}):]
	}
	if sev == "" {
		return keys
	}
	o := sevOrder(sev)
	lo := sort.Search(len(keys), func(i int) bool { return keys[i].sevOrder >= o })
	hi := sort.Search(len(keys), func(i int) bool { return keys[i].sevOrder > o })
	return keys[lo:hi]
}

// keyedCountKeys returns the keys of every finding of resources ids in the
// snapshot of f (of its severity, when set), for a count by key; nil
// when there are more than maxKeyedCountKeys. kept says the memo keeps
// them (a complete snapshot: keyedKeys).
func (s *Store) keyedCountKeys(ctx context.Context, tenantID string, f engine.FindingFilter, ids []string) (_ []findingKey, kept bool, _ error) {
	keys, kept, err := s.keyedKeys(ctx, tenantID, f, ids)
	if err != nil || keys == nil {
		return nil, false, err
	}
	return keysAfter(keys, f.Severity, nil), kept, nil
}

// withKeyedCount returns ctx with the keys of a count by key as its
// external table (withKeysTable): written into the SQL, a few thousand
// keys cost the server more to parse than the count.
func withKeyedCount(ctx context.Context, keys []findingKey) (context.Context, error) {
	if len(keys) == 0 {
		keys = []findingKey{{sevOrder: 255}} // matches nothing, keeps one query shape
	}
	return withKeysTable(ctx, keys)
}

// keyedInTable is the condition of a count by key on its keys.
const keyedInTable = "(sev_order, id) IN (SELECT sev_order, id FROM " + keysTableName + ")"

// resourcesIn is the condition that a row is a finding of the resources
// ids: "0" when none.
func resourcesIn(ids []string) (string, []any) {
	if len(ids) == 0 {
		return "0", nil
	}
	return "resource_id IN ?", []any{groupSet(ids)}
}
