package clickhouse_test

import (
	"context"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

func TestOpenAndPing(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	if major, _, err := s.ServerVersion(); err != nil || major < 18 {
		t.Errorf("ServerVersion = %d, %v", major, err)
	}
	if _, err := clickhouse.Open(ctx, clickhouse.Config{URL: chtest.WithDatabase(t, chtest.URL(), "no_such_db_fourd")}); err == nil {
		t.Error("Open of a missing database succeeded")
	}
	if _, err := clickhouse.Open(ctx, clickhouse.Config{URL: "http://127.0.0.1:8123/default"}); err == nil {
		t.Error("Open over HTTP succeeded")
	}
	s.Close()
	if code := engine.ErrorCode(s.Ping(ctx)); code != engine.CodeUnavailable {
		t.Errorf("Ping after Close: code %q, want unavailable", code)
	}
}
