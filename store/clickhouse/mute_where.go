package clickhouse

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// muteCondColumns are the snapshot_findings expressions of the fields a
// MuteCond compares. The enums are compared as text: a constant that is no
// member of the enum then matches nothing instead of failing the query.
var muteCondColumns = map[engine.MuteField]string{
	engine.MuteRuleID:       "rule_id",
	engine.MuteSeverity:     "toString(severity)",
	engine.MuteDimension:    "toString(dimension)",
	engine.MuteResourceID:   "resource_id",
	engine.MuteResourceType: "resource_type",
	engine.MuteProvider:     "provider",
	engine.MuteAccount:      "account",
	engine.MuteRegion:       "region",
}

// muteCondSQL renders cond as a condition on snapshot_findings, its
// constants as arguments.
func muteCondSQL(cond engine.MuteCond, c *conds) (string, error) {
	switch cond.Op {
	case engine.MuteTrue:
		return "1", nil
	case engine.MuteFalse:
		return "0", nil
	case engine.MuteEq, engine.MuteIn:
		col, ok := muteCondColumns[cond.Field]
		if !ok {
			return "", fmt.Errorf("mute condition on unknown field %q", cond.Field)
		}
		switch {
		case cond.Op == engine.MuteEq && len(cond.Values) == 1:
			c.args = append(c.args, cond.Values[0])
			return col + " = ?", nil
		case cond.Op == engine.MuteEq:
			return "", fmt.Errorf("mute condition: == with %d values", len(cond.Values))
		case len(cond.Values) == 0:
			return "0", nil
		}
		c.args = append(c.args, groupSet(cond.Values))
		return col + " IN ?", nil
	case engine.MuteNot:
		if len(cond.Args) != 1 {
			return "", fmt.Errorf("mute condition: not with %d operands", len(cond.Args))
		}
		x, err := muteCondSQL(cond.Args[0], c)
		return "NOT (" + x + ")", err
	case engine.MuteAnd, engine.MuteOr:
		if len(cond.Args) == 0 {
			return "", fmt.Errorf("mute condition: %d with no operands", cond.Op)
		}
		sep := " AND "
		if cond.Op == engine.MuteOr {
			sep = " OR "
		}
		parts := make([]string, len(cond.Args))
		for i, a := range cond.Args {
			var err error
			if parts[i], err = muteCondSQL(a, c); err != nil {
				return "", err
			}
		}
		return "(" + strings.Join(parts, sep) + ")", nil
	}
	return "", fmt.Errorf("mute condition: unknown operation %d", cond.Op)
}

// PutMuteMatchesWhere implements findings.MuteMatchWriter: one INSERT …
// SELECT copies the snapshot's open findings that cond matches into
// mute_matches (nothing leaves the server), then one count over the
// snapshot's matches of ref says how many.
func (s *Store) PutMuteMatchesWhere(ctx context.Context, tenantID, auditID string, ref engine.MuteRef, cond engine.MuteCond) (n int64, err error) {
	defer wrap(&err, "PutMuteMatchesWhere(%q, %q)", tenantID, auditID)
	if err := checkSnapshotIDs(tenantID, auditID); err != nil {
		return 0, err
	}
	snap, key := snapshotKey(tenantID, auditID), muteRefKey(ref)
	c := conds{args: []any{key, time.Now().UTC().Unix(), snap}}
	where, err := muteCondSQL(cond, &c)
	if err != nil {
		return 0, err
	}
	wctx, cancel := s.writeCtx(ctx)
	defer cancel()
	if err := s.conn.Exec(wctx, `INSERT INTO mute_matches (snapshot, sev_order, id, ref, severity, dimension, status,
  resource_id, rule_id, resource_type, account, region, written_at)
SELECT snapshot, sev_order, id, ?, severity, dimension, status, resource_id, rule_id, resource_type, account, region,
  toDateTime(?, 'UTC')
FROM snapshot_findings WHERE snapshot = ? AND status = 'open' AND `+where, c.args...); err != nil {
		return 0, err
	}
	rctx, cancel := s.readCtx(ctx)
	defer cancel()
	var count uint64
	if err := s.conn.QueryRow(rctx, `SELECT count() FROM mute_matches WHERE snapshot = ? AND ref = ?`, snap, key).Scan(&count); err != nil {
		return 0, err
	}
	return int64(count), nil
}
