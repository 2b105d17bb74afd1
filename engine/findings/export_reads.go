package findings

import (
	"context"

	"github.com/fourd-dev/fourd/engine"
)

// ExportReads is the read path's side of an export, what engine/exports'
// Service needs from this one (its Reads interface): which snapshot a
// read sees, and every page of its findings matching a filter with the
// decisions people made applied and the muted ones marked, as the list
// shows them. cmd/fourd wires it.
type ExportReads struct{ s *Service }

// ExportReads returns the read path's side of exports.
func (s *Service) ExportReads() ExportReads { return ExportReads{s: s} }

// Snapshot returns the completed audit a read of auditID sees: the
// tenant's latest when auditID is empty (not_found when it has none), else
// that audit, conflict while it has not completed.
func (r ExportReads) Snapshot(ctx context.Context, tenantID, auditID string) (string, error) {
	return r.s.snapshotFor(ctx, tenantID, auditID)
}

// PageFindings calls put with every page of the findings of snapshot
// f.AuditID matching f, as pageFindings does.
func (r ExportReads) PageFindings(ctx context.Context, tenantID string, f engine.FindingFilter, omitEvidence bool,
	pageCtx func(context.Context) (context.Context, context.CancelFunc), put func(context.Context, []engine.Finding) error, flush func() error) error {
	return r.s.pageFindings(ctx, tenantID, f, omitEvidence, pageCtx, put, flush)
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
