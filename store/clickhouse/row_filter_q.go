package clickhouse

import (
	"context"
	"slices"
	"strconv"

	"github.com/fourd-dev/fourd/engine"
)

// Resolving the q filter (issue 33 §3). q is case-insensitive text over a
// finding's title and its resource's name and native id. A q with a
// window (resource_tokens.go) reads its candidates from the q index and
// scans only the parts of resources the index does not cover yet; any
// other q scans the tenant's resources. As one query (latestMatching: the
// latest versions of the ids of which any version holds q, the scan an IN
// subquery), the scan cost q=lg-eip-4242 at 10M (1M resources) 0.6–0.7 s
// of ClickHouse CPU on 18.16, of which the scan alone was 0.17–0.34 s and
// the latest versions of its 11 candidates, named in a literal list, 8–15
// ms. So q is resolved in two round trips: one query gives the candidates
// (and, in the same query, the texts whose title holds q), then only the
// candidates' versions are read (the primary key (tenant_id, id) skips
// every other granule) to keep those whose latest version holds q. A q
// matching more resources than the store reads by key, but whose
// candidates were few enough to list, keeps its resources' list
// (selectiveResources.qWide): its pages and counts then test resource_id
// against it instead of running the one query as a subquery
// (q=aws_eip/lg-42 at 10M, ~1,100 resources: that subquery was half of a
// page's 1.1 s of CPU).

// qCandidateFactor bounds the candidates read by the scan: at most
// qCandidateFactor×maxSelectiveResources ids (older versions may hold q
// where the latest does not); with more, q is resolved by the one query
// above.
const qCandidateFactor = 4

// qCondition is the condition on a resource version that its name or
// native id holds q, case-insensitively, and its arguments.
func qCondition(q string) (string, []any) {
	return "positionCaseInsensitiveUTF8(name, ?) > 0 OR positionCaseInsensitiveUTF8(native_id, ?) > 0", []any{q, q}
}

// qTitles is the query of the tenant's texts (text_id) whose title holds
// q, and its arguments.
func qTitles(tenantID, q string) (string, []any) {
	return "SELECT text_id FROM finding_texts WHERE tenant_id = ? AND positionCaseInsensitiveUTF8(title, ?) > 0", []any{tenantID, q}
}

// resolveQ resolves the q filter of f: the resources whose latest version's
// name or native id holds it (never nil; nil when more than
// maxSelectiveResources), or else, when it has at most
// qCandidateFactor×maxSelectiveResources candidates, those resources as
// wide (nil otherwise); and the texts whose title holds it (never nil; nil
// when more than maxSelectiveTitles). The candidates come from the q index
// (resource_tokens.go) and a scan of the parts it does not cover when q
// has windows, from a scan of every part otherwise.
func (s *Store) resolveQ(ctx context.Context, tenantID string, f engine.FindingFilter) (resources, wide []string, titles []uint64, err error) {
	cond, condArgs := qCondition(f.Q)
	candLimit := qCandidateFactor * maxSelectiveResources
	var wins []qWindow
	if useQIndex && !s.clustered() {
		wins = qWindows(f.Q)
	}
	cands, titles, indexed, err := s.qCandidates(ctx, tenantID, f.Q, wins, candLimit)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(wins) > 0 && !indexed {
		// Every window has too many candidates: the scan of every part.
		cands, titles, _, err = s.qCandidates(ctx, tenantID, f.Q, nil, candLimit)
		if err != nil {
			return nil, nil, nil, err
		}
	}
	if len(titles) > maxSelectiveTitles {
		titles = nil
	}
	switch {
	case len(cands) == 0:
		return []string{}, nil, titles, nil
	case len(cands) > candLimit:
		// Too many versions hold q to name them: the one query.
		sub, subArgs := qMatching(tenantID, f)
		resources, err = s.fewIDs(ctx, sub, subArgs)
		return resources, nil, titles, err
	}
	// The candidates' latest versions: at most len(cands) ids.
	sub, subArgs := latestAmong(tenantID, "id IN ?", []any{groupSet(cands)}, cond, condArgs)
	if resources, err = s.idsOf(ctx, sub, subArgs, len(cands)); err != nil {
		return nil, nil, nil, err
	}
	if len(resources) > maxSelectiveResources {
		// Too many to read by key, few enough to name: the rows'
		// resource_id against the list, not the one query's subquery
		// (addRowFilter).
		return nil, resources, titles, nil
	}
	return resources, nil, titles, nil
}

// qCandidates reads, in one query, the ids of which some version may hold
// q (more than candLimit when too many) and the texts whose title holds it
// (more than maxSelectiveTitles when too many). Without windows, the ids
// are those of the versions holding q in a scan of the tenant's resources.
// With them, the scan reads only the parts past the tenant's q index, and
// the index gives the ids found in each of q's windows (those with at most
// maxQCandidates), unless every window has more than maxQCandidates (indexed false: the caller scans
// every part instead). A tenant not indexed yet is scanned whole and
// starts a build (resource_tokens.go); an indexed one starts one at most
// every qIndexRebuildEvery for what was written since.
func (s *Store) qCandidates(ctx context.Context, tenantID, q string, wins []qWindow, candLimit int) (cands []string, titles []uint64, indexed bool, err error) {
	cond, condArgs := qCondition(q)
	titleSQL, titleArgs := qTitles(tenantID, q)
	scope, scopeArgs := "", []any{}
	if len(wins) > 0 {
		scope, scopeArgs = " AND "+partMaxBlock+" > "+qIndexUpto, []any{tenantID}
	}
	// One query, all scans (the server runs the sides in parallel): kind 1
	// rows are candidate resources, kind 2 texts, kind 3+k the index's ids
	// of window k, kind 0 whether the tenant was indexed.
	sql := "SELECT toUInt8(1) AS kind, id AS resource, toUInt64(0) AS text FROM (SELECT DISTINCT id FROM resources WHERE tenant_id = ?" + scope + " AND (" +
		cond + ") LIMIT " + strconv.Itoa(candLimit+1) + ") UNION ALL SELECT toUInt8(2) AS kind, '' AS resource, text_id AS text FROM (SELECT DISTINCT text_id FROM (" +
		titleSQL + ") LIMIT " + strconv.Itoa(maxSelectiveTitles+1) + ")"
	args := append(append(append([]any{tenantID}, scopeArgs...), condArgs...), titleArgs...)
	for k, w := range wins {
		sql += " UNION ALL SELECT toUInt8(" + strconv.Itoa(3+k) + ") AS kind, id AS resource, toUInt64(0) AS text FROM (SELECT DISTINCT id FROM resource_tokens WHERE tenant = ? AND (token BETWEEN ? AND ? OR token = " +
			strconv.Itoa(nonASCIIWindow) + ") LIMIT " + strconv.Itoa(maxQCandidates+1) + ")"
		args = append(args, tenantHash(tenantID), w.lo, w.hi)
	}
	if len(wins) > 0 {
		sql += " UNION ALL SELECT toUInt8(0) AS kind, '' AS resource, count() AS text FROM resource_tokens_built WHERE tenant_id = ?"
		args = append(args, tenantID)
	}
	cands, titles = []string{}, []uint64{}
	byWindow := make([][]string, len(wins))
	built := false
	err = s.each(ctx, rawQuery{sql: sql, args: args}, func(sc scanner) error {
		var kind uint8
		var id string
		var text uint64
		if err := sc.Scan(&kind, &id, &text); err != nil {
			return err
		}
		switch kind {
		case 0:
			built = text > 0
		case 1:
			cands = append(cands, id)
		case 2:
			titles = append(titles, text)
		default:
			byWindow[kind-3] = append(byWindow[kind-3], id)
		}
		return nil
	})
	if err != nil || len(wins) == 0 {
		return cands, titles, false, err
	}
	s.startQIndexBuild(ctx, tenantID, built)
	// A resource holding q has a window in each of q's ranges (or the
	// window 0, which each range's read includes): the ids of every
	// window read whole, intersected.
	var best []string
	chosen := false
	for _, ids := range byWindow {
		switch {
		case len(ids) > maxQCandidates:
		case !chosen:
			best, chosen = ids, true
		default:
			in := make(map[string]bool, len(ids))
			for _, id := range ids {
				in[id] = true
			}
			best = slices.DeleteFunc(best, func(id string) bool { return !in[id] })
		}
	}
	if !chosen {
		return nil, nil, false, nil
	}
	qIndexAnswers.Add(1)
	if len(cands) <= candLimit {
		// The scan's and the index's ids, each once.
		seen := make(map[string]bool, len(cands)+len(best))
		for _, id := range cands {
			seen[id] = true
		}
		for _, id := range best {
			if !seen[id] {
				seen[id] = true
				cands = append(cands, id)
			}
		}
	}
	return cands, titles, true, nil
}
