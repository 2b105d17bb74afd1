package clickhouse

import (
	"context"
)

// SampleResourceIDs implements reporting.Analytics: per type, the ids
// of the tenant's first perType resources of it (lowest ids first), in
// one pass over two narrow columns, so that a report can show a few
// passing resources per check without reading any wide column of the
// others.
func (s *Store) SampleResourceIDs(ctx context.Context, tenantID string, types []string, perType int) (out map[string][]string, err error) {
	defer wrap(&err, "SampleResourceIDs(%q, %d types, %d)", tenantID, len(types), perType)
	out = map[string][]string{}
	if tenantID == "" || len(types) == 0 || perType <= 0 {
		return out, nil
	}
	ctx = s.scoped(ctx, tenantID, "")
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	err = s.each(ctx, sampleIDsQuery{tenantID: tenantID, types: types, perType: perType}, func(sc scanner) error {
		var typ, id string
		if err := sc.Scan(&typ, &id); err != nil {
			return err
		}
		out[typ] = append(out[typ], id)
		return nil
	})
	return out, err
}

// sampleIDsQuery selects the first perType ids of each type. A resource
// has a row per changed observation: GROUP BY folds them (its type never
// changes, being part of what its id is derived from).
type sampleIDsQuery struct {
	tenantID string
	types    []string
	perType  int
}

func (q sampleIDsQuery) toSQL() (string, []any) {
	return "SELECT type, id FROM resources WHERE tenant_id = ? AND type IN ? GROUP BY type, id ORDER BY type, id LIMIT ? BY type",
		[]any{q.tenantID, groupSet(q.types), q.perType}
}
