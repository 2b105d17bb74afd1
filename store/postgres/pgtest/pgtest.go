// Package pgtest gives each test its own migrated PostgreSQL database on the
// server named by FOURD_TEST_POSTGRES_URL (default: the local server that
// scripts/services.sh starts), and drops it when the test ends.
//
// The schema is migrated once into a template database named after a hash of
// the migrations; every test database is a copy of it (CREATE DATABASE …
// TEMPLATE), which takes milliseconds instead of a migration per test.
package pgtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/store/postgres"
)

// DefaultURL is the server used when FOURD_TEST_POSTGRES_URL is unset.
const DefaultURL = "postgres://fourd@127.0.0.1:55432/fourd?sslmode=disable"

// templateLockID serializes template creation across test processes (go
// test runs packages in parallel) with a PostgreSQL advisory lock.
const templateLockID = 0x666f7572_64746d70 // "fourdtmp"

// template is the per-process memo of the template database's name.
var template struct {
	sync.Mutex
	name string
}

// ServerURL returns the server URL tests use: FOURD_TEST_POSTGRES_URL, or
// DefaultURL when it is unset.
func ServerURL() string {
	if u := os.Getenv("FOURD_TEST_POSTGRES_URL"); u != "" {
		return u
	}
	return DefaultURL
}

// New returns a Store on a fresh migrated database, closed and dropped when
// the test ends.
func New(t testing.TB) *postgres.Store {
	t.Helper()
	return Open(t, postgres.Config{})
}

// Open is New with the given configuration (a clock, a logger); its URL is
// replaced by the fresh database's.
func Open(t testing.TB, cfg postgres.Config) *postgres.Store {
	t.Helper()
	cfg.URL = NewDatabase(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := postgres.Open(ctx, cfg)
	if err != nil {
		t.Fatalf("pgtest: opening the test database: %v", err)
	}
	t.Cleanup(s.Close)
	storeURLs.Store(s, cfg.URL)
	t.Cleanup(func() { storeURLs.Delete(s) })
	return s
}

// NewDatabase creates a fresh migrated database t_<random> and returns its
// URL; the database is dropped (with FORCE, so open connections do not keep
// it) when the test ends. When the server does not answer the test is
// skipped, or fails when the environment variable CI is "true".
func NewDatabase(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	server := ServerURL()
	admin := connect(t, ctx, server)
	defer admin.Close(context.Background())

	name, err := create(ctx, admin, server)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := drop(ctx, server, name); err != nil {
			t.Errorf("pgtest: %v", err)
		}
	})
	u, err := withDatabase(server, name)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	return u
}

// create makes a new database from the template and returns its name.
func create(ctx context.Context, admin *pgx.Conn, server string) (string, error) {
	tmpl, err := ensureTemplate(ctx, admin, server)
	if err != nil {
		return "", fmt.Errorf("preparing the template database: %w", err)
	}
	name := "t_" + randomHex(8)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name+" TEMPLATE "+tmpl); err != nil {
		return "", fmt.Errorf("creating database %s: %w", name, err)
	}
	return name, nil
}

// drop drops a test database, closing any connection left to it.
func drop(ctx context.Context, server, name string) error {
	c, err := pgx.Connect(ctx, server)
	if err != nil {
		return fmt.Errorf("dropping database %s: %w", name, err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("dropping database %s: %w", name, err)
	}
	return nil
}

// connect opens a connection to the server's maintenance database, skipping
// or failing the test when the server is unreachable.
func connect(t testing.TB, ctx context.Context, server string) *pgx.Conn {
	t.Helper()
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	c, err := pgx.Connect(cctx, server)
	if err != nil {
		msg := fmt.Sprintf("pgtest: PostgreSQL at %s is not reachable (%v); start it with `make services` or set FOURD_TEST_POSTGRES_URL", redact(server), err)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return c
}

// ensureTemplate returns the name of the template database holding the
// current migrations, creating it when this process has not yet seen it.
func ensureTemplate(ctx context.Context, admin *pgx.Conn, server string) (string, error) {
	template.Lock()
	defer template.Unlock()
	if template.name != "" {
		return template.name, nil
	}
	name, err := templateName()
	if err != nil {
		return "", err
	}
	if _, err := admin.Exec(ctx, "SELECT pg_advisory_lock($1)", int64(templateLockID)); err != nil {
		return "", err
	}
	defer admin.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", int64(templateLockID))

	var ready bool
	err = admin.QueryRow(ctx, "SELECT datistemplate FROM pg_database WHERE datname = $1", name).Scan(&ready)
	switch {
	case err == nil && ready:
		template.name = name
		return name, nil
	case err == nil: // left half-made by a process that died: start over
		if _, err := admin.Exec(ctx, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			return "", err
		}
	case err != pgx.ErrNoRows:
		return "", err
	}
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name+" TEMPLATE template0"); err != nil {
		return "", err
	}
	if err := migrate(ctx, server, name); err != nil {
		return "", err
	}
	// Marking it a template (and closed to connections) is the sign that it
	// is complete.
	if _, err := admin.Exec(ctx, "ALTER DATABASE "+name+" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false"); err != nil {
		return "", err
	}
	template.name = name
	return name, nil
}

func migrate(ctx context.Context, server, name string) error {
	u, err := withDatabase(server, name)
	if err != nil {
		return err
	}
	s, err := postgres.Open(ctx, postgres.Config{URL: u})
	if err != nil {
		return err
	}
	defer s.Close()
	return s.Migrate(ctx)
}

// templateName is t_tmpl_ and a hash of the embedded migrations, so that a
// changed migration gets a new template.
func templateName() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(postgres.Migrations(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(postgres.Migrations(), path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", path, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("reading migrations: %w", err)
	}
	return "t_tmpl_" + hex.EncodeToString(h.Sum(nil))[:16], nil
}

// withDatabase returns the server URL pointing at another database.
func withDatabase(server, name string) (string, error) {
	u, err := url.Parse(server)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return "", fmt.Errorf("FOURD_TEST_POSTGRES_URL must be a postgres:// URL; got %q", redact(server))
	}
	u.Path = "/" + name
	return u.String(), nil
}

// redact hides a password in a URL for messages.
func redact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("pgtest: crypto/rand: " + err.Error())
	}
	return hex.EncodeToString(b)
}
