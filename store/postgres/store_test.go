package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/store/postgres"
	"github.com/fourd-dev/fourd/store/postgres/pgtest"
)

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		cfg     postgres.Config
		wantErr bool
	}{
		{"ok", postgres.Config{URL: pgtest.DefaultURL}, false},
		{"ok with pool size", postgres.Config{URL: pgtest.DefaultURL, MaxConns: 4}, false},
		{"missing URL", postgres.Config{}, true},
		{"malformed URL", postgres.Config{URL: "postgres://%zz"}, true},
		{"negative pool size", postgres.Config{URL: pgtest.DefaultURL, MaxConns: -1}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Validate()
			if (err != nil) != tt.wantErr {
				t.Errorf("Validate() = %v; want error %v", err, tt.wantErr)
			}
		})
	}
}

func TestOpenUnreachable(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// Port 1 on the loopback refuses connections at once.
	s, err := postgres.Open(ctx, postgres.Config{URL: "postgres://fourd@127.0.0.1:1/fourd?sslmode=disable&connect_timeout=2"})
	if err == nil {
		s.Close()
		t.Fatal("Open of an unreachable server succeeded")
	}
}

func TestMigrateTwiceIsNoOp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.NewDatabase(t) // already migrated once, as a template copy
	s, err := postgres.Open(ctx, postgres.Config{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 2 {
		if err := s.Migrate(ctx); err != nil {
			t.Fatalf("Migrate #%d: %v", i+1, err)
		}
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	// The schema works after the repeated migrations.
	if _, err := s.EnsureTenant(ctx, "acme", "Acme"); err != nil {
		t.Fatalf("EnsureTenant after Migrate: %v", err)
	}
}

func TestMigrateFreshDatabase(t *testing.T) {
	t.Parallel()
	// A database whose schema was dropped migrates from scratch, twice.
	ctx := context.Background()
	url := pgtest.NewDatabase(t)
	s, err := postgres.Open(ctx, postgres.Config{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := postgres.ResetSchemaForTest(ctx, s); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EnsureTenant(ctx, "acme", "Acme"); err == nil {
		t.Fatal("EnsureTenant succeeded without a schema")
	}
	for i := range 2 {
		if err := s.Migrate(ctx); err != nil {
			t.Fatalf("Migrate #%d: %v", i+1, err)
		}
	}
	if _, err := s.EnsureTenant(ctx, "acme", "Acme"); err != nil {
		t.Fatalf("EnsureTenant after Migrate: %v", err)
	}
}

// A session lock is held by one session at a time, per name: a second
// taker waits for the release (or gives up when its context ends), and
// another name is free meanwhile.
func TestSessionLock(t *testing.T) {
	t.Parallel()
	s := pgtest.New(t)
	ctx := context.Background()
	release, err := s.SessionLock(ctx, "clickhouse migrations")
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if r, err := s.SessionLock(short, "clickhouse migrations"); err == nil {
		r()
		t.Fatal("the lock was taken twice")
	}
	other, err := s.SessionLock(ctx, "something else")
	if err != nil {
		t.Fatalf("another name waits: %v", err)
	}
	other()
	got := make(chan error, 1)
	go func() {
		r, err := s.SessionLock(ctx, "clickhouse migrations")
		if err == nil {
			r()
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("taken while held: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	release()
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("not taken after the release")
	}
}
