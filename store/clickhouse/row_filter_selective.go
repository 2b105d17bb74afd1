package clickhouse

import (
	"context"
	"strconv"

	ch "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/fourd-dev/fourd/engine"
)

// Selective tag and q filters (issue 33 §3). Written as subqueries, the
// tag and q filters read the resource_id of every finding of the snapshot
// after the position, whatever few resources they match: at 10M findings
// that column alone is hundreds of megabytes a page. When a filter matches
// few resources, the store resolves them first and reads the matching
// findings' keys from the snapshot's resource index
// (snapshot_finding_index, ordered by resource hash), so that a page reads
// the granules of those resources only. A filter matching more than
// maxSelectiveResources keeps the subquery.

// maxSelectiveResources is the most resources a tag or q filter may match
// for the store to read their findings' keys from the resource index.
var maxSelectiveResources = 1000

// maxSelectiveTitles is the most texts whose title holds q that the store
// lists in a read instead of their subquery.
var maxSelectiveTitles = 10_000

// selectiveResources are the resources (ids) a snapshot read's tag and q
// filters matched, each nil when that filter is absent or matched too many
// to list; titles are the texts (text_id) whose title holds q, nil when
// not listed; compliance are the texts that hold the compliance filter,
// nil when absent or not listed. tagScope, set on a probe of a key range
// (row_filter_page.go) when tags is nil, is the range's conditions: the tag
// filter's candidates are then the range's under its tag probeTag (an index
// in TagPairs: rarestTag).
type selectiveResources struct {
	snapshot   uint64
	tags, q    []string
	titles     []uint64
	compliance []uint64
	tagScope   *conds
	probeTag   int
	// qWide, when q is nil, are q's resources all the same: more than
	// maxSelectiveResources (not read by key) but listed (resolveQ);
	// nil when q is listed or matched too many to list.
	qWide []string
	// keyed: the read is bounded to the keys of the listed resources'
	// findings (row_filter_keyed.go), so the listed tag and q resources
	// are conditions on resource_id, not on the resource index.
	keyed bool
}

// textsOf is the condition that keeps the findings of the titles: "" when
// none (q then matches by resource only, which the resource index can
// answer without reading every row's text_id).
func (s *selectiveResources) textsOf() (string, []any) {
	if len(s.titles) == 0 {
		return "", nil
	}
	return textsIn(s.titles)
}

// textsIn is the condition that keeps the findings of the texts ids: "0"
// when none.
func textsIn(texts []uint64) (string, []any) {
	if len(texts) == 0 {
		return "0", nil
	}
	ids := make([]any, len(texts))
	for i, t := range texts {
		ids[i] = t
	}
	return "text_id IN ?", []any{ch.GroupSet{Value: ids}}
}

// none reports whether the filters resolved match no finding: no text
// holds the compliance filter's control (the snapshot need not be read).
func (s *selectiveResources) none() bool {
	return s != nil && s.compliance != nil && len(s.compliance) == 0
}

// keysOf is the condition that keeps the findings of the resources ids:
// their keys from the resource index, and their resource id (a hash may
// be another resource's too).
func (s *selectiveResources) keysOf(ids []string) (string, []any) {
	if len(ids) == 0 {
		return "0", nil
	}
	hashes := make([]any, len(ids))
	for i, id := range ids {
		hashes[i] = resourceHash(id)
	}
	return "((sev_order, id) IN (SELECT sev_order, id FROM snapshot_finding_index WHERE snapshot = ? AND resource_hash IN ?) AND resource_id IN ?)",
		[]any{s.snapshot, ch.GroupSet{Value: hashes}, groupSet(ids)}
}

// resolveSelective resolves the tag and q filters of f to the resources
// they match when they match at most maxSelectiveResources, and the
// compliance filter to the texts holding it; nil when f has none of them
// or each matches too many to list.
func (s *Store) resolveSelective(ctx context.Context, tenantID string, f engine.FindingFilter) (*selectiveResources, error) {
	if f.Tags == "" && f.Q == "" && f.Compliance == "" {
		return nil, nil
	}
	sel := &selectiveResources{snapshot: snapshotKey(tenantID, f.AuditID)}
	var err error
	if f.Compliance != "" {
		sub, args := complianceTexts(tenantID, f)
		if sel.compliance, err = s.fewTexts(ctx, sub, args); err != nil {
			return nil, err
		}
	}
	if f.Tags != "" {
		few, cands, err := s.fewTagCandidates(ctx, tenantID, f)
		if err != nil {
			return nil, err
		}
		if few {
			if sel.tags, err = s.latestTagged(ctx, tenantID, f, cands); err != nil { // row_filter_prefetch.go
				return nil, err
			}
		} else if sel.probeTag, err = s.rarestTag(ctx, tenantID, f); err != nil {
			return nil, err
		}
	}
	if f.Q != "" {
		if sel.q, sel.qWide, sel.titles, err = s.resolveQ(ctx, tenantID, f); err != nil {
			return nil, err
		}
	}
	if sel.tags == nil && sel.q == nil && sel.qWide == nil && sel.titles == nil && sel.compliance == nil && sel.probeTag == 0 {
		return nil, nil
	}
	return sel, nil
}

// fewTagCandidates reports whether one of the tags of f has at most
// maxSelectiveResources candidates in resource_tags (a short read of
// its key range): only then can the filter match few resources, and the
// latest versions of its candidates are worth checking before the page
// (which checks them again when there are more). cands are that tag's
// candidates (every resource the filter matches is one), nil when not
// read (no tag index).
func (s *Store) fewTagCandidates(ctx context.Context, tenantID string, f engine.FindingFilter) (few bool, cands []string, _ error) {
	if !useTagIndex {
		return true, nil, nil
	}
	for _, t := range f.TagPairs() {
		ids, err := s.idsOf(ctx, "(SELECT DISTINCT id FROM resource_tags WHERE tenant = ? AND tag = ?)",
			[]any{tenantHash(tenantID), tagHash(t.Key, t.Value)}, maxSelectiveResources)
		if err != nil {
			return false, nil, err
		}
		if ids != nil {
			return true, ids, nil
		}
	}
	return false, nil, nil
}

// rarestTag is the index in f.TagPairs() of the tag with the fewest rows
// in resource_tags (a count over the tags' key ranges, which reads no id):
// a probe of a dense tag filter takes its candidates from it alone
// (tagMatchingIn), not from a set of every tag's (env=prod on a third of
// 1M resources cost a probe ~0.3 s of CPU to build).
func (s *Store) rarestTag(ctx context.Context, tenantID string, f engine.FindingFilter) (int, error) {
	tags := f.TagPairs()
	if len(tags) < 2 {
		return 0, nil
	}
	hashes := make([]any, len(tags))
	for i, t := range tags {
		hashes[i] = tagHash(t.Key, t.Value)
	}
	counts := map[uint64]uint64{}
	err := s.each(ctx, rawQuery{sql: "SELECT tag, count() FROM resource_tags WHERE tenant = ? AND tag IN ? GROUP BY tag",
		args: []any{tenantHash(tenantID), ch.GroupSet{Value: hashes}}}, func(sc scanner) error {
		var tag, n uint64
		err := sc.Scan(&tag, &n)
		counts[tag] = n
		return err
	})
	best := 0
	for i := range tags {
		if counts[hashes[i].(uint64)] < counts[hashes[best].(uint64)] {
			best = i
		}
	}
	return best, err
}

// fewTexts runs a text_id query over finding_texts: its distinct ids,
// never nil, or nil when there are more than maxSelectiveTitles.
func (s *Store) fewTexts(ctx context.Context, sub string, args []any) ([]uint64, error) {
	out := []uint64{}
	err := s.each(ctx, rawQuery{sql: "SELECT DISTINCT text_id FROM (" + sub + ") LIMIT " +
		strconv.Itoa(maxSelectiveTitles+1), args: args}, func(sc scanner) error {
		var id uint64
		err := sc.Scan(&id)
		out = append(out, id)
		return err
	})
	if err != nil || len(out) > maxSelectiveTitles {
		return nil, err
	}
	return out, nil
}

// fewIDs runs an id subquery with a limit of one more than
// maxSelectiveResources: its ids, never nil, or nil when there are more.
func (s *Store) fewIDs(ctx context.Context, sub string, args []any) ([]string, error) {
	return s.idsOf(ctx, sub, args, maxSelectiveResources)
}

// idsOf runs an id subquery with a limit of one more than limit: its ids,
// never nil, or nil when there are more.
func (s *Store) idsOf(ctx context.Context, sub string, args []any, limit int) ([]string, error) {
	ids := []string{}
	err := s.each(ctx, rawQuery{sql: "SELECT id FROM " + sub + " LIMIT " + strconv.Itoa(limit+1), args: args}, func(sc scanner) error {
		var id string
		err := sc.Scan(&id)
		ids = append(ids, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(ids) > limit {
		return nil, nil
	}
	return ids, nil
}
