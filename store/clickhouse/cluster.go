package clickhouse

import (
	"context"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"

	ch "github.com/ClickHouse/clickhouse-go/v2"
)

// Cluster mode (Config.Cluster): every table of the migrations is a
// Replicated*MergeTree table "<name>_local" on every node of the cluster
// plus a Distributed table "<name>" over it, so the queries keep the names
// they use on one server. Both are created ON CLUSTER by Migrate, which
// renders the one migration source for the mode (renderStatement).
// docs/design/cluster.md says why the tables are sharded as they are.

// localSuffix names a Distributed table's local table.
const localSuffix = "_local"

// ErrUnknownCluster is returned by Open when the server has no cluster of
// the configured name (or the node lacks the {shard}/{replica} macros).
var ErrUnknownCluster = errors.New("clickhouse: unknown cluster")

// snapshotShard is the sharding key of a snapshot's rows, as an expression
// over its tenant and audit: the same value as the snapshot column of
// snapshot_findings (snapshotKey), so a snapshot's rows, its counts and its
// marker are on one shard.
const snapshotShard = `cityHash64(concat(tenant_id, '\0', audit_id))`

// tenantShard is the sharding key of a tenant's own rows (resources, rule
// texts, events): all of a tenant's are on one shard.
const tenantShard = "cityHash64(tenant_id)"

// shardingKeys is the Distributed sharding expression of each table.
var shardingKeys = map[string]string{
	"findings":               snapshotShard,
	"finding_counts":         snapshotShard,
	"finding_snapshots":      snapshotShard,
	"finding_resources":      snapshotShard,
	"finding_resource_keys":  snapshotShard,
	"finding_resource_index": "snapshot",
	"finding_rows":           "snapshot",
	"snapshot_findings":      "snapshot",
	"snapshot_finding_index": "snapshot",
	"snapshot_first_seen":    "snapshot",
	"mute_matches":           "snapshot",
	"mute_sets":              "snapshot",
	"mute_set_counts":        "snapshot",
	"resources":              tenantShard,
	"resource_tag_index":     tenantShard,
	"resource_tags":          "tenant", // = cityHash64(tenant_id): the resources' shard
	"resource_tokens":        "tenant", // likewise (unread in cluster mode: resource_tokens.go)
	"resource_tokens_built":  tenantShard,
	"resource_sightings":     tenantShard,
	"finding_texts":          tenantShard,
	"events":                 tenantShard,
}

// clustered reports whether the store runs in cluster mode.
func (s *Store) clustered() bool { return s.cfg.Cluster != "" }

// onCluster is the ON CLUSTER clause of a DDL statement, empty on one server.
func (s *Store) onCluster() string {
	if !s.clustered() {
		return ""
	}
	return " ON CLUSTER " + quoteIdent(s.cfg.Cluster)
}

// localTable is the table holding table's rows on the node: table itself
// on one server, its local table in cluster mode. Mutations, partitions
// and system tables name it.
func (s *Store) localTable(table string) string {
	if !s.clustered() {
		return table
	}
	return table + localSuffix
}

// globalIn is the IN operator of a subquery over a table the outer query
// also reads: GLOBAL IN in cluster mode, where the subquery must run once,
// on the node that got the query, over the whole Distributed table (a plain
// IN would run it on each shard over the Distributed table again, which the
// server refuses), plain IN on one server.
func (s *Store) globalIn() string {
	if s.clustered() {
		return "GLOBAL IN"
	}
	return "IN"
}

// systemTable reads a system table on one server, or on one replica of
// every shard in cluster mode.
func (s *Store) systemTable(name string) string {
	if !s.clustered() {
		return "system." + name
	}
	return "cluster(" + quoteString(s.cfg.Cluster) + ", system, " + name + ")"
}

// qualified is table in the store's database, for statements that run on
// other nodes (ON CLUSTER).
func (s *Store) qualified(table string) string { return quoteIdent(s.database) + "." + table }

// tenantLocalSettings are the settings of a query whose rows are all on
// one shard (one tenant's resources) and that uses LIMIT n BY together
// with LIMIT: in cluster mode each shard runs the whole query and the node
// that got it only concatenates, because 18.16 applies the LIMIT on the
// shards before the LIMIT BY on the node (a page of 5 distinct ids came
// back with 3). None on one server.
func (s *Store) tenantLocalSettings() []ch.Settings {
	if !s.clustered() {
		return nil
	}
	return []ch.Settings{{"distributed_group_by_no_merge": 1}}
}

// quoteIdent is name as a ClickHouse identifier.
func quoteIdent(name string) string {
	return "`" + strings.NewReplacer("\\", "\\\\", "`", "\\`").Replace(name) + "`"
}

// checkCluster makes sure the node knows the configured cluster and has
// the macros the replicated tables' paths use.
func (s *Store) checkCluster(ctx context.Context) error {
	var n uint64
	if err := s.conn.QueryRow(ctx, "SELECT count() FROM system.clusters WHERE cluster = ?", s.cfg.Cluster).Scan(&n); err != nil {
		return fmt.Errorf("clickhouse: reading system.clusters: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("%w: the server has no cluster %q in its remote_servers", ErrUnknownCluster, s.cfg.Cluster)
	}
	var m uint64
	if err := s.conn.QueryRow(ctx, "SELECT count() FROM system.macros WHERE macro IN ('shard', 'replica')").Scan(&m); err != nil {
		return fmt.Errorf("clickhouse: reading system.macros: %w", err)
	}
	if m != 2 {
		return fmt.Errorf("%w: the server's config has no {shard} and {replica} macros, which the replicated tables need", ErrUnknownCluster)
	}
	return nil
}

var (
	createTableRe = regexp.MustCompile(`(?s)^CREATE TABLE IF NOT EXISTS (\w+) \((.*)\)\s*ENGINE = (\w*MergeTree)(\(([^)]*)\))?(.*)$`)
	createAsRe    = regexp.MustCompile(`(?s)^CREATE TABLE IF NOT EXISTS (\w+) AS (\w+)(\s+ENGINE = Buffer.*)$`)
	alterAddRe    = regexp.MustCompile(`(?s)^ALTER TABLE (\w+) (ADD COLUMN .*)$`)
	truncateRe    = regexp.MustCompile(`^TRUNCATE TABLE (\w+)$`)
	dropTableRe   = regexp.MustCompile(`^DROP TABLE IF EXISTS (\w+)$`)
	createMVRe    = regexp.MustCompile(`(?s)^CREATE MATERIALIZED VIEW IF NOT EXISTS (\w+) TO (\w+) AS\s+(.*)\s+FROM (\w+)(.*)$`)
	insertRe      = regexp.MustCompile(`(?s)^INSERT INTO \w+ \(`)
)

// ddl is one rendered migration statement.
type ddl struct {
	sql string
	// eachShard: run on one replica of each shard (an ALTER of a
	// replicated table), not through this connection.
	eachShard bool
	// eachNode: run on every node, one after the other (an ALTER of a
	// Distributed table, which is metadata only on each node).
	eachNode bool
}

// renderStatement turns one statement of a migration into what runs in the
// store's mode: itself on one server; in cluster mode, the replicated local
// table and the Distributed table over it for a CREATE TABLE, both tables
// for an ALTER, the local tables for a TRUNCATE, ON CLUSTER everywhere.
// INSERT … SELECT copies run through the Distributed tables unchanged.
func (s *Store) renderStatement(stmt string) ([]ddl, error) {
	stmt = strings.ReplaceAll(stmt, "{database}", quoteString(s.database))
	if !s.clustered() {
		return []ddl{{sql: stmt}}, nil
	}
	// ON CLUSTER statements run on every node in the node's default
	// database unless the names say which: they all name it.
	on := s.onCluster()
	q := s.qualified
	if m := createTableRe.FindStringSubmatch(stmt); m != nil {
		name, cols, engine, args, rest := m[1], m[2], m[3], m[5], m[6]
		key, ok := shardingKeys[name]
		if !ok {
			return nil, fmt.Errorf("cluster mode: table %s has no sharding key (shardingKeys, cluster.go)", name)
		}
		path := quoteString("/clickhouse/tables/{shard}/" + s.database + "/" + name + localSuffix)
		params := path + ", '{replica}'"
		if args != "" {
			params += ", " + args
		}
		local := name + localSuffix
		return []ddl{
			{sql: "CREATE TABLE IF NOT EXISTS " + q(local) + on + " (" + cols + ") ENGINE = Replicated" + engine + "(" + params + ")" + rest},
			{sql: s.createDistributed(name, key)},
		}, nil
	}
	if m := createAsRe.FindStringSubmatch(stmt); m != nil {
		// A Buffer in front of a Distributed table: each node buffers what
		// it is sent and flushes it into the Distributed table.
		return []ddl{{sql: "CREATE TABLE IF NOT EXISTS " + q(m[1]) + on + " AS " + q(m[2]+localSuffix) + m[3]}}, nil
	}
	if m := alterAddRe.FindStringSubmatch(stmt); m != nil {
		// The local tables are altered on one replica of each shard, which
		// passes the change on to the others (eachShard). The server
		// refuses an ALTER ON CLUSTER of a Distributed table over
		// replicated shards (code 371), but alters it on each node in
		// place (eachNode): the table stays readable throughout, where
		// dropping and making it again left a moment with no such table,
		// and reads failed. A node that lacks the table gets it, with the
		// new columns, from the CREATE after.
		key, ok := shardingKeys[m[1]]
		if !ok {
			return nil, fmt.Errorf("cluster mode: table %s has no sharding key (shardingKeys, cluster.go)", m[1])
		}
		return []ddl{
			{sql: "ALTER TABLE " + q(m[1]+localSuffix) + " " + m[2], eachShard: true},
			{sql: "ALTER TABLE " + q(m[1]) + " " + m[2], eachNode: true},
			{sql: s.createDistributed(m[1], key)},
		}, nil
	}
	if m := truncateRe.FindStringSubmatch(stmt); m != nil {
		return []ddl{{sql: "TRUNCATE TABLE IF EXISTS " + q(m[1]+localSuffix) + on}}, nil
	}
	if m := dropTableRe.FindStringSubmatch(stmt); m != nil {
		return []ddl{{sql: "DROP TABLE IF EXISTS " + q(m[1]) + on}}, nil
	}
	if m := createMVRe.FindStringSubmatch(stmt); m != nil {
		// A view sees the inserts of the node it is on: over local tables.
		return []ddl{{sql: "CREATE MATERIALIZED VIEW IF NOT EXISTS " + q(m[1]) + on + " TO " + q(m[2]+localSuffix) +
			" AS " + m[3] + " FROM " + q(m[4]+localSuffix) + m[5]}}, nil
	}
	if insertRe.MatchString(stmt) {
		return []ddl{{sql: stmt}}, nil
	}
	return nil, fmt.Errorf("cluster mode: no rendering for the statement %.60q", stmt)
}

// createDistributed creates the Distributed table name over its local
// table on every node, sharded by key.
func (s *Store) createDistributed(name, key string) string {
	return "CREATE TABLE IF NOT EXISTS " + s.qualified(name) + s.onCluster() + " AS " + s.qualified(name+localSuffix) +
		" ENGINE = Distributed(" + quoteIdent(s.cfg.Cluster) + ", " + quoteIdent(s.database) + ", " + name + localSuffix + ", " + key + ")"
}

// schemaMigrationsDDL creates the table of applied migrations: on one
// server a local table; in cluster mode one replicated table with a replica
// on every node (its path has no {shard}), so that any node answers which
// migrations ran.
func (s *Store) schemaMigrationsDDL() string {
	const cols = ` (
    version    String,
    applied_at DateTime('UTC')
) ENGINE = `
	if !s.clustered() {
		return "CREATE TABLE IF NOT EXISTS schema_migrations" + cols + "ReplacingMergeTree ORDER BY version"
	}
	// Its path has no {shard}: one replica on every node.
	path := quoteString("/clickhouse/tables/all/" + s.database + "/schema_migrations")
	return "CREATE TABLE IF NOT EXISTS " + s.qualified("schema_migrations") + s.onCluster() + cols +
		"ReplicatedReplacingMergeTree(" + path + ", '{replica}') ORDER BY version"
}

// ClickHouse error codes of a cluster that is partly unreachable.
const (
	codeUnknownTable          = 60  // UNKNOWN_TABLE
	codeNetworkError          = 210 // NETWORK_ERROR: a shard's connection failed mid-query
	codeNoZooKeeper           = 225 // NO_ZOOKEEPER
	codeTableIsReadOnly       = 242 // TABLE_IS_READ_ONLY: a replicated table without its ZooKeeper session
	codeAllConnectionsFailed  = 279 // ALL_CONNECTION_TRIES_FAILED: no replica of a shard answers
	codeUnknownStatusOfInsert = 319 // UNKNOWN_STATUS_OF_INSERT: retry the identical block
	codeKeeperException       = 999 // KEEPER_EXCEPTION: ZooKeeper session lost or refused
)

// clusterUnavailable reports whether code says that part of the cluster
// (a shard, or ZooKeeper) cannot be reached: the caller may retry later.
func clusterUnavailable(code int32) bool {
	switch code {
	case codeNetworkError, codeNoZooKeeper, codeTableIsReadOnly, codeAllConnectionsFailed,
		codeUnknownStatusOfInsert, codeKeeperException:
		return true
	}
	return false
}

// clusterDDLError explains a failed migration statement whose cause is the
// cluster's coordination rather than the statement.
func clusterDDLError(err error) error {
	var ex *ch.Exception
	if !errors.As(err, &ex) {
		return err
	}
	switch {
	case ex.Code == codeNoZooKeeper || ex.Code == codeKeeperException || ex.Code == codeTableIsReadOnly:
		return fmt.Errorf("ZooKeeper (or ClickHouse Keeper) is unreachable from the cluster, so no DDL can run; "+
			"start it and run fourd migrate again: %w", err)
	case ex.Code == codeTimeoutExceeded && strings.Contains(ex.Message, "distributed_ddl"):
		return fmt.Errorf("a node of the cluster did not run the DDL in time (down?); it runs it when it is back, "+
			"and fourd migrate can be run again to finish: %w", err)
	}
	return err
}

// execDDL runs a rendered statement.
func (s *Store) execDDL(ctx context.Context, d ddl) error {
	if d.eachShard {
		return s.onEachShard(ctx, func(err error) bool { return columnAlreadyAdded(d.sql, err) }, d.sql)
	}
	if d.eachNode {
		return s.onEachNode(ctx, d.sql)
	}
	return s.conn.Exec(ctx, d.sql)
}

// onEachNode runs stmt, an ALTER … ADD COLUMN of a Distributed table, on
// every node of the cluster: a node where the column exists (a rerun) or
// the table does not (made after, by createDistributed) is fine; a node
// that cannot be reached fails the migration, naming it, and a rerun
// finishes the job.
func (s *Store) onEachNode(ctx context.Context, stmt string) error {
	shards, err := s.shardReplicas(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, replicas := range shards {
		for _, addr := range replicas {
			err := s.execOn(ctx, addr, stmt)
			var ex *ch.Exception
			if err != nil && !columnAlreadyAdded(stmt, err) && !(errors.As(err, &ex) && ex.Code == codeUnknownTable) {
				errs = append(errs, fmt.Errorf("node %s: %w", addr, err))
			}
		}
	}
	return errors.Join(errs...)
}

// alterLocal runs "ALTER TABLE <table> <clause>" on the table's rows: on
// the table itself on one server, on its local tables in cluster mode
// (onEachShard).
func (s *Store) alterLocal(ctx context.Context, table, clause string, args ...any) error {
	if !s.clustered() {
		return s.conn.Exec(ctx, "ALTER TABLE "+table+" "+clause, args...)
	}
	return s.onEachShard(ctx, nil, "ALTER TABLE "+s.qualified(table+localSuffix)+" "+clause, args...)
}

// onEachShard runs stmt, an ALTER of a replicated local table, on one
// replica of every shard of the cluster, trying the next replica when one
// cannot be reached: that replica passes the change on to the others
// through ZooKeeper. An error that ignore accepts is no error. ALTER … ON CLUSTER would do the same, but on 18.16 the
// replicas of a shard race for it, and the loser's DDL worker (after a
// ZooKeeper "node exists" error) never finished the task, which stopped
// every later DDL statement of the cluster on that node.
func (s *Store) onEachShard(ctx context.Context, ignore func(error) bool, stmt string, args ...any) error {
	shards, err := s.shardReplicas(ctx)
	if err != nil {
		return err
	}
	if sc := scopeOf(ctx); sc != nil && sc.write != "" && s.router != nil && len(shards) == len(s.router.shards) {
		// A scoped call's mutation touches only the rows of the snapshot it
		// writes (deleteSnapshotRows): they are all on its shard.
		only := s.router.shardOf(snapshotKey(sc.tenant, sc.write))
		for i := range shards {
			if i != only {
				shards[i] = nil
			}
		}
	}
	var errs []error
	for i, replicas := range shards {
		if replicas == nil {
			continue
		}
		err := errNoReplica
		for _, addr := range replicas {
			if err = s.execOn(ctx, addr, stmt, args...); err == nil || !isUnavailable(err) {
				break
			}
		}
		if err != nil && (ignore == nil || !ignore(err)) {
			errs = append(errs, fmt.Errorf("shard %d: %w", i+1, err))
		}
	}
	return errors.Join(errs...)
}

// errNoReplica: the cluster lists a shard without replicas.
var errNoReplica = errors.New("the shard has no replica in system.clusters")

// shardReplicas lists the native addresses of every shard's replicas, in
// shard order, as the node's system.clusters has them.
func (s *Store) shardReplicas(ctx context.Context) ([][]string, error) {
	rows, err := s.conn.Query(ctx, `SELECT shard_num, host_address, port FROM system.clusters
WHERE cluster = ? ORDER BY shard_num, replica_num`, s.cfg.Cluster)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][]string
	last := uint32(0)
	for rows.Next() {
		var shard uint32
		var host string
		var port uint16
		if err := rows.Scan(&shard, &host, &port); err != nil {
			return nil, err
		}
		if shard != last || len(out) == 0 {
			out = append(out, nil)
			last = shard
		}
		out[len(out)-1] = append(out[len(out)-1], net.JoinHostPort(host, strconv.Itoa(int(port))))
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: %q has no shards in system.clusters", ErrUnknownCluster, s.cfg.Cluster)
	}
	return out, nil
}

// execOn runs stmt on the node at addr, over a connection of its own with
// the store's options.
func (s *Store) execOn(ctx context.Context, addr, stmt string, args ...any) error {
	opts := *s.opts
	opts.Addr = []string{addr}
	opts.MaxOpenConns, opts.MaxIdleConns = 1, 1
	conn, err := ch.Open(&opts)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Exec(ctx, stmt, args...)
}

// globalSubqueries rewrites a query for Distributed tables: a subquery of
// IN, NOT IN or a JOIN runs once, on the node that got the query, over the
// whole cluster (GLOBAL), instead of on every shard over the Distributed
// table again, which the server refuses (distributed_product_mode = deny)
// and which would see only part of the rows if allowed as local. The
// store's SQL writes those subqueries in these spellings only.
var globalSubqueries = strings.NewReplacer(
	" NOT IN (SELECT", " GLOBAL NOT IN (SELECT",
	" IN (SELECT", " GLOBAL IN (SELECT",
	"\nANY LEFT JOIN (", "\nGLOBAL ANY LEFT JOIN (",
	" ANY LEFT JOIN (", " GLOBAL ANY LEFT JOIN (",
)
