package clickhouse

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// extraMigrations, when set, holds more migrations (a migrations/ folder)
// that Migrate applies after those of migrationFS, in one file-name order:
// only the test build of migrate_rolling.go sets it.
var extraMigrations fs.FS

// migration is one embedded .sql file: statements separated by ";" at the
// end of a line (the server accepts one statement per query).
type migration struct {
	version    string
	statements []string
}

// loadMigrations reads the embedded migrations in file-name order.
func loadMigrations(fsys fs.FS) ([]migration, error) {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []migration
	for _, name := range names {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		m := migration{version: strings.TrimSuffix(strings.TrimPrefix(name, "migrations/"), ".sql")}
		m.statements = splitStatements(string(b))
		if len(m.statements) == 0 {
			return nil, fmt.Errorf("migration %s has no statement", name)
		}
		out = append(out, m)
	}
	return out, nil
}

// splitStatements splits SQL text on semicolons that end a line and drops
// comment-only and empty pieces.
func splitStatements(sql string) []string {
	var out []string
	for _, part := range strings.Split(sql, ";\n") {
		var body []string
		for _, line := range strings.Split(part, "\n") {
			if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "--") {
				body = append(body, line)
			}
		}
		if stmt := strings.TrimSuffix(strings.TrimSpace(strings.Join(body, "\n")), ";"); stmt != "" {
			out = append(out, stmt)
		}
	}
	return out
}

// migrateTimeout bounds Migrate when its context has no deadline. Some
// migrations copy data (0012 moves every finding snapshot: 102M rows took
// 4 min 17 s on the development machine), so it is far longer than a
// write's: a copy cut short is started again from the beginning.
const migrateTimeout = 6 * time.Hour

// Migrate applies the embedded migrations that the database has not seen,
// each once, recording them in schema_migrations. A rerun after a failure
// half-way through a file is safe: every statement is idempotent (IF NOT
// EXISTS; 0012 empties the table it fills first). Two processes must not
// migrate at once (0012 would copy twice): cmd/fourd takes a PostgreSQL
// session lock around it.
func (s *Store) Migrate(ctx context.Context) (err error) {
	defer wrap(&err, "Migrate")
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, migrateTimeout)
		defer cancel()
	}
	if s.clustered() {
		// Every node gets the database (a node added or rebuilt lacks it).
		if err := s.conn.Exec(ctx, "CREATE DATABASE IF NOT EXISTS "+quoteIdent(s.database)+s.onCluster()); err != nil {
			return clusterDDLError(err)
		}
	}
	if err := s.conn.Exec(ctx, s.schemaMigrationsDDL()); err != nil {
		return clusterDDLError(err)
	}
	applied, err := s.appliedMigrations(ctx)
	if err != nil {
		return err
	}
	migs, err := loadMigrations(migrationFS)
	if err != nil {
		return err
	}
	if extraMigrations != nil {
		more, err := loadMigrations(extraMigrations)
		if err != nil {
			return err
		}
		migs = append(migs, more...)
		sort.SliceStable(migs, func(i, j int) bool { return migs[i].version < migs[j].version })
	}
	for _, m := range migs {
		if applied[m.version] {
			continue
		}
		for i, stmt := range m.statements {
			rendered, err := s.renderStatement(stmt)
			if err != nil {
				return fmt.Errorf("migration %s statement %d: %w", m.version, i+1, err)
			}
			for _, r := range rendered {
				if err := s.execDDL(ctx, r); err != nil && !columnAlreadyAdded(r.sql, err) {
					return fmt.Errorf("migration %s statement %d: %w", m.version, i+1, clusterDDLError(err))
				}
			}
		}
		b, err := s.prepareBatch(ctx, "INSERT INTO schema_migrations (version, applied_at)")
		if err != nil {
			return err
		}
		if err := b.Append(m.version, s.cfg.Now()); err != nil {
			b.Abort()
			return err
		}
		if err := b.Send(); err != nil {
			return err
		}
		s.log.Info("clickhouse migration applied", "version", m.version, "database", s.database)
	}
	return nil
}

// quoteString is s as a ClickHouse string literal.
func quoteString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// columnAlreadyAdded reports whether stmt adds a column that exists (code
// 44): 18.16 has no ADD COLUMN IF NOT EXISTS, and a replica migrating at
// the same time, or a rerun after a failure, may have added it already.
func columnAlreadyAdded(stmt string, err error) bool {
	var ex *ch.Exception
	return errors.As(err, &ex) && ex.Code == 44 && strings.Contains(stmt, "ADD COLUMN") &&
		strings.Contains(ex.Message, "already exists")
}

// appliedMigrations returns the versions recorded in schema_migrations.
func (s *Store) appliedMigrations(ctx context.Context) (map[string]bool, error) {
	rows, err := s.conn.Query(ctx, "SELECT DISTINCT version FROM schema_migrations")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out[v] = true
	}
	return out, rows.Err()
}

// AppliedMigrations lists the migration versions the database has, in order.
func (s *Store) AppliedMigrations(ctx context.Context) (_ []string, err error) {
	defer wrap(&err, "AppliedMigrations")
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	m, err := s.appliedMigrations(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(m))
	for v := range m {
		out = append(out, v)
	}
	sort.Strings(out)
	return out, nil
}
