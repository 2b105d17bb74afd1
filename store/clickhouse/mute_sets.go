package clickhouse

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// PutMuteSet implements findings.MuteSetWriter: the snapshot's matches of
// refs copied into mute_sets under build, each finding once, with the
// first of refs (in their order) that matches it; their counts summed into
// mute_set_counts; one count of them returned. Nothing leaves the server.
//
// Matches are copied as they are, except those of the findings matched
// more than once (rules that overlap, or a rule version applied twice),
// which are grouped: grouping every match by finding costs 5–6× the copy
// at 1.67M matches (docs/benchmarks.md), and overlaps are few.
func (s *Store) PutMuteSet(ctx context.Context, tenantID, auditID, build string, refs []engine.MuteRef) (n int64, err error) {
	defer wrap(&err, "PutMuteSet(%q, %q, %d refs)", tenantID, auditID, len(refs))
	if err := checkSnapshotIDs(tenantID, auditID); err != nil {
		return 0, err
	}
	if build == "" || len(refs) == 0 {
		return 0, engine.FieldErrorf("refs", "a mute set needs a build id and at least one rule version")
	}
	ctx = s.scoped(ctx, tenantID, auditID, auditID)
	snap, now := snapshotKey(tenantID, auditID), time.Now().UTC().Unix()
	keys := make([]string, len(refs))
	for i, r := range refs {
		keys[i] = muteRefKey(r)
	}
	set := groupSet(keys)
	const cols = `INSERT INTO mute_sets (snapshot, build, sev_order, id, mute_rule, severity, dimension, status,
  resource_id, rule_id, resource_type, account, region, written_at)
`
	const twice = `(SELECT id FROM mute_matches WHERE snapshot = ? AND ref IN ? GROUP BY id HAVING count() > 1)`
	// Whether any finding is matched twice: when none is (rules that do not
	// overlap, the usual case), the matches are copied with no set to test
	// them against, which halves the copy's time. (The refs' matches were
	// all written before their applications were recorded, so none is added
	// meanwhile.)
	rctx, rcancel := s.readCtx(ctx)
	defer rcancel()
	var dup uint64
	if err := s.conn.QueryRow(rctx, `SELECT count() FROM `+twice, snap, set).Scan(&dup); err != nil {
		return 0, err
	}
	wctx, cancel := s.writeCtx(ctx)
	defer cancel()
	copyAll := cols + `SELECT snapshot, ?, sev_order, id, splitByChar(':', ref)[1], severity, dimension, status,
  resource_id, rule_id, resource_type, account, region, toDateTime(?, 'UTC')
FROM mute_matches WHERE snapshot = ? AND ref IN ?`
	if dup == 0 {
		if err := s.conn.Exec(wctx, copyAll, build, now, snap, set); err != nil {
			return 0, err
		}
	} else {
		if err := s.conn.Exec(wctx, copyAll+` AND id NOT IN `+twice, build, now, snap, set, snap, set); err != nil {
			return 0, err
		}
		// indexOf ranks a ref by its place in refs (1 for the first): argMin
		// keeps the oldest active rule that matches, as MutedAmong does.
		if err := s.conn.Exec(wctx, cols+`SELECT snapshot, ?, sev_order, id, splitByChar(':', argMin(ref, indexOf(?, ref)))[1],
  any(severity), any(dimension), any(status), any(resource_id), any(rule_id), any(resource_type), any(account), any(region),
  toDateTime(?, 'UTC')
FROM mute_matches WHERE snapshot = ? AND ref IN ? AND id IN `+twice+`
GROUP BY snapshot, sev_order, id`, build, keys, now, snap, set, snap, set); err != nil {
			return 0, err
		}
	}
	if err := s.conn.Exec(wctx, `INSERT INTO mute_set_counts (snapshot, build, severity, dimension, status, resource_type,
  account, region, rule_id, n, written_at)
SELECT snapshot, build, severity, dimension, status, resource_type, account, region, rule_id, count(), toDateTime(?, 'UTC')
FROM mute_sets WHERE snapshot = ? AND build = ?
GROUP BY snapshot, build, severity, dimension, status, resource_type, account, region, rule_id`, now, snap, build); err != nil {
		return 0, err
	}
	var count uint64
	if err := s.conn.QueryRow(rctx, `SELECT sum(n) FROM mute_set_counts WHERE snapshot = ? AND build = ?`, snap, build).Scan(&count); err != nil {
		return 0, err
	}
	return int64(count), nil
}

// mutedSetSubquery is "(SELECT id FROM mute_sets …)": the ids a build
// mutes within bounds (conditions on snapshot, sev_order and id, which
// mute_sets shares with snapshot_findings), and its arguments.
func mutedSetSubquery(build string, bounds conds) (string, []any) {
	c := conds{exprs: slices.Clone(bounds.exprs), args: slices.Clone(bounds.args)}
	if len(c.exprs) > 0 && strings.HasPrefix(c.exprs[0], "snapshot = ") {
		// The build right after the snapshot: the key's prefix.
		c.exprs = slices.Insert(c.exprs, 1, "build = ?")
		c.args = slices.Insert(c.args, 1, any(build))
	} else {
		c.add("build = ?", build)
	}
	return "(SELECT id FROM mute_sets WHERE " + c.sql() + ")", c.args
}

// mutedAmongSet is MutedAmong over a built set: point lookups of the keys
// in mute_sets, whose rows carry the rule that mutes each finding.
func (s *Store) mutedAmongSet(ctx context.Context, tenantID, auditID, build string, keys []findingKey) (map[string]string, error) {
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	ctx, err := withKeysTable(ctx, keys)
	if err != nil {
		return nil, err
	}
	rows, err := s.conn.Query(ctx, `SELECT id, mute_rule FROM mute_sets WHERE snapshot = ? AND build = ? AND (sev_order, id) IN (SELECT sev_order, id FROM `+keysTableName+`)`,
		snapshotKey(tenantID, auditID), build)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var key, rule string
		if err := rows.Scan(&key, &rule); err != nil {
			return nil, err
		}
		id, err := findingIDText(key)
		if err != nil {
			return nil, err
		}
		out[id] = rule
	}
	return out, rows.Err()
}

// countMutedSet is CountMuted over a built set: a sum over its counts, or,
// with a resource filter or findings to leave out, a count of its rows
// (one row per muted finding: no uniqExact).
func (s *Store) countMutedSet(ctx context.Context, q engine.FindingCountQuery, cols []string, exclude []string) ([]countGroup, error) {
	f := q.Filter
	f.Status = ""
	keys := findingIDKeys(exclude)
	var c conds
	addSnapshot(&c, q.TenantID, f.AuditID)
	c.add("build = ?", q.MuteSet)
	addFindingFilter(&c, f)
	table, agg := "mute_set_counts", "sum(n)"
	if f.ResourceID != "" || len(keys) > 0 {
		table, agg = "mute_sets", "count()"
		if f.ResourceID != "" {
			c.add("resource_id = ?", f.ResourceID)
		}
		if len(keys) > 0 {
			c.add("id NOT IN ?", groupSet(keys))
		}
	}
	sql := "SELECT " + strings.Join(append(slices.Clone(cols), agg), ", ") + " FROM " + table + " WHERE " + c.sql()
	if len(cols) > 0 {
		sql += " GROUP BY " + strings.Join(cols, ", ")
	}
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	return s.countRows(ctx, sql, c.args, len(cols))
}

// DeleteMuteSets implements findings.MuteSetWriter: the builds' rows in
// mute_sets and mute_set_counts, by a mutation of each table (deleted in
// the background; nothing reads a build once PostgreSQL forgot it).
func (s *Store) DeleteMuteSets(ctx context.Context, builds []engine.MuteSetBuild) (err error) {
	defer wrap(&err, "DeleteMuteSets(%d builds)", len(builds))
	if len(builds) == 0 {
		return nil
	}
	ids := make([]string, len(builds))
	for i, b := range builds {
		ids[i] = b.Build
	}
	ctx, cancel := s.writeCtx(ctx)
	defer cancel()
	for _, table := range []string{"mute_sets", "mute_set_counts"} {
		if err := s.alterLocal(ctx, table, "DELETE WHERE build IN ?", groupSet(ids)); err != nil {
			return err
		}
	}
	return nil
}
