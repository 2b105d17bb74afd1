package main

import (
	"context"
	"log/slog"
	"sync"

	"github.com/fourd-dev/fourd/engine"
)

// startWorkers runs the background workers of serve until ctx is done.
func startWorkers(ctx context.Context, wg *sync.WaitGroup, svc *engine.Service, log *slog.Logger, worker string) {
}
