package main

import (
	"context"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"os"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/ingest"
	"github.com/fourd-dev/fourd/engine/inventory"
)

// importCmd streams an inventory file (fourd NDJSON, AWS Config, Terraform
// state or plan JSON, optionally gzip-compressed) into a tenant, with a
// progress line.
func importCmd(ctx context.Context, cfg config, log *slog.Logger, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("import", stderr)
	tenant := fs.String("tenant", "", "tenant slug (created when missing)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the import to this file")
	memProfile := fs.String("memprofile", "", "write a heap profile at the import's peak live heap to this file (and print the peak)")
	// The file may come before the flags (import FILE --tenant T) or after.
	var file string
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		file, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if file == "" && fs.NArg() == 1 {
		file = fs.Arg(0)
	} else if fs.NArg() != 0 {
		file = ""
	}
	if *tenant == "" || file == "" {
		return usageError{"import: want: import FILE --tenant T"}
	}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	importGC()
	stopProfile, err := startCPUProfile(*cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	stopHeap, err := startPeakHeapProfile(*memProfile)
	if err != nil {
		return err
	}
	defer stopHeap() // on an early return; a completed import reports it below
	s, err := openStores(ctx, cfg, log, true)
	if err != nil {
		return err
	}
	defer s.close()
	intake, err := newIngest(log, s)
	if err != nil {
		return err
	}
	p, err := operatorPrincipal(ctx, cfg, log, s, *tenant)
	if err != nil {
		return err
	}
	res, err := importFile(ctx, intake, p, f, stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "imported %s into %s: %d accepted (%d new), %d rejected\n", file, *tenant, res.Accepted, res.New, res.Rejected)
	for _, e := range res.Errors {
		fmt.Fprintf(stdout, "  record %d: %s (%s)\n", e.Index, e.Message, e.Code)
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

// importGC lets the heap grow to three times what is live between
// collections (GOGC=200) up to a soft limit of 400 MiB (GOMEMLIMIT), each
// unless set in the environment: an import's live heap is a few bounded
// batches plus the tenant's known ids, and collecting at twice that cost a
// re-import of 1M resources 14% of its CPU (9.4 → 8.1 s); the limit keeps
// a first import's peak RSS near where it was (it reached 650 MB without).
func importGC() { tuneGC(200, 400<<20) }

// tuneGC sets the collector's percent and soft memory limit, each unless
// the environment sets it (GOGC, GOMEMLIMIT); 0 leaves one as it is.
func tuneGC(percent int, limit int64) {
	if percent != 0 && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(percent)
	}
	if limit != 0 && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(limit)
	}
}

// importFile ingests one inventory stream, printing progress every second.
func importFile(ctx context.Context, intake *ingest.Service, p engine.Principal, r io.Reader, progressTo io.Writer) (engine.IngestResult, error) {
	d, format, err := inventory.Open(r)
	if err != nil {
		return engine.IngestResult{}, err
	}
	var n atomic.Int64
	start := time.Now()
	stop := progress(progressTo, "import ("+string(format)+")", -1, &n)
	res, err := intake.IngestResources(ctx, p, counted(inventory.Items(d), &n))
	stop()
	if err == nil {
		el := time.Since(start)
		fmt.Fprintf(progressTo, "import (%s): %d records in %s (%.0f/s)\n", format, n.Load(), el.Round(time.Millisecond), float64(n.Load())/el.Seconds())
	}
	return res, err
}

func counted(items iter.Seq[engine.IngestItem], n *atomic.Int64) iter.Seq[engine.IngestItem] {
	return func(yield func(engine.IngestItem) bool) {
		for it := range items {
			n.Add(1)
			if !yield(it) {
				return
			}
		}
	}
}
