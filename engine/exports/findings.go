package exports

import (
	"bufio"
	"context"
	"encoding/json"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// findingCSVLine builds a finding's CSV row of FindingCSVColumns in l.
func findingCSVLine(f *engine.Finding, l *csvLine) {
	l.reset()
	for _, c := range []string{f.ID, f.AuditID, f.ResourceID, f.RuleID, string(f.Dimension), string(f.Severity),
		string(f.Status), string(f.Resolution), f.Title, f.Description, f.Remediation} {
		l.cell(c)
	}
	switch len(f.Compliance) {
	case 0:
		l.cell("")
	case 1:
		l.cell(f.Compliance[0])
	default:
		l.cell(strings.Join(f.Compliance, ";"))
	}
	for _, c := range []string{f.ResourceType, f.Provider, f.Account, f.Region} {
		l.cell(c)
	}
	l.time(f.FirstSeenAt)
	l.time(f.LastSeenAt)
	if f.ResolvedAt != nil {
		l.time(*f.ResolvedAt)
	} else {
		l.cell("")
	}
	assignee := ""
	if f.Assignee != nil {
		assignee = *f.Assignee
	}
	l.cell(string(f.WorkflowStatus))
	l.cell(assignee)
	l.int(f.OpenAgeSeconds)
	l.cell(f.MuteRuleID)
}

// ExportFindings prepares an export of the findings matching f (the
// filters of ListFindings, with the same decisions applied) in format: csv,
// ndjson (one finding a line, as the list shows it) or ocsf (one OCSF
// 1.3.0 event a line, see OCSFEvent). It checks the scope, the format and the
// snapshot before anything is written; the rows are read when the Export
// is written, a store page at a time in the list's order.
func (s *Service) ExportFindings(ctx context.Context, p engine.Principal, f engine.FindingFilter, format string) (*Export, error) {
	if err := s.require(p, engine.ScopeFindingsRead); err != nil {
		return nil, err
	}
	ef, err := parseFormat(format, engine.ExportCSV, engine.ExportNDJSON, engine.ExportOCSF)
	if err != nil {
		return nil, err
	}
	requested := f.AuditID
	empty := false
	if f.AuditID, err = s.cfg.Reads.Snapshot(ctx, p.TenantID, requested); err != nil {
		if !engine.IsNotFound(err) || requested != "" {
			return nil, err
		}
		empty = true // no completed audit yet: nothing found
	}
	now := s.cfg.Now()
	enc := s.findingEncoder(p.TenantID, ef)
	exp := &Export{ContentType: exportContentType(ef), Filename: exportFile("findings", ef, now)}
	exp.write = func(ctx context.Context, w *bufio.Writer, flush func() error) error {
		put, sync := enc(ctx, w)
		if !empty {
			err := s.cfg.Reads.PageFindings(ctx, p.TenantID, f, ef == engine.ExportCSV, exp.pageCtx, put, func() error {
				if err := sync(); err != nil {
					return err
				}
				return flush()
			})
			if err != nil {
				return err
			}
		}
		return sync()
	}
	return exp, nil
}

// findingEncoder returns, for a format, what starts an encoding on w: put
// writes one page of findings, sync empties the encoder's own buffer into w.
func (s *Service) findingEncoder(tenantID string, format engine.ExportFormat) func(ctx context.Context, w *bufio.Writer) (put func(context.Context, []engine.Finding) error, sync func() error) {
	switch format {
	case engine.ExportCSV:
		return func(_ context.Context, w *bufio.Writer) (func(context.Context, []engine.Finding) error, func() error) {
			var l csvLine
			for _, c := range FindingCSVColumns {
				l.cell(c)
			}
			headerErr := l.end(w)
			put := func(ctx context.Context, page []engine.Finding) error {
				if headerErr != nil {
					return headerErr
				}
				for i := range page {
					findingCSVLine(&page[i], &l)
					if err := l.end(w); err != nil {
						return err
					}
				}
				return nil
			}
			return put, func() error { return nil }
		}
	case engine.ExportOCSF:
		return func(_ context.Context, w *bufio.Writer) (func(context.Context, []engine.Finding) error, func() error) {
			enc := json.NewEncoder(w)
			put := func(ctx context.Context, page []engine.Finding) error {
				names, err := s.resourceNames(ctx, tenantID, page)
				if err != nil {
					return err
				}
				for _, f := range page {
					n := names[f.ResourceID]
					if err := enc.Encode(ocsfFinding(f, n[0], n[1])); err != nil {
						return err
					}
				}
				return nil
			}
			return put, func() error { return nil }
		}
	default:
		return func(_ context.Context, w *bufio.Writer) (func(context.Context, []engine.Finding) error, func() error) {
			enc := json.NewEncoder(w)
			put := func(ctx context.Context, page []engine.Finding) error {
				for _, f := range page {
					if err := enc.Encode(f); err != nil {
						return err
					}
				}
				return nil
			}
			return put, func() error { return nil }
		}
	}
}
