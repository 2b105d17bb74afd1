package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/audit"
)

// demoData imports every sample inventory of the folder into the demo
// tenant and runs an audit of it to completion, so a new user sees findings
// in all four dimensions right away. It returns the completed audit (zero
// when one was already queued).
func demoData(ctx context.Context, cfg config, log *slog.Logger, s *stores, audits *audit.Service, p engine.Principal, samples string, stdout io.Writer) (engine.Audit, error) {
	files, err := filepath.Glob(filepath.Join(samples, "*"))
	if err != nil {
		return engine.Audit{}, err
	}
	slices.Sort(files)
	if len(files) == 0 {
		return engine.Audit{}, fmt.Errorf("no sample inventories in %s (run from the repository root, or pass --samples)", samples)
	}
	intake, err := newIngest(log, s)
	if err != nil {
		return engine.Audit{}, err
	}
	for _, name := range files {
		if st, err := os.Stat(name); err != nil || st.IsDir() {
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			return engine.Audit{}, err
		}
		res, err := importFile(ctx, intake, p, f, io.Discard)
		f.Close()
		if err != nil {
			return engine.Audit{}, fmt.Errorf("importing %s: %w", name, err)
		}
		fmt.Fprintf(stdout, "imported %s: %d resources (%d new), %d rejected\n", name, res.Accepted, res.New, res.Rejected)
	}
	done, err := runAuditNow(ctx, audits, p)
	if engine.ErrorCode(err) == engine.CodeConflict {
		fmt.Fprintln(stdout, "an audit of the demo tenant is already queued; fourd serve will run it")
		return engine.Audit{}, nil
	}
	if err != nil {
		return engine.Audit{}, err
	}
	sum := done.Summary
	fmt.Fprintf(stdout, "audit %s: %d resources, %d open findings (security %d, cost %d, architecture %d, compliance %d)\n",
		done.ID, sum.ResourcesScanned, sum.FindingsOpen, sum.ByDimension[engine.DimensionSecurity],
		sum.ByDimension[engine.DimensionCost], sum.ByDimension[engine.DimensionArchitecture], sum.ByDimension[engine.DimensionCompliance])
	return done, nil
}
