package clickhouse

import (
	"context"
	"sync"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/fourd-dev/fourd/engine"
)

// In cluster mode an insert returns when one replica of the shard has the
// rows; another replica fetches them a moment later, and not at all while
// the first is down if it dies before passing them on. A snapshot must not
// become complete (its counts and marker) while a replica that answers, and
// so may serve its reads, lacks some of its rows; nor may CarryForward
// judge which of the previous snapshot's findings are absent from a
// snapshot that a replica holds in part. So each step that adds rows to a
// snapshot waits until every replica of its shard that answers holds all of
// them (awaitReplicas): WriteSnapshot before its counts and marker,
// AppendSnapshot and CarryForward before they return. Nothing of this on
// one server.

// A replica that was down while a snapshot was written (awaitReplicas
// passed over it) fetches the snapshot's parts when it is back, each table
// on its own: for a while it may hold the marker and the counts and not
// all of the rows, or none of it. The write path cannot wait for it, so the
// read path passes over it: in cluster mode every query runs with
// replicaFreshness, and a Distributed table then reads each shard from a
// replica whose replication queue of that table holds no insert older than
// the current second (ClickHouse's absolute_delay below 1 s; a replica
// that has not yet read its queue from ZooKeeper counts as infinitely
// late), the local one or another. Only when every replica of a shard that
// answers is behind does the least late one answer (the default fallback):
// the rows it lacks are then on no replica that answers. docs/design/cluster.md.
var replicaFreshness = map[string]any{"max_replica_delay_for_distributed_queries": 1}

// replicaWait bounds how long a snapshot write waits for the live replicas
// of its shard to hold its rows (awaitReplicas).
const replicaWait = time.Minute

// errReplicaBehind: a live replica of a snapshot's shard did not get all of
// its rows in time, typically because the replica that took some of them
// died before passing them on. The write fails (and is retried) rather
// than mark a snapshot complete that a read could find incomplete.
var errReplicaBehind = &engine.Error{Code: engine.CodeUnavailable,
	Message: "a replica of the analytics store has not received all of the snapshot's rows (a replica down?); retry later"}

// snapshotInsertSettings are the settings of every insert into a
// snapshot's tables (its rows, index keys, counts and marker): no block
// deduplication. A replicated table drops a block whose checksum one of its
// recent inserts had, and the blocks of an audit's retry are often the very
// blocks of the failed attempt (the same findings, the same written_at),
// whose rows the cleanup before the retry deleted: the retry would silently
// write nothing. Its counts too: an audit whose replica was killed at the
// marker insert was retried every minute and never completed, each retry's
// counts dropped (TestClusterFaults/kill_-9_a_replica_at_the_marker_insert).
// The store never sends the same insert twice, so deduplication has nothing
// else to do here. (A setting of replicated tables only; one server ignores
// it.)
var snapshotInsertSettings = ch.Settings{"insert_deduplicate": 0}

// snapshotWriteCtx is ctx for the inserts of a snapshot's rows.
func snapshotWriteCtx(ctx context.Context) context.Context {
	return ch.Context(ctx, ch.WithSettings(snapshotInsertSettings))
}

// writtenRows counts, per snapshot key, the rows the audit's steps
// (AppendSnapshot, CarryForward) have added to a snapshot that is not
// complete yet: what its shard's replicas must hold. FinalizeSnapshot and
// DropSnapshot forget it; so does a step that failed (the audit is retried
// from a dropped snapshot).
type writtenRows struct {
	mu sync.Mutex
	n  map[uint64]int64
}

// add records n more rows of snapshot key and returns its total.
func (w *writtenRows) add(key uint64, n int64) int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.n == nil {
		w.n = map[uint64]int64{}
	}
	w.n[key] += n
	return w.n[key]
}

// get returns the rows recorded for snapshot key.
func (w *writtenRows) get(key uint64) (int64, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, ok := w.n[key]
	return n, ok
}

// forget drops snapshot key's record.
func (w *writtenRows) forget(key uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.n, key)
}

// awaitWritten records n more rows of an audit's snapshot and waits until
// the live replicas of its shard hold them all; on failure it forgets the
// snapshot. Nothing on one server.
func (s *Store) awaitWritten(ctx context.Context, tenantID, auditID string, n int64) error {
	if s.router == nil {
		return nil
	}
	key := snapshotKey(tenantID, auditID)
	err := s.awaitReplicas(ctx, tenantID, auditID, s.written.add(key, n))
	if err != nil {
		s.written.forget(key)
	}
	return err
}

// awaitReplicas waits until every replica of the snapshot's shard that
// answers a ping holds exactly its n rows in snapshot_findings and their n
// keys in snapshot_finding_index: all that was written, and nothing that a
// deletion (a failed attempt's cleanup) has yet to remove. Nothing on one
// server.
func (s *Store) awaitReplicas(ctx context.Context, tenantID, auditID string, n int64) error {
	db := quoteIdent(s.database)
	return s.untilReplicasHold(ctx, tenantID, auditID, "rows and keys",
		"SELECT (SELECT count() FROM "+db+".snapshot_findings"+localSuffix+" WHERE snapshot = ?), "+
			"(SELECT count() FROM "+db+".snapshot_finding_index"+localSuffix+" WHERE snapshot = ?)",
		[]any{snapshotKey(tenantID, auditID), snapshotKey(tenantID, auditID)}, [2]uint64{uint64(n), uint64(n)})
}

// awaitCounts waits until every replica of the snapshot's shard that
// answers holds its counts, of n findings in all: the marker, inserted
// next, must not land on a replica that lacks them (the one that took the
// counts may die before passing them on; the marker would then say
// "complete" over no counts: TestClusterFaults/kill_-9_a_replica_at_the_marker_insert).
// Nothing on one server.
func (s *Store) awaitCounts(ctx context.Context, tenantID, auditID string, n uint64) error {
	db := quoteIdent(s.database)
	return s.untilReplicasHold(ctx, tenantID, auditID, "counts",
		"SELECT (SELECT sum(n) FROM "+db+".finding_counts"+localSuffix+" WHERE tenant_id = ? AND audit_id = ?), toUInt64(0)",
		[]any{tenantID, auditID}, [2]uint64{n, 0})
}

// awaitComplete waits until every replica of the snapshot's shard that
// answers holds its counts (of n findings in all) and its marker: the
// audit reads the counts through whichever replica right after, and a
// reader finds the snapshot complete on each, or on none. Nothing on one
// server.
func (s *Store) awaitComplete(ctx context.Context, tenantID, auditID string, n uint64) error {
	db := quoteIdent(s.database)
	return s.untilReplicasHold(ctx, tenantID, auditID, "counts and marker",
		"SELECT (SELECT sum(n) FROM "+db+".finding_counts"+localSuffix+" WHERE tenant_id = ? AND audit_id = ?), "+
			"(SELECT toUInt64(count() > 0) FROM "+db+".finding_snapshots"+localSuffix+" WHERE tenant_id = ? AND audit_id = ?)",
		[]any{tenantID, auditID, tenantID, auditID}, [2]uint64{n, 1})
}

// untilReplicasHold runs query (two counts of the snapshot's rows on a
// replica) on each replica of the snapshot's shard that answers a ping
// until it answers want, for up to replicaWait in all; a replica down is
// passed over (it catches up when it is back).
func (s *Store) untilReplicasHold(ctx context.Context, tenantID, auditID, what, query string, args []any, want [2]uint64) error {
	if s.router == nil {
		return nil
	}
	sh := s.router.shards[s.router.shardOf(snapshotKey(tenantID, auditID))]
	deadline := time.Now().Add(replicaWait)
	for j, c := range sh.probes {
		for {
			pctx, cancel := context.WithTimeout(ctx, probeTimeout)
			if c.Ping(pctx) != nil {
				cancel()
				break
			}
			var got [2]uint64
			err := c.QueryRow(pctx, query, args...).Scan(&got[0], &got[1])
			cancel()
			if err == nil && got == want {
				break
			}
			if time.Now().After(deadline) || ctx.Err() != nil {
				s.log.Warn("clickhouse: a replica lacks rows of a snapshot", "replica", sh.replicas[j], "tenant", tenantID,
					"audit", auditID, "what", what, "has", got, "want", want, "err", err)
				return errReplicaBehind
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return nil
}
