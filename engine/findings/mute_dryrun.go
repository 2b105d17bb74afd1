package findings

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
	mc, err := s.muteRulesAvailable()
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
	if out.AuditID, err = s.latestSnapshot(ctx, p.TenantID); err != nil {
		if engine.IsNotFound(err) {
			return out, nil
		}
		return engine.MuteDryRun{}, err
	}
	ov, err := s.cachedOverrides(ctx, p.TenantID)
	if err != nil {
		return engine.MuteDryRun{}, err
	}
	q := engine.FindingQuery{TenantID: p.TenantID, Filter: engine.FindingFilter{AuditID: out.AuditID, Status: engine.StatusOpen},
		Limit: s.cfg.ExportPageSize, ForceResolved: ov.resolved, ForceOpen: ov.open, Mutes: ov.muteRefs(out.AuditID)}
	for {
		rows, err := s.cfg.Findings.ListFindings(ctx, q)
		if err != nil {
			return engine.MuteDryRun{}, err
		}
		var res map[string]*engine.Resource
		if m.NeedsResource() && len(rows) > 0 {
			if res, err = s.pageResources(ctx, p.TenantID, rows); err != nil {
				return engine.MuteDryRun{}, err
			}
		}
		now := s.now()
		for i := range rows {
			f := &rows[i]
			*f = decide(*f, ov.byID, now)
			out.Scanned++
			var r *engine.Resource
			if m.NeedsResource() {
				if r = res[f.ResourceID]; r == nil {
					out.Errors++
					continue
				}
			}
			ok, err := m.Match(ctx, f, r)
			switch {
			case err != nil && ctx.Err() != nil:
				return engine.MuteDryRun{}, ctx.Err()
			case err != nil:
				out.Errors++
			case ok:
				out.Matched++
				if len(out.Sample) < limit {
					out.Sample = append(out.Sample, *f)
				}
			}
		}
		if len(rows) < q.Limit {
			return out, nil
		}
		last := rows[len(rows)-1]
		q.After = &engine.FindingKey{SeverityRank: last.Severity.Rank(), ID: last.ID}
	}
}
