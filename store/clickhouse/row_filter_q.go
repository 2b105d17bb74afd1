package clickhouse

import (
	"context"
	"strconv"

	"github.com/fourd-dev/fourd/engine"
)

// Resolving the q filter (issue 33 §3). q is case-insensitive text over a
// finding's title and its resource's name and native id; no index holds
// names or native ids (docs/design/read-path.md: one cost a first import
// more client CPU than issue 30 allows), so the tenant's resources are
// scanned. As one query (latestMatching: the latest versions of the ids
// of which any version holds q, the scan an IN subquery), that cost
// q=lg-eip-4242 at 10M (1M resources) 0.6–0.7 s of ClickHouse CPU on
// 18.16, of which the scan alone was 0.17–0.34 s and the latest versions
// of its 11 candidates, named in a literal list, 8–15 ms. So q is
// resolved in two round trips: one scan gives the candidates (and, in the
// same query, the texts whose title holds q), then only the candidates'
// versions are read (the primary key (tenant_id, id) skips every other
// granule) to keep those whose latest version holds q. A q matching more
// resources than the store reads by key, but whose candidates were few
// enough to list, keeps its resources' list (selectiveResources.qWide):
// its pages and counts then test resource_id against it instead of
// running the one query as a subquery (q=aws_eip/lg-42 at 10M, ~1,100
// resources: that subquery was half of a page's 1.1 s of CPU).

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
// when more than maxSelectiveTitles).
func (s *Store) resolveQ(ctx context.Context, tenantID string, f engine.FindingFilter) (resources, wide []string, titles []uint64, err error) {
	cond, condArgs := qCondition(f.Q)
	candLimit := qCandidateFactor * maxSelectiveResources
	titleSQL, titleArgs := qTitles(tenantID, f.Q)
	// One query, both scans (the server runs the two sides in parallel):
	// kind 1 rows are candidate resources, kind 2 texts.
	sql := "SELECT toUInt8(1) AS kind, id AS resource, toUInt64(0) AS text FROM (SELECT DISTINCT id FROM resources WHERE tenant_id = ? AND (" +
		cond + ") LIMIT " + strconv.Itoa(candLimit+1) + ") UNION ALL SELECT toUInt8(2) AS kind, '' AS resource, text_id AS text FROM (SELECT DISTINCT text_id FROM (" +
		titleSQL + ") LIMIT " + strconv.Itoa(maxSelectiveTitles+1) + ")"
	args := append(append([]any{tenantID}, condArgs...), titleArgs...)
	cands, titles := []string{}, []uint64{}
	err = s.each(ctx, rawQuery{sql: sql, args: args}, func(sc scanner) error {
		var kind uint8
		var id string
		var text uint64
		if err := sc.Scan(&kind, &id, &text); err != nil {
			return err
		}
		if kind == 1 {
			cands = append(cands, id)
		} else {
			titles = append(titles, text)
		}
		return nil
	})
	if err != nil {
		return nil, nil, nil, err
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
