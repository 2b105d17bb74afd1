package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/findings"
)

// explainResource prints what the built-in checks make of one resource of
// p's tenant, named by its id or native id (audit --explain).
func explainResource(ctx context.Context, svc *findings.Service, p engine.Principal, ref string, w io.Writer) error {
	x, err := svc.ExplainResource(ctx, p, engine.ResourceIDOf(p.TenantID, ref))
	if err != nil {
		if engine.ErrorCode(err) == engine.CodeNotFound {
			return fmt.Errorf("audit --explain: no resource %q in the tenant's inventory (give a resource id or a native id such as an ARN)", ref)
		}
		return err
	}
	printExplanation(w, x)
	return nil
}

// printExplanation writes an explanation for a terminal: the resource,
// the counts, then each check with its outcome and what it read.
func printExplanation(w io.Writer, x engine.ResourceExplanation) {
	r := x.Resource
	fmt.Fprintf(w, "%s %s (%s)\n  account %s, region %s; checked %s\n", r.Type, r.NativeID, r.ID, r.Account, r.Region,
		x.EvaluatedAt.Format("2006-01-02 15:04:05Z07:00"))
	fmt.Fprintf(w, "%d checks: %d failed, %d passed, %d not evaluated\n", len(x.Checks), x.Failed, x.Passed, x.NotEvaluated)
	if len(x.Checks) == 0 {
		fmt.Fprintf(w, "no built-in check applies to %s\n", r.Type)
		return
	}
	// Failures first, then what could not be judged, then passes.
	for _, outcome := range []string{engine.CheckFailed, engine.CheckNotEvaluated, engine.CheckPassed} {
		for _, c := range x.Checks {
			if c.Outcome != outcome {
				continue
			}
			fmt.Fprintln(w)
			label := strings.ToUpper(strings.ReplaceAll(c.Outcome, "_", " "))
			sev := string(c.DefaultSeverity)
			if c.Severity != nil {
				sev = string(*c.Severity)
			}
			scope := ""
			if c.Scope != "resource" {
				scope = " [" + c.Scope + "]"
			}
			fmt.Fprintf(w, "%-13s %s (%s, %s)%s %s\n", label, c.RuleID, c.Dimension, sev, scope, c.Title)
			if c.Reason != "" {
				fmt.Fprintf(w, "  why:     %s\n", c.Reason)
			}
			if len(c.Missing) > 0 {
				fmt.Fprintf(w, "  missing: %s (the source did not record it)\n", strings.Join(c.Missing, ", "))
			}
			if len(c.Evidence) > 0 && string(c.Evidence) != "{}" {
				fmt.Fprintf(w, "  read:    %s\n", c.Evidence)
			}
		}
	}
}
