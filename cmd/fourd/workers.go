package main

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/audit"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/fourd-dev/fourd/engine/reporting"
)

// auditWorkers is how many audits one serve process runs at once; an audit
// is CPU-bound and streams, so one per core is plenty.
const auditWorkers = 2

// startWorkers runs the background workers of serve until ctx is done.
func startWorkers(ctx context.Context, wg *sync.WaitGroup, upkeep *findings.Operator, audits *audit.Operator, reports *reporting.Operator, log *slog.Logger, worker string) {
	for i := range auditWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := audits.RunAuditWorker(ctx, fmt.Sprintf("%s/audit-%d", worker, i), time.Second); err != nil {
				log.Error("audit worker stopped", "err", err)
			}
		}()
	}
	startReportWorkers(ctx, wg, reports, log, worker)
	wg.Add(1)
	go func() {
		defer wg.Done()
		sweepExpired(ctx, upkeep, log)
	}()
	wg.Add(1)
	go func() {
		defer wg.Done()
		sweepMuteSets(ctx, upkeep, log)
	}()
}

// sweepMuteSets builds the mute sets that rule expiries changed and deletes
// superseded ones, now and every findings.MuteSweepInterval until ctx ends.
// Every replica sweeps; builds are claimed and deletions handed to one.
func sweepMuteSets(ctx context.Context, upkeep *findings.Operator, log *slog.Logger) {
	t := time.NewTicker(findings.MuteSweepInterval)
	defer t.Stop()
	for {
		n, err := upkeep.SweepMuteSets(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Error("sweeping mute sets", "err", err)
		case n.Settled > 0 || n.Deleted > 0:
			log.Info("swept mute sets", "settled", n.Settled, "deleted", n.Deleted)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// sweepExpired deletes expired OAuth codes and tokens and idempotency keys
// now and every engine.SweepInterval until ctx ends. Every replica sweeps;
// the deletes are idempotent.
func sweepExpired(ctx context.Context, upkeep *findings.Operator, log *slog.Logger) {
	t := time.NewTicker(engine.SweepInterval)
	defer t.Stop()
	for {
		n, err := upkeep.SweepExpired(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Error("sweeping expired credentials and idempotency keys", "err", err)
		case n > 0:
			log.Info("swept expired credentials and idempotency keys", "deleted", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
