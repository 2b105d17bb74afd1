package postgres

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
)

const reportColumns = `id, tenant_id, kind, status, COALESCE(audit_id, ''), filters, error, checksum, created_at, completed_at`

func scanReport(row pgx.Row) (engine.Report, error) {
	var r engine.Report
	var filters []byte
	err := row.Scan(&r.ID, &r.TenantID, &r.Kind, &r.Status, &r.AuditID, &filters, &r.Error, &r.Checksum,
		&r.CreatedAt, &r.CompletedAt)
	if filters != nil {
		r.Filters = filters
	}
	r.CreatedAt, r.CompletedAt = utc(r.CreatedAt), utcp(r.CompletedAt)
	return r, err
}

// CreateReport stores a new report job (normally pending). conflict when the
// id exists; validation_failed for an unknown kind or status, filters that
// are not JSON, or an audit that is not the tenant's.
func (s *Store) CreateReport(ctx context.Context, r engine.Report) (err error) {
	defer wrap(&err, "CreateReport(%q)", r.ID)
	var filters any // nil stores NULL
	if len(r.Filters) > 0 {
		filters = string(r.Filters)
	}
	_, err = s.pool.Exec(ctx, `INSERT INTO reports (id, tenant_id, kind, status, audit_id, filters, error, checksum,
		created_at, completed_at) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10)`,
		r.ID, r.TenantID, string(r.Kind), string(r.Status), nullIfEmpty(r.AuditID), filters, r.Error, r.Checksum,
		r.CreatedAt, r.CompletedAt)
	return err
}

// GetReport returns one report of the tenant (without its content); not_found
// for a missing id or another tenant's.
func (s *Store) GetReport(ctx context.Context, tenantID, id string) (r engine.Report, err error) {
	defer s.metrics.Observe("reports", "GetReport", time.Now(), &err)
	defer wrap(&err, "GetReport(%q, %q)", tenantID, id)
	if !lookupKey(id) {
		return engine.Report{}, engine.ErrNotFound("report", id)
	}
	r, err = scanReport(s.pool.QueryRow(ctx, `SELECT `+reportColumns+` FROM reports WHERE tenant_id = $1 AND id = $2`, tenantID, id))
	return r, notFound(err, "report", id)
}

// ListReports returns up to q.Limit reports of the tenant, newest first,
// strictly before q.BeforeID. invalid_limit when q.Limit is not in 1..1000.
func (s *Store) ListReports(ctx context.Context, q engine.ReportQuery) (rs []engine.Report, err error) {
	defer s.metrics.Observe("reports", "ListReports", time.Now(), &err)
	defer wrap(&err, "ListReports(%q)", q.TenantID)
	if err := checkLimit(q.Limit); err != nil {
		return nil, err
	}
	sql, args := `SELECT `+reportColumns+` FROM reports WHERE tenant_id = $1`, []any{q.TenantID}
	if q.BeforeID != "" {
		args = append(args, q.BeforeID)
		sql += ` AND id < $2`
	}
	args = append(args, q.Limit)
	sql += ` ORDER BY id DESC LIMIT $` + strconv.Itoa(len(args))
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.Report, error) { return scanReport(r) })
}

// ClaimReport gives a worker the oldest pending report to generate, for
// leaseFor; a report whose previous worker's lease expired is claimed again.
// not_found when nothing is pending. Concurrent workers never get the same
// report.
func (s *Store) ClaimReport(ctx context.Context, workerID string, leaseFor time.Duration) (r engine.Report, err error) {
	defer wrap(&err, "ClaimReport(%q)", workerID)
	if workerID == "" || leaseFor <= 0 {
		return engine.Report{}, engine.Errorf(engine.CodeValidationFailed, "a worker id and a positive lease are required")
	}
	now := s.now()
	r, err = scanReport(s.pool.QueryRow(ctx, `UPDATE reports SET claimed_by = $1, claimed_until = $3, attempts = attempts + 1
		WHERE id = (
			SELECT id FROM reports
			WHERE status = 'pending' AND (claimed_until IS NULL OR claimed_until < $2)
			ORDER BY id LIMIT 1
			FOR UPDATE SKIP LOCKED)
		RETURNING `+reportColumns, workerID, now, now.Add(leaseFor)))
	if errors.Is(err, pgx.ErrNoRows) {
		return engine.Report{}, engine.Errorf(engine.CodeNotFound, "no report is pending")
	}
	return r, err
}

// ReportResult is the outcome of generating a report: its content, or the
// reason it failed.
type ReportResult struct {
	TenantID string
	ID       string
	// Document is the JSON document (the report's content); Checksum is its
	// hex SHA-256. PDF is rendered from it. Both are set on success.
	Document []byte
	Checksum string
	PDF      []byte
	// Error, when set, marks the report failed with this message (safe to
	// show) instead.
	Error       string
	CompletedAt time.Time
}

// FinishReport stores the outcome of a pending report, which becomes ready
// or failed, and releases its claim. not_found when the report is missing,
// another tenant's, or no longer pending (a report is finished once).
func (s *Store) FinishReport(ctx context.Context, res ReportResult) (err error) {
	defer wrap(&err, "FinishReport(%q)", res.ID)
	if !lookupKey(res.ID) {
		return engine.ErrNotFound("report", res.ID)
	}
	status, doc, pdf, sum := engine.ReportReady, res.Document, res.PDF, res.Checksum
	if res.Error != "" {
		status, doc, pdf, sum = engine.ReportFailed, nil, nil, ""
	} else if doc == nil {
		return engine.FieldErrorf("document", "a ready report needs its document")
	}
	tag, err := s.pool.Exec(ctx, `UPDATE reports SET status = $3, document = $4, pdf = $5, checksum = $6, error = $7,
		completed_at = $8, claimed_by = NULL, claimed_until = NULL
		WHERE tenant_id = $1 AND id = $2 AND status = 'pending'`,
		res.TenantID, res.ID, string(status), doc, pdf, sum, res.Error, res.CompletedAt)
	if err == nil && tag.RowsAffected() == 0 {
		return engine.ErrNotFound("report", res.ID)
	}
	return err
}

// ReportContent returns a ready report's document in the format asked:
// "json" (the document) or "pdf". not_found for a missing or foreign report,
// or one that is not ready or has no content in that format;
// validation_failed for another format.
func (s *Store) ReportContent(ctx context.Context, tenantID, id, format string) (b []byte, err error) {
	defer wrap(&err, "ReportContent(%q, %q, %q)", tenantID, id, format)
	column := map[string]string{"json": "document", "pdf": "pdf"}[format]
	if column == "" {
		return nil, engine.FieldErrorf("format", "format must be json or pdf; got %q", format)
	}
	if !lookupKey(id) {
		return nil, engine.ErrNotFound("report", id)
	}
	err = s.pool.QueryRow(ctx, `SELECT `+column+` FROM reports
		WHERE tenant_id = $1 AND id = $2 AND status = 'ready' AND `+column+` IS NOT NULL`, tenantID, id).Scan(&b)
	return b, notFound(err, "report", id)
}
