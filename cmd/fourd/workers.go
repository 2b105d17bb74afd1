package main

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// auditWorkers is how many audits one serve process runs at once; an audit
// is CPU-bound and streams, so one per core is plenty.
const auditWorkers = 2

// startWorkers runs the background workers of serve until ctx is done.
func startWorkers(ctx context.Context, wg *sync.WaitGroup, svc *engine.Service, log *slog.Logger, worker string) {
	for i := range auditWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := svc.RunAuditWorker(ctx, fmt.Sprintf("%s/audit-%d", worker, i), time.Second); err != nil {
				log.Error("audit worker stopped", "err", err)
			}
		}()
	}
	startReportWorkers(ctx, wg, svc, log, worker)
}
