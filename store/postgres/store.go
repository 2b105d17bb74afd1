// Package postgres is fourd's PostgreSQL store: tenants, users, tokens,
// policies, and the audit, report and event queues (what people configure
// and what must change atomically). It implements engine's control-plane
// store interfaces and holds all of their SQL, with its migrations embedded.
package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/storemetrics"
)

var (
	_ engine.TenantStore = (*Store)(nil)
	_ engine.AuditStore  = (*Store)(nil)
	_ engine.Pinger      = (*Store)(nil)
)

//go:embed migrations/*.sql
var migrations embed.FS

// extraMigrations, when set, holds more goose migrations (*.sql at its
// root) that Migrations adds to the embedded ones: only the test build of
// migrate_rolling.go sets it.
var extraMigrations fs.FS

// Migrations returns the embedded goose migrations (for tools and tests that
// need to know the schema version, such as pgtest's template databases).
func Migrations() fs.FS {
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		panic("postgres: embedded migrations: " + err.Error()) // cannot happen: the folder is embedded
	}
	if extraMigrations != nil {
		return unionFS{sub, extraMigrations}
	}
	return sub
}

// Config is what Open needs.
type Config struct {
	// URL is a PostgreSQL connection string, postgres://user@host:port/db?….
	URL string
	// Logger receives migration progress and warnings; default slog.Default().
	Logger *slog.Logger
	// Now is the clock for created_at stamps, new ids and worker leases;
	// default time.Now.
	Now func() time.Time
	// MaxConns bounds the connection pool; 0 keeps pgx's default.
	MaxConns int
}

// Validate reports the first invalid field.
func (c Config) Validate() error {
	if c.URL == "" {
		return errors.New("postgres: URL is required")
	}
	if _, err := pgxpool.ParseConfig(c.URL); err != nil {
		return fmt.Errorf("postgres: URL: %w", err)
	}
	if c.MaxConns < 0 {
		return fmt.Errorf("postgres: MaxConns must not be negative; got %d", c.MaxConns)
	}
	return nil
}

// Store is the PostgreSQL store. It is safe for concurrent use, and several
// processes may share one database.
type Store struct {
	pool *pgxpool.Pool
	log  *slog.Logger
	now  func() time.Time
	// metrics times the calls the engine makes (SetMetrics); nil
	// times nothing.
	metrics *storemetrics.Metrics
}

// SetMetrics makes the store time its calls into m (package storemetrics).
// Call it before the store is used; cmd/fourd serve does, with the registry
// behind /metrics.
func (s *Store) SetMetrics(m *storemetrics.Metrics) { s.metrics = m }

// Open connects to the database and checks that it answers.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	pc, err := pgxpool.ParseConfig(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("postgres: URL: %w", err)
	}
	if cfg.MaxConns > 0 {
		pc.MaxConns = int32(cfg.MaxConns)
	}
	if pc.ConnConfig.ConnectTimeout == 0 {
		pc.ConnConfig.ConnectTimeout = defaultConnectTimeout * time.Second
	}
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("postgres: connecting: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: connecting to %s:%d: %w", pc.ConnConfig.Host, pc.ConnConfig.Port, err)
	}
	s := &Store{pool: pool, log: cfg.Logger, now: cfg.Now}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s, nil
}

// Close closes every connection of the pool.
func (s *Store) Close() { s.pool.Close() }

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	err := s.pool.Ping(ctx)
	wrap(&err, "ping")
	return err
}

// SessionLock takes the session advisory lock named name on a connection
// of its own, waiting while another session holds it (or until ctx ends),
// and returns its release. Processes sharing the database use it to take
// turns at work that no transaction covers, such as ClickHouse's
// migrations, some of which copy data and must not run twice at once.
func (s *Store) SessionLock(ctx context.Context, name string) (release func(), err error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("postgres: lock %s: %w", name, err)
	}
	const key = "hashtextextended('fourd.lock ' || $1, 0)"
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock("+key+")", name); err != nil {
		conn.Release()
		return nil, fmt.Errorf("postgres: lock %s: %w", name, err)
	}
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := conn.Exec(ctx, "SELECT pg_advisory_unlock("+key+")", name); err != nil {
			// The lock goes with its session: close the connection.
			conn.Conn().Close(ctx)
		}
		conn.Release()
	}, nil
}

// Migrate applies the embedded migrations that the database lacks. It is a
// no-op when the schema is current, and safe to run from several processes
// at once (a session advisory lock serializes them).
func (s *Store) Migrate(ctx context.Context) error {
	db := stdlib.OpenDBFromPool(s.pool)
	defer db.Close()
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return fmt.Errorf("postgres: migration lock: %w", err)
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, Migrations(),
		goose.WithSessionLocker(locker), goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return fmt.Errorf("postgres: migrations: %w", err)
	}
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("postgres: migrating: %w", err)
	}
	for _, r := range results {
		s.log.InfoContext(ctx, "applied migration", "version", r.Source.Version,
			"file", r.Source.Path, "duration", r.Duration)
	}
	return nil
}
