package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/audit"
)

// auditCmd runs an audit of a tenant now, in this process, and prints its
// summary: what a worker of serve does, for scripts and benchmarks. With
// --explain it audits nothing and prints, for one resource, every check
// that applies, what it read and its outcome.
func auditCmd(ctx context.Context, cfg config, log *slog.Logger, args []string, stdout io.Writer) error {
	fs := newFlags("audit", stdout)
	tenant := fs.String("tenant", "", "tenant slug")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the audit to this file")
	memProfile := fs.String("memprofile", "", "write a heap profile at the audit's peak live heap to this file (and print the peak)")
	explain := fs.String("explain", "", "instead of auditing, explain the checks on one resource (its id or native id, e.g. an ARN)")
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	stopProfile, err := startCPUProfile(*cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	stopHeap, err := startPeakHeapProfile(*memProfile)
	if err != nil {
		return err
	}
	defer stopHeap() // on an early return; a completed audit reports it below
	if *tenant == "" {
		return usageError{"audit: want: audit --tenant T [--explain RESOURCE]"}
	}
	s, err := openStores(ctx, cfg, log, true)
	if err != nil {
		return err
	}
	defer s.close()
	svc, audits, err := newAuditing(cfg, log, s)
	if err != nil {
		return err
	}
	p, err := operatorPrincipal(ctx, cfg, log, s, *tenant)
	if err != nil {
		return err
	}
	if *explain != "" {
		return explainResource(ctx, svc, p, *explain, stdout)
	}
	start := time.Now()
	done, err := runAuditNow(ctx, audits, p)
	if err != nil {
		return err
	}
	sum := done.Summary
	fmt.Fprintf(stdout, "audit %s completed in %s: %d resources, %d open findings, %d new, %d resolved\n",
		done.ID, time.Since(start).Round(time.Millisecond), sum.ResourcesScanned, sum.FindingsOpen, sum.FindingsNew, sum.FindingsResolved)
	for _, d := range engine.Dimensions {
		fmt.Fprintf(stdout, "  %-13s %d\n", d, sum.ByDimension[d])
	}
	if *memProfile != "" {
		peak, err := stopHeap()
		if err != nil {
			return fmt.Errorf("writing the heap profile: %w", err)
		}
		fmt.Fprintf(stdout, "peak live heap %d MiB (heap profile in %s)\n", peak>>20, *memProfile)
	}
	return nil
}

// runAuditNow audits p's tenant in this process (audit.Service.AuditNow)
// and reports an audit that did not complete as an error.
func runAuditNow(ctx context.Context, svc *audit.Service, p engine.Principal) (engine.Audit, error) {
	done, err := svc.AuditNow(ctx, p, "cli")
	if err != nil {
		return engine.Audit{}, err
	}
	if done.Status != engine.AuditCompleted {
		return done, fmt.Errorf("audit %s ended %s: %s", done.ID, done.Status, done.Error)
	}
	return done, nil
}
