package findings

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
	if err := p.Require(engine.ScopeFindingsRead); err != nil {
		return nil, err
	}
	ef, err := engine.ParseExportFormat(format, engine.ExportCSV, engine.ExportNDJSON, engine.ExportOCSF)
	if err != nil {
		return nil, err
	}
	requested := f.AuditID
	empty := false
	if f.AuditID, err = s.snapshotFor(ctx, p.TenantID, requested); err != nil {
		if !engine.IsNotFound(err) || requested != "" {
			return nil, err
		}
		empty = true // no completed audit yet: nothing found
	}
	now := s.now()
	enc := s.findingEncoder(p.TenantID, ef)
	exp := &Export{ContentType: exportContentType(ef), Filename: exportFile("findings", ef, now)}
	exp.write = func(ctx context.Context, w *bufio.Writer, flush func() error) error {
		put, sync := enc(ctx, w)
		if !empty {
			err := s.pageFindings(ctx, p.TenantID, f, ef == engine.ExportCSV, exp.pageCtx, put, func() error {
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

// pageFindings calls put with every page of the findings of snapshot
// f.AuditID matching f, decisions applied, reading the store a page at a
// time with the list's keyset and calling flush after each page. The next
// page is read while put encodes the current one (one page ahead, so two
// pages at most are held): the store's query and the encoding use two
// cores instead of taking turns on one. omitEvidence tells the store the
// rows need no evidence.
func (s *Service) pageFindings(ctx context.Context, tenantID string, f engine.FindingFilter, omitEvidence bool,
	pageCtx func(context.Context) (context.Context, context.CancelFunc), put func(context.Context, []engine.Finding) error, flush func() error) error {
	ov, err := s.cachedOverrides(ctx, tenantID)
	if err != nil {
		return err
	}
	q := engine.FindingQuery{TenantID: tenantID, Filter: f, Limit: s.cfg.ExportPageSize, OmitEvidence: omitEvidence,
		ForceResolved: ov.resolved, ForceOpen: ov.open, OnlyIDs: ov.assignedTo(f.Assignee)}
	q.Mutes, q.MuteSet = s.muteSel(tenantID, ov, f.AuditID)
	// ahead reads the page of q in the background; its result arrives on
	// the returned channel. Cancelling ctx (a client gone, put failing)
	// stops its query.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type fetched struct {
		rows []engine.Finding
		err  error
	}
	ahead := func(q engine.FindingQuery) <-chan fetched {
		ch := make(chan fetched, 1)
		go func() {
			rows, err := s.exportPage(ctx, q, ov, pageCtx)
			ch <- fetched{rows, err}
		}()
		return ch
	}
	next := ahead(q)
	for {
		got := <-next
		if got.err != nil {
			return got.err
		}
		rows := got.rows
		more := len(rows) == q.Limit
		if more {
			last := rows[len(rows)-1]
			q.After = &engine.FindingKey{SeverityRank: last.Severity.Rank(), ID: last.ID}
			next = ahead(q)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.putPage(ctx, pageCtx, put, rows); err != nil {
			return err // the deferred cancel stops the page read ahead
		}
		if err := flush(); err != nil {
			return err
		}
		if !more {
			return nil
		}
	}
}

// exportPage reads one page of an export with the decisions of ov and the
// mutes applied.
func (s *Service) exportPage(ctx context.Context, q engine.FindingQuery, ov *overrideSet,
	pageCtx func(context.Context) (context.Context, context.CancelFunc)) ([]engine.Finding, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pctx, cancel := pageCtx(ctx)
	defer cancel()
	rows, err := s.cfg.Findings.ListFindings(pctx, q)
	if err != nil {
		return nil, err
	}
	now := s.now()
	for i, it := range rows {
		rows[i] = decide(it, ov.byID, now)
	}
	if err := s.markMuted(pctx, q.TenantID, q, rows); err != nil {
		return nil, err
	}
	return rows, nil
}

// putPage encodes one page under its own store deadline (put may read the
// store, as OCSF's resource names do).
func (s *Service) putPage(ctx context.Context, pageCtx func(context.Context) (context.Context, context.CancelFunc),
	put func(context.Context, []engine.Finding) error, rows []engine.Finding) error {
	pctx, cancel := pageCtx(ctx)
	defer cancel()
	return put(pctx, rows)
}

// findingEncoder returns, for a format, what starts an encoding on w: put
// writes one page of findings, sync empties the encoder's own buffer into w.
func (s *Service) findingEncoder(tenantID string, format engine.ExportFormat) func(ctx context.Context, w *bufio.Writer) (put func(context.Context, []engine.Finding) error, sync func() error) {
	switch format {
	case engine.ExportCSV:
		return func(_ context.Context, w *bufio.Writer) (func(context.Context, []engine.Finding) error, func() error) {
			var l csvLine
			for _, c := range engine.FindingCSVColumns {
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
