package clickhouse

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// snapshotTables are the tables a snapshot has rows in, all partitioned by
// the month it was written: the ones read now, then the legacy ones.
// mute_matches, mute_sets and mute_set_counts are partitioned by the month
// their rows were written, never before their snapshot's: a month dropped
// holds no match of a snapshot kept.
var snapshotTables = append([]string{"finding_snapshots", "finding_counts", "snapshot_finding_index", "snapshot_findings",
	"mute_matches", "mute_sets", "mute_set_counts", "snapshot_first_seen"}, legacyTables...)

// legacyTables held snapshots until a migration copied them into the
// tables read now: findings until 0012 (into finding_rows); finding_rows,
// finding_resource_index and the older resource keys (finding_resources,
// finding_resource_keys) until 0013 (into snapshot_findings and
// snapshot_finding_index). Nothing reads or writes them since; retention
// still drops their old months.
var legacyTables = []string{"findings", "finding_rows", "finding_resource_index", "finding_resource_keys", "finding_resources"}

// DropMonthsBefore drops, for every tenant, the snapshots written in the
// calendar months (UTC) before the month of t, by dropping whole partitions:
// instant, unlike DropSnapshot's mutation. It returns the months dropped
// (YYYYMM), oldest first. Retention keeps whole months, so the caller picks
// t a month earlier than the oldest snapshot it must keep.
func (s *Store) DropMonthsBefore(ctx context.Context, t time.Time) (dropped []string, err error) {
	defer wrap(&err, "DropMonthsBefore(%s)", t.Format(time.DateOnly))
	ctx, cancel := s.writeCtx(ctx)
	defer cancel()
	limit := t.UTC().Format("200601")
	local := make([]string, len(snapshotTables))
	for i, t := range snapshotTables {
		local[i] = s.localTable(t)
	}
	rows, err := s.conn.Query(ctx, `SELECT DISTINCT partition FROM `+s.systemTable("parts")+`
WHERE database = ? AND table IN ? AND active AND partition < ?`,
		s.database, groupSet(local), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		dropped = append(dropped, p)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.Sort(dropped)
	s.totals.Purge()
	s.memo.purge()
	for _, p := range dropped {
		if len(p) != 6 || p < "197001" || p > "210612" {
			return nil, fmt.Errorf("unexpected partition %q", p)
		}
		// Markers first: a month is never complete with rows missing.
		for _, table := range snapshotTables {
			if err := s.alterLocal(ctx, table, "DROP PARTITION "+p); err != nil {
				return nil, fmt.Errorf("drop %s partition %s: %w", table, p, err)
			}
		}
	}
	return dropped, nil
}
