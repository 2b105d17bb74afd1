package clickhouse_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// A writer's INSERT, once prepared, is not interrupted by its context:
// the driver's batch watchdog closed the connection on cancellation, also
// after Send had returned it to the pool, under whichever query took it
// next. Writers cancel their contexts right after their writes, so the
// batch must outlive the cancellation; a context already ended still
// refuses to start one.
func TestWriteBatchOutlivesItsContext(t *testing.T) {
	s := chtest.New(t)
	const insert = "INSERT INTO resource_sightings (tenant_id, id, last_seen_at)"
	ctx, cancel := context.WithCancel(context.Background())
	b, err := s.PrepareWriteBatch(ctx, insert)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Append("ten_cancel", "res_x", time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	cancel()
	time.Sleep(50 * time.Millisecond) // time for a watchdog to act on it
	if err := b.Send(); err != nil {
		t.Fatalf("Send after the context was canceled: %v", err)
	}
	if n := countRows(t, s, "resource_sightings", "ten_cancel"); n != 1 {
		t.Errorf("%d rows written, want 1", n)
	}

	if _, err := s.PrepareWriteBatch(ctx, insert); !errors.Is(err, context.Canceled) {
		t.Errorf("prepare with a canceled context: %v, want context.Canceled", err)
	}
	past, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	if _, err := s.PrepareWriteBatch(past, insert); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("prepare past its deadline: %v, want context.DeadlineExceeded", err)
	}
}
