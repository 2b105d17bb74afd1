package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/reporting"
)

// reportWorkers is how many reports one serve process generates at once;
// generation is mostly ClickHouse time, so one more than the audit workers
// would only queue on the same cores.
const reportWorkers = 1

// startReportWorkers runs serve's report workers until ctx is done.
func startReportWorkers(ctx context.Context, wg *sync.WaitGroup, runner *reporting.Operator, log *slog.Logger, worker string) {
	for i := range reportWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := runner.RunReportWorker(ctx, fmt.Sprintf("%s/report-%d", worker, i), time.Second)
			if err != nil && ctx.Err() == nil {
				log.Error("report worker stopped", "err", err)
			}
		}()
	}
}

// reportCmd generates a report of a tenant's latest completed audit in
// this process, what a report worker of serve does, and writes its JSON
// and PDF: for scripts and benchmarks.
func reportCmd(ctx context.Context, cfg config, log *slog.Logger, args []string, stdout io.Writer) error {
	fs := newFlags("report", stdout)
	tenant := fs.String("tenant", "", "tenant slug")
	kind := fs.String("kind", "", "executive_summary, remediation_plan or compliance_evidence")
	out := fs.String("out", "", "write <out>.json, <out>.pdf and <out>.html (default: only print the timings)")
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if *tenant == "" || *kind == "" {
		return usageError{"report: want: report --tenant T --kind K [--out F]"}
	}
	s, err := openStores(ctx, cfg, log, true)
	if err != nil {
		return err
	}
	defer s.close()
	secret := cfg.secretOrEphemeral()
	reads, err := newService(cfg, log, s, secret)
	if err != nil {
		return err
	}
	svc, runner, err := newReporting(log, s, reads, secret)
	if err != nil {
		return err
	}
	p, err := operatorPrincipal(ctx, cfg, log, s, *tenant)
	if err != nil {
		return err
	}
	start := time.Now()
	r, err := svc.GenerateReport(ctx, p, engine.GenerateReportInput{Kind: *kind})
	if err != nil {
		return err
	}
	var t engine.ReportTimings
	for r.Status == engine.ReportPending {
		// The queue hands out the oldest pending report first: run them
		// until this one is done.
		timings, ok, err := runner.RunReportOnce(ctx, "cli")
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("report %s is not pending any more but was not generated here", r.ID)
		}
		if r, err = svc.GetReport(ctx, p, r.ID); err != nil {
			return err
		}
		t = timings
	}
	total := time.Since(start)
	if r.Status == engine.ReportFailed {
		return fmt.Errorf("report %s failed: %s", r.ID, r.Error)
	}
	sizes := map[string]int{}
	for _, format := range []string{"json", "pdf", "html"} {
		d, err := svc.DownloadReport(ctx, p, r.ID, format)
		if err != nil {
			return err
		}
		sizes[format] = len(d.Content)
		if *out != "" {
			base := strings.TrimSuffix(strings.TrimSuffix(*out, ".pdf"), ".json") // --out x.pdf means x
			if err := os.WriteFile(base+"."+format, d.Content, 0o644); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(stdout, "report %s (%s, audit %s) ready in %s: queries %s, rendering %s; json %d bytes, pdf %d bytes\n",
		r.ID, r.Kind, r.AuditID, total.Round(time.Millisecond), t.Queries.Round(time.Millisecond),
		t.Rendering.Round(time.Millisecond), sizes["json"], sizes["pdf"])
	return nil
}
