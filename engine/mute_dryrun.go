package engine

import "context"

// MuteDryRun is what a mute rule would do to the latest snapshot now.
type MuteDryRun struct {
	AuditID string `json:"audit_id"`
	// Matched counts the open findings (as lists show them) the expression
	// matches: those the rule would mute.
	Matched int64 `json:"matched"`
	// Scanned counts the open findings evaluated.
	Scanned int64 `json:"scanned"`
	// Errors counts findings on which the evaluation failed (not muted).
	Errors int64 `json:"errors"`
	// Sample is the first matched findings, in list order, up to the limit.
	Sample []Finding `json:"sample"`
}

// Limits of a dry run's sample.
const (
	DefaultMuteSample = 20
	MaxMuteSample     = 200
)

// DryRunMuteRule evaluates an expression over the open findings of the
// latest snapshot without writing anything: how many it would mute, and a
// sample of up to limit (0: DefaultMuteSample).
func (s *Service) DryRunMuteRule(ctx context.Context, p Principal, expression string, limit int) (MuteDryRun, error) {
	if err := p.Require(ScopeFindingsRead); err != nil {
		return MuteDryRun{}, err
	}
	mc, err := s.muteRulesAvailable()
	if err != nil {
		return MuteDryRun{}, err
	}
	if limit == 0 {
		limit = DefaultMuteSample
	}
	if limit < 1 || limit > MaxMuteSample {
		return MuteDryRun{}, &Error{Code: CodeInvalidLimit, Field: "limit", Message: "limit must be from 1 to 200"}
	}
	m, err := mc.CompileMute(expression)
	if err != nil {
		return MuteDryRun{}, err
	}
	out := MuteDryRun{Sample: []Finding{}}
	if out.AuditID, err = s.latestSnapshot(ctx, p.TenantID); err != nil {
		if IsNotFound(err) {
			return out, nil
		}
		return MuteDryRun{}, err
	}
	ov, err := s.cachedOverrides(ctx, p.TenantID)
	if err != nil {
		return MuteDryRun{}, err
	}
	q := FindingQuery{TenantID: p.TenantID, Filter: FindingFilter{AuditID: out.AuditID, Status: StatusOpen},
		Limit: s.cfg.ExportPageSize, ForceResolved: ov.resolved, ForceOpen: ov.open, Mutes: ov.muteRefs(out.AuditID)}
	for {
		rows, err := s.cfg.Findings.ListFindings(ctx, q)
		if err != nil {
			return MuteDryRun{}, err
		}
		var res map[string]*Resource
		if m.NeedsResource() && len(rows) > 0 {
			if res, err = s.pageResources(ctx, p.TenantID, rows); err != nil {
				return MuteDryRun{}, err
			}
		}
		now := s.now()
		for i := range rows {
			f := &rows[i]
			*f = decide(*f, ov.byID, now)
			out.Scanned++
			var r *Resource
			if m.NeedsResource() {
				if r = res[f.ResourceID]; r == nil {
					out.Errors++
					continue
				}
			}
			ok, err := m.Match(ctx, f, r)
			switch {
			case err != nil && ctx.Err() != nil:
				return MuteDryRun{}, ctx.Err()
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
		q.After = &FindingKey{SeverityRank: last.Severity.Rank(), ID: last.ID}
	}
}
