package clickhouse

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/ext"

	"github.com/fourd-dev/fourd/engine"
)

// muteRefKey is a rule version as mute_matches.ref stores it.
func muteRefKey(r engine.MuteRef) string { return r.RuleID + ":" + strconv.Itoa(r.Version) }

// muteRefSet renders refs as an IN list of mute_matches.ref.
func muteRefSet(refs []engine.MuteRef) any {
	keys := make([]string, len(refs))
	for i, r := range refs {
		keys[i] = muteRefKey(r)
	}
	return groupSet(keys)
}

// mutedSubquery is "(SELECT id FROM …)": the ids the mutes of fc mute
// within bounds (conditions on snapshot, sev_order and id, which
// mute_matches and mute_sets share with snapshot_findings), and its
// arguments: from the built set of fc's rules when there is one, else
// from the matches of each rule.
func mutedSubquery(fc forced, bounds conds) (string, []any) {
	if fc.muteSet != "" {
		return mutedSetSubquery(fc.muteSet, bounds)
	}
	refs := fc.mutes
	c := conds{exprs: slices.Clone(bounds.exprs), args: slices.Clone(bounds.args)}
	c.add("ref IN ?", muteRefSet(refs))
	return "(SELECT id FROM mute_matches WHERE " + c.sql() + ")", c.args
}

// PutMuteMatches stores findings of the snapshot of auditID as matched by
// ref (open findings only: a mute rule leaves the others as they are).
func (s *Store) PutMuteMatches(ctx context.Context, tenantID, auditID string, ref engine.MuteRef, matched []engine.Finding) (err error) {
	defer wrap(&err, "PutMuteMatches(%q, %q, %d)", tenantID, auditID, len(matched))
	ctx = s.scoped(ctx, tenantID, auditID)
	if err := checkSnapshotIDs(tenantID, auditID); err != nil {
		return err
	}
	if len(matched) == 0 {
		return nil
	}
	b, err := s.prepareBatch(ctx, `INSERT INTO mute_matches (snapshot, sev_order, id, ref, severity, dimension, status,
		resource_id, rule_id, resource_type, account, region, written_at)`)
	if err != nil {
		return err
	}
	defer b.Abort() //nolint:errcheck // after Send, Abort is a no-op
	snap, key, now := snapshotKey(tenantID, auditID), muteRefKey(ref), time.Now().UTC()
	for _, f := range matched {
		id, ok := findingIDKey(f.ID)
		if !ok || f.Status != engine.StatusOpen {
			continue
		}
		if err := b.Append(snap, sevOrder(f.Severity), id, key, string(f.Severity), string(f.Dimension), string(f.Status),
			f.ResourceID, f.RuleID, f.ResourceType, f.Account, f.Region, now); err != nil {
			return err
		}
	}
	return b.Send()
}

// MutedAmong returns, of the findings keys names, those the refs match in
// the snapshot, each with the first of refs (in their order) that matches
// it: point lookups in the built set when set names one, else a read of
// the keys' matches.
func (s *Store) MutedAmong(ctx context.Context, tenantID, auditID string, refs []engine.MuteRef, set string, fks []engine.FindingKey) (out map[string]string, err error) {
	defer wrap(&err, "MutedAmong(%q, %q, %d ids)", tenantID, auditID, len(fks))
	ctx = s.scoped(ctx, tenantID, "", auditID)
	out = map[string]string{}
	keys := make([]findingKey, 0, len(fks))
	for _, k := range fks {
		sev := engine.SeverityFromRank(k.SeverityRank)
		if id, ok := findingIDKey(k.ID); ok && sev != "" {
			keys = append(keys, findingKey{sevOrder: sevOrder(sev), id: id})
		}
	}
	if len(refs) == 0 || len(keys) == 0 {
		return out, nil
	}
	if set != "" {
		return s.mutedAmongSet(ctx, tenantID, auditID, set, keys)
	}
	rank := make(map[string]int, len(refs))
	for i, r := range refs {
		rank[muteRefKey(r)] = i
	}
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	ctx, err = withKeysTable(ctx, keys)
	if err != nil {
		return nil, err
	}
	rows, err := s.conn.Query(ctx, `SELECT id, ref FROM mute_matches WHERE snapshot = ? AND (sev_order, id) IN (SELECT sev_order, id FROM `+keysTableName+`) AND ref IN ?`,
		snapshotKey(tenantID, auditID), muteRefSet(refs))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	best := map[string]int{}
	for rows.Next() {
		var key, ref string
		if err := rows.Scan(&key, &ref); err != nil {
			return nil, err
		}
		id, err := findingIDText(key)
		if err != nil {
			return nil, err
		}
		r, ok := rank[ref]
		if b, seen := best[id]; ok && (!seen || r < b) {
			best[id] = r
			out[id] = refs[r].RuleID
		}
	}
	return out, rows.Err()
}

// keysTableName names the external table of withKeysTable.
const keysTableName = "finding_keys"

// withKeysTable sends keys with ctx's query as data: an external table
// keysTableName (sev_order UInt8, id FixedString(16)) that the query reads
// as "(sev_order, id) IN (SELECT sev_order, id FROM finding_keys)" (GLOBAL
// in cluster mode: the node that gets the query reads it). Written into the
// SQL as a literal instead, the 10,000 keys of an export page made a query
// of ~250 kB that the server took seconds to parse under load (an export
// under an active mute rule ran out of its page deadline), and ~10,500 keys
// were past max_query_size (TestMutedAmongManyKeys).
func withKeysTable(ctx context.Context, keys []findingKey) (context.Context, error) {
	t, err := ext.NewTable(keysTableName, ext.Column("sev_order", "UInt8"), ext.Column("id", "FixedString(16)"))
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		if err := t.Append(k.sevOrder, k.id); err != nil {
			return nil, err
		}
	}
	return ch.Context(ctx, ch.WithExternalTable(t)), nil
}

// CountMuted counts the snapshot's findings that refs match, filtered by
// q.Filter (its status ignored: matches are open findings) and grouped by
// q.GroupBy, leaving out the ids in exclude. A finding two rules match
// counts once. With q.MuteSet (the build of refs' materialised set) it
// reads that set's counts instead of the matches.
func (s *Store) CountMuted(ctx context.Context, q engine.FindingCountQuery, refs []engine.MuteRef, exclude []string) (out []engine.FindingCount, err error) {
	defer wrap(&err, "CountMuted(%q, %q)", q.TenantID, q.Filter.AuditID)
	ctx = s.scoped(ctx, q.TenantID, "", q.Filter.AuditID)
	if err := validateFindingQuery(q.TenantID, engine.FindingFilter{AuditID: q.Filter.AuditID}); err != nil {
		return nil, err
	}
	if len(refs) == 0 {
		return nil, nil
	}
	cols := make([]string, len(q.GroupBy))
	for i, g := range q.GroupBy {
		col, ok := groupColumn(g)
		if !ok {
			return nil, engine.ParseGroupByError(string(g))
		}
		cols[i] = "toString(" + col + ")"
	}
	if q.MuteSet != "" {
		groups, err := s.countMutedSet(ctx, q, cols, exclude)
		if err != nil {
			return nil, err
		}
		return mutedCounts(q.GroupBy, groups), nil
	}
	var c conds
	addSnapshot(&c, q.TenantID, q.Filter.AuditID)
	c.add("ref IN ?", muteRefSet(refs))
	f := q.Filter
	f.Status = ""
	addFindingFilter(&c, f)
	if f.ResourceID != "" {
		c.add("resource_id = ?", f.ResourceID)
	}
	if keys := findingIDKeys(exclude); len(keys) > 0 {
		c.add("id NOT IN ?", groupSet(keys))
	}
	agg := "count()"
	if len(refs) > 1 {
		agg = "uniqExact(id)"
	}
	sql := "SELECT " + strings.Join(append(slices.Clone(cols), agg), ", ") + " FROM mute_matches WHERE " + c.sql()
	if len(cols) > 0 {
		sql += " GROUP BY " + strings.Join(cols, ", ")
	}
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	groups, err := s.countRows(ctx, sql, c.args, len(cols))
	if err != nil {
		return nil, err
	}
	return mutedCounts(q.GroupBy, groups), nil
}

// mutedCounts turns count rows into counts keyed by groupBy, leaving out
// empty groups.
func mutedCounts(groupBy []engine.GroupBy, groups []countGroup) (out []engine.FindingCount) {
	for _, g := range groups {
		if g.n == 0 {
			continue
		}
		key := make(map[engine.GroupBy]string, len(groupBy))
		for i, gb := range groupBy {
			key[gb] = g.keys[i]
		}
		out = append(out, engine.FindingCount{Key: key, Count: int64(g.n)})
	}
	return out
}

// ScanOpenFindings calls fn with every open finding of a snapshot, in no
// particular order, with the fields a mute rule reads (no evidence,
// description or remediation): one unsorted query, streamed. It stops at
// fn's first error and returns it.
func (s *Store) ScanOpenFindings(ctx context.Context, tenantID, auditID string, fn func(engine.Finding) error) (err error) {
	defer wrap(&err, "ScanOpenFindings(%q, %q)", tenantID, auditID)
	ctx = s.scoped(ctx, tenantID, "", auditID)
	if err := checkSnapshotIDs(tenantID, auditID); err != nil {
		return err
	}
	tctx, cancel := s.readCtx(ctx)
	texts, err := s.snapshotTexts(tctx, tenantID, auditID)
	cancel()
	if err != nil {
		return err
	}
	rows, err := s.conn.Query(ctx, `SELECT id, severity, dimension, resource_id, rule_id, resource_type, provider,
		account, region, text_id FROM snapshot_findings WHERE snapshot = ? AND status = 'open'`, snapshotKey(tenantID, auditID))
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			f           = engine.Finding{TenantID: tenantID, AuditID: auditID, Status: engine.StatusOpen}
			key, sev, d string
			textID      uint64
		)
		if err := rows.Scan(&key, &sev, &d, &f.ResourceID, &f.RuleID, &f.ResourceType, &f.Provider, &f.Account,
			&f.Region, &textID); err != nil {
			return err
		}
		if f.ID, err = findingIDText(key); err != nil {
			return err
		}
		f.Severity, f.Dimension = engine.Severity(sev), engine.Dimension(d)
		if err := applyText(&f, textID, texts); err != nil {
			return err
		}
		if f.Compliance == nil {
			f.Compliance = []string{}
		}
		if err := fn(f); err != nil {
			return fmt.Errorf("scan callback: %w", err)
		}
	}
	return rows.Err()
}
