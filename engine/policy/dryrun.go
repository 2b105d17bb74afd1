package policy

import (
	"context"
	"errors"
	"fmt"
	"iter"

	"github.com/fourd-dev/fourd/engine"
)

// Dry-run limits.
const (
	// MaxDryRunLimit bounds how many matching resources a dry run returns.
	MaxDryRunLimit = 1000
	// maxDryRunErrorSamples is how many evaluation errors a dry run
	// describes; the rest are only counted.
	maxDryRunErrorSamples = 5
)

// DryRunResult is what a policy would do to an inventory, without writing
// findings.
type DryRunResult struct {
	// Matches are the first matching resources, in the inventory's order.
	Matches []DryRunMatch `json:"matches"`
	// Matched counts every matching resource, also those past the limit.
	Matched int `json:"matched"`
	// Scanned counts the resources read; OutOfScope those skipped because
	// of the policy's resource types.
	Scanned    int `json:"scanned"`
	OutOfScope int `json:"out_of_scope"`
	// Errors counts resources on which the evaluation failed (they do not
	// match); ErrorSamples describes the first few.
	Errors       int              `json:"errors"`
	ErrorSamples []DryRunEvalFail `json:"error_samples"`
}

// DryRunMatch is one resource a policy matches.
type DryRunMatch struct {
	ResourceID string `json:"resource_id"`
	Name       string `json:"name"`
	Type       string `json:"type"`
}

// DryRunEvalFail describes one failed evaluation in a dry run.
type DryRunEvalFail struct {
	ResourceID string     `json:"resource_id"`
	Reason     EvalReason `json:"reason"`
	Message    string     `json:"message"`
}

// DryRun runs a raise policy over resources with the default compiler; see
// Compiler.DryRun.
func DryRun(ctx context.Context, p engine.Policy, resources iter.Seq2[engine.Resource, error], limit int) (DryRunResult, error) {
	return Default().DryRun(ctx, p, resources, limit)
}

// DryRun compiles p and evaluates it on every resource the iterator yields,
// one at a time (it never holds the inventory), returning the first limit
// matches (0 to MaxDryRunLimit) and the counts. Only raise policies can be
// dry-run against resources: a severity policy is a validation_failed error
// on the field "effect". Errors: validation_failed from Validate;
// invalid_limit; the iterator's first error, returned as is; ctx.Err().
// Evaluation errors and unparseable attributes are counted, not returned.
func (c *Compiler) DryRun(ctx context.Context, p engine.Policy, resources iter.Seq2[engine.Resource, error], limit int) (DryRunResult, error) {
	res := DryRunResult{Matches: []DryRunMatch{}, ErrorSamples: []DryRunEvalFail{}}
	if limit < 0 || limit > MaxDryRunLimit {
		return res, &engine.Error{Code: engine.CodeInvalidLimit, Field: "limit",
			Message: fmt.Sprintf("limit must be between 0 and %d; got %d", MaxDryRunLimit, limit)}
	}
	if p.Effect != engine.PolicyRaise && p.Effect != "" {
		return res, engine.FieldErrorf("effect", "only raise policies can be dry-run against resources; %s policies apply to findings", p.Effect)
	}
	prg, err := c.Compile(Normalize(p))
	if err != nil {
		return res, err
	}
	if err := c.checkSize(prg); err != nil {
		return res, err
	}
	for r, err := range resources {
		if err != nil {
			return res, err
		}
		if err := ctx.Err(); err != nil {
			return res, err
		}
		res.Scanned++
		if !prg.Applies(r.Type) {
			res.OutOfScope++
			continue
		}
		attrs, err := ParseAttributes(r.Attributes)
		if err != nil {
			res.recordError(&EvalError{PolicyID: p.ID, ResourceID: r.ID, Reason: ReasonRuntime, Message: engine.ErrorMessage(err)})
			continue
		}
		ok, err := prg.Match(ctx, Input{Resource: r, Attributes: attrs, Tags: r.Tags.Map()})
		var ee *EvalError
		switch {
		case errors.As(err, &ee):
			res.recordError(ee)
			continue
		case err != nil:
			return res, err
		case !ok:
			continue
		}
		res.Matched++
		if len(res.Matches) < limit {
			res.Matches = append(res.Matches, DryRunMatch{ResourceID: r.ID, Name: r.Name, Type: r.Type})
		}
	}
	return res, nil
}

func (r *DryRunResult) recordError(e *EvalError) {
	r.Errors++
	if len(r.ErrorSamples) < maxDryRunErrorSamples {
		r.ErrorSamples = append(r.ErrorSamples, DryRunEvalFail{ResourceID: e.ResourceID, Reason: e.Reason, Message: e.Message})
	}
}
