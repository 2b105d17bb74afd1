// Package clickhouse is fourd's analytics store on ClickHouse: immutable
// finding snapshots (one per completed audit) with per-snapshot counts, and
// the inventory as a stream of resource observations. It implements
// engine.FindingStore, engine.ResourceStore and engine.Pinger, and holds every
// ClickHouse statement of the project. The SQL is the subset that both
// ClickHouse 18.16 (what tests run against) and current releases accept; see
// docs/clickhouse.md in the shared folder.
package clickhouse

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"golang.org/x/sync/singleflight"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/cache"
	"github.com/fourd-dev/fourd/store/storemetrics"
)

// Compile-time proof that *Store is what engine needs.
var (
	_ engine.FindingStore  = (*Store)(nil)
	_ engine.ResourceStore = (*Store)(nil)
	_ engine.Pinger        = (*Store)(nil)
)

// Defaults for the zero values of Config.
const (
	DefaultMaxExecutionTime = 60 * time.Second
	DefaultQueryTimeout     = 30 * time.Second
	DefaultWriteTimeout     = 10 * time.Minute
	DefaultBatchSize        = 500_000
	// Room for three snapshot writes (connectionsPerSnapshot) and reads:
	// the engine runs two audits at once beside the API's reads.
	DefaultMaxOpenConns = 20
)

// Config configures a Store. Only URL is required.
type Config struct {
	// URL is a native-protocol address: clickhouse://[user[:pass]@]host:port/database[?opts].
	// Options are the driver's (dial_timeout, compress, …) plus ClickHouse
	// settings, which must have integer or boolean values (18.16 accepts no
	// others from the client).
	URL    string
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// MaxExecutionTime bounds every query on the server (max_execution_time),
	// because canceling a context does not stop a query there.
	MaxExecutionTime time.Duration
	// QueryTimeout is the deadline given to a read whose context has none.
	QueryTimeout time.Duration
	// WriteTimeout is the deadline given to a write whose context has none.
	WriteTimeout time.Duration
	// BatchSize is the most rows per INSERT of a snapshot (a run, held
	// in runBuckets batches: findings_write.go).
	BatchSize int
	// MaxOpenConns caps the connection pool.
	MaxOpenConns int
	// Cluster, when set, is the name of the ClickHouse cluster (in the
	// servers' remote_servers) the store runs on: replicated local tables
	// and Distributed tables over them (cluster.go). Empty: one server.
	Cluster string
}

// Validate reports a configuration that Open would reject.
func (c Config) Validate() error {
	if c.URL == "" {
		return errors.New("clickhouse: Config.URL is required")
	}
	u, err := url.Parse(c.URL)
	if err != nil {
		return fmt.Errorf("clickhouse: Config.URL: %v", redact(err))
	}
	if u.Scheme != "clickhouse" && u.Scheme != "tcp" {
		return fmt.Errorf("clickhouse: Config.URL must use the native protocol (clickhouse://host:port/db), not %q", u.Scheme)
	}
	if u.Host == "" {
		return errors.New("clickhouse: Config.URL has no host")
	}
	if c.MaxExecutionTime < 0 || (c.MaxExecutionTime > 0 && c.MaxExecutionTime < time.Second) {
		return errors.New("clickhouse: Config.MaxExecutionTime must be at least one second")
	}
	if c.QueryTimeout < 0 || c.WriteTimeout < 0 || c.BatchSize < 0 || c.MaxOpenConns < 0 {
		return errors.New("clickhouse: Config timeouts and sizes must not be negative")
	}
	opts, err := ch.ParseDSN(c.URL)
	if err != nil {
		return fmt.Errorf("clickhouse: Config.URL: %v", redact(err))
	}
	for k, v := range opts.Settings {
		switch v.(type) {
		case int, bool:
		default:
			return fmt.Errorf("clickhouse: setting %s in Config.URL must be an integer or a boolean", k)
		}
	}
	return nil
}

// redact drops the URL (which may hold a password) from a parse error.
func redact(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// Store is the ClickHouse analytics store. It is safe for concurrent use.
type Store struct {
	conn     driver.Conn
	opts     *ch.Options // what conn was opened with (cluster mode opens more: cluster.go)
	cfg      Config
	log      *slog.Logger
	database string
	totals   *cache.LRU[totalsKey, []uint64]       // totals_cache.go
	ranges   *cache.LRU[uint64, firstSeenRange]    // first_seen_range.go
	texts    *cache.LRU[textCacheKey, findingText] // finding_texts.go
	memo     *filterMemo                           // filter_memo.go
	flight   singleflight.Group                    // filter_memo_flight.go
	qBuilds  qIndexBuilds                          // resource_tokens.go
	// snapshotSlots bounds the snapshot writes at once, each holding
	// connectionsPerSnapshot of the pool (see snapshotWriteSlots).
	snapshotSlots chan struct{}
	// router routes a tenant's queries to its shards in cluster mode
	// (shards.go); nil on one server.
	router *router
	// written counts the rows of the snapshots an audit is writing, which
	// their shard's replicas must hold (replica_wait.go); cluster mode only.
	written writtenRows
	// metrics times the calls the engine makes (SetMetrics); nil
	// times nothing.
	metrics *storemetrics.Metrics
}

// SetMetrics makes the store time its calls into m (package storemetrics).
// Call it before the store is used; cmd/fourd serve does, with the registry
// behind /metrics.
func (s *Store) SetMetrics(m *storemetrics.Metrics) { s.metrics = m }

// connectionsPerSnapshot is what one snapshot write may hold of the
// connection pool at a time: each sender's two open INSERTs and one more
// for a batch's new rule texts.
const connectionsPerSnapshot = 2*snapshotInserters + 1

// snapshotWriteSlots is how many snapshot writes may run at once with a
// pool of maxConns: more would wait for connections that the others hold
// while they wait too. Two connections stay for reads; one write always
// may run (a smaller pool only waits longer).
func snapshotWriteSlots(maxConns int) int {
	return max(1, (maxConns-2)/connectionsPerSnapshot)
}

// Open connects to ClickHouse and checks the connection with a ping. It does
// not migrate: call Migrate.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MaxExecutionTime == 0 {
		cfg.MaxExecutionTime = DefaultMaxExecutionTime
	}
	if cfg.QueryTimeout == 0 {
		cfg.QueryTimeout = DefaultQueryTimeout
	}
	if cfg.WriteTimeout == 0 {
		cfg.WriteTimeout = DefaultWriteTimeout
	}
	if cfg.BatchSize == 0 {
		cfg.BatchSize = DefaultBatchSize
	}
	if cfg.MaxOpenConns == 0 {
		cfg.MaxOpenConns = DefaultMaxOpenConns
	}
	opts, err := ch.ParseDSN(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: Config.URL: %v", redact(err))
	}
	opts.Protocol = ch.Native
	if _, ok := opts.Settings["max_execution_time"]; !ok {
		opts.Settings["max_execution_time"] = int(cfg.MaxExecutionTime / time.Second)
	}
	if cfg.Cluster != "" {
		// A write returns once every shard has its rows (an error when one
		// cannot take them), not when they are queued on the node; a DDL
		// statement waits for a node that is down for a minute, not three.
		if _, ok := opts.Settings["insert_distributed_sync"]; !ok {
			opts.Settings["insert_distributed_sync"] = 1
		}
		if _, ok := opts.Settings["distributed_ddl_task_timeout"]; !ok {
			opts.Settings["distributed_ddl_task_timeout"] = 60
		}
		// A read through a Distributed table passes over a replica that
		// is behind (replicaFreshness, replica_wait.go).
		for k, v := range replicaFreshness {
			if _, ok := opts.Settings[k]; !ok {
				opts.Settings[k] = v
			}
		}
	}
	if opts.DialTimeout == 0 {
		opts.DialTimeout = 5 * time.Second
	}
	if opts.DialContext == nil && opts.TLS == nil {
		opts.DialContext = dialContext(opts.DialTimeout)
	}
	opts.MaxOpenConns = cfg.MaxOpenConns
	if opts.MaxIdleConns == 0 || opts.MaxIdleConns > cfg.MaxOpenConns {
		opts.MaxIdleConns = min(5, cfg.MaxOpenConns)
	}
	conn, err := ch.Open(opts)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: open: %w", err)
	}
	if cfg.Cluster != "" {
		conn = clusterConn{Conn: conn}
	}
	s := &Store{conn: conn, cfg: cfg, opts: opts, log: cfg.Logger, database: opts.Auth.Database,
		totals: newTotalsCache(), ranges: newRangeCache(), texts: newTextCache(), memo: newFilterMemo(),
		snapshotSlots: make(chan struct{}, snapshotWriteSlots(cfg.MaxOpenConns))}
	if s.database == "" {
		s.database = "default"
	}
	pctx, cancel := s.readCtx(ctx)
	defer cancel()
	if err := conn.Ping(pctx); err != nil {
		conn.Close()
		return nil, fmt.Errorf("clickhouse: ping %s: %w", s.database, err)
	}
	if s.clustered() {
		if err := s.checkCluster(pctx); err != nil {
			conn.Close()
			return nil, err
		}
		r, err := newRouter(pctx, conn, opts, cfg.Cluster)
		if err != nil {
			conn.Close()
			return nil, err
		}
		s.router = r
		s.conn = clusterConn{Conn: conn.(clusterConn).Conn, r: r}
	}
	return s, nil
}

// Close closes the connection pool.
func (s *Store) Close() error {
	if s.router != nil {
		s.router.close()
	}
	return s.conn.Close()
}

// Database is the name of the database the store works in.
func (s *Store) Database() string { return s.database }

// Ping checks that the server answers; unavailable when it does not.
func (s *Store) Ping(ctx context.Context) error {
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	if err := s.conn.Ping(ctx); err != nil {
		s.log.Warn("clickhouse ping failed", "err", err)
		return &engine.Error{Code: engine.CodeUnavailable, Message: "the analytics store is unavailable"}
	}
	return nil
}

// ServerVersion returns the server's version, to gate version-specific SQL.
func (s *Store) ServerVersion() (major, minor int, err error) {
	v, err := s.conn.ServerVersion()
	if err != nil {
		return 0, 0, fmt.Errorf("clickhouse: server version: %w", err)
	}
	return int(v.Version.Major), int(v.Version.Minor), nil
}

// readCtx gives a read a deadline when its context has none.
func (s *Store) readCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, s.cfg.QueryTimeout)
}

// writeCtx gives a write a deadline when its context has none.
func (s *Store) writeCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, s.cfg.WriteTimeout)
}

// prepareBatch starts an INSERT that the caller's context can no longer
// interrupt once started; the context's deadline (or the store's write
// timeout) still bounds it, as the connection's deadline. The driver
// (v2.50.0) closes a batch's connection from a watchdog goroutine when the
// batch's context ends, and that goroutine can still see the context end
// after Send has returned the connection to the pool: a writer canceling
// its context right after a Send, as every writer here does, then closed a
// connection another query had taken ("use of closed network connection").
// A batch sends at most one block of bounded size, so finishing it after a
// cancellation costs little; the store's cleanup of failed writes already
// assumes sent blocks may be written.
func (s *Store) prepareBatch(ctx context.Context, insert string) (driver.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d, ok := ctx.Deadline()
	if !ok {
		d = time.Now().Add(s.cfg.WriteTimeout)
	}
	return s.conn.PrepareBatch(deadlineOnly{Context: context.WithoutCancel(ctx), deadline: d}, insert)
}

// deadlineOnly is a context that is never done but reports a deadline, for
// the driver to set on the connection: its values are its parent's.
type deadlineOnly struct {
	context.Context
	deadline time.Time
}

func (c deadlineOnly) Deadline() (time.Time, bool) { return c.deadline, true }

// wrap turns a driver error into an error that says where it came from:
// unavailable when the server could not be reached or did not answer in
// time (isUnavailable), internal otherwise; engine errors pass through
// unchanged.
func wrap(err *error, format string, args ...any) {
	if *err == nil {
		return
	}
	var e *engine.Error
	if errors.As(*err, &e) {
		return
	}
	if isUnavailable(*err) {
		*err = fmt.Errorf("clickhouse: "+format+": %w: %w", append(args, errUnavailable, *err)...)
		return
	}
	*err = fmt.Errorf("clickhouse: "+format+": %w", append(args, *err)...)
}

// groupSet renders a Go slice as a ClickHouse IN list, (a, b, …).
func groupSet(ids []string) ch.GroupSet {
	v := make([]any, len(ids))
	for i, id := range ids {
		v[i] = id
	}
	return ch.GroupSet{Value: v}
}
