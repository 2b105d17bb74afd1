package mutes

import (
	"context"

	"github.com/fourd-dev/fourd/engine"
)

// DryRunMuteRule evaluates an expression over the open findings of the
// latest snapshot without writing anything: how many it would mute, and a
// sample of up to limit (0: DefaultMuteSample).
func (s *Service) DryRunMuteRule(ctx context.Context, p engine.Principal, expression string, limit int) (engine.MuteDryRun, error) {
	if err := p.Require(engine.ScopeFindingsRead); err != nil {
		return engine.MuteDryRun{}, err
	}
	mc, err := s.available()
	if err != nil {
		return engine.MuteDryRun{}, err
	}
	if limit == 0 {
		limit = engine.DefaultMuteSample
	}
	if limit < 1 || limit > engine.MaxMuteSample {
		return engine.MuteDryRun{}, &engine.Error{Code: engine.CodeInvalidLimit, Field: "limit", Message: "limit must be from 1 to 200"}
	}
	m, err := mc.CompileMute(expression)
	if err != nil {
		return engine.MuteDryRun{}, err
	}
	out := engine.MuteDryRun{Sample: []engine.Finding{}}
	out.AuditID, err = s.cfg.Reads.ScanOpenLatest(ctx, p.TenantID, m.NeedsResource(), func(f *engine.Finding, r *engine.Resource) error {
		out.Scanned++
		if m.NeedsResource() && r == nil {
			out.Errors++
			return nil
		}
		ok, err := m.Match(ctx, f, r)
		switch {
		case err != nil && ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			out.Errors++
		case ok:
			out.Matched++
			if len(out.Sample) < limit {
				out.Sample = append(out.Sample, *f)
			}
		}
		return nil
	})
	if err != nil {
		return engine.MuteDryRun{}, err
	}
	return out, nil
}
