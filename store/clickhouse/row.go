package clickhouse

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// DateTime is seconds since 1970 in a UInt32: earlier or later instants wrap
// silently, so they are rejected before they reach the driver.
var (
	minTime = time.Unix(0, 0).UTC()
	maxTime = time.Unix(1<<32-1, 0).UTC()
)

// toCHTime maps a time to what a DateTime('UTC') column stores; the zero
// time becomes the 1970 sentinel that fromCHTime maps back.
func toCHTime(field string, t time.Time) (time.Time, error) {
	if t.IsZero() {
		return minTime, nil
	}
	if t.Before(minTime) || t.After(maxTime) {
		return time.Time{}, engine.FieldErrorf(field, "%s must be between 1970 and 2106; got %s", field, t.Format(time.RFC3339))
	}
	return t.UTC().Truncate(time.Second), nil
}

// fromCHTime maps a DateTime column value back: the 1970 sentinel is the
// zero time, anything else is in UTC.
func fromCHTime(t time.Time) time.Time {
	if t.Unix() <= 0 {
		return time.Time{}
	}
	return t.UTC()
}

// findingRow is a finding checked and converted for the findings table.
type findingRow struct {
	f                             engine.Finding
	firstSeen, lastSeen, resolved time.Time
	evidence                      string
	compliance                    []string
	sevOrder                      uint8
}

// newFindingRow validates f. A finding that the table cannot hold faithfully
// is validation_failed, never a panic or a silently altered row.
func newFindingRow(f engine.Finding) (findingRow, error) {
	r := findingRow{f: f}
	if !engine.ValidID(engine.PrefixFinding, f.ID) {
		return r, engine.FieldErrorf("id", "finding id must be a finding id (fnd_…); got %q", f.ID)
	}
	if !f.Severity.Valid() {
		return r, engine.FieldErrorf("severity", "finding %s: severity must be one of info, low, medium, high, critical; got %q", f.ID, f.Severity)
	}
	if !f.Dimension.Valid() {
		return r, engine.FieldErrorf("dimension", "finding %s: unknown dimension %q", f.ID, f.Dimension)
	}
	if !f.Status.Valid() {
		return r, engine.FieldErrorf("status", "finding %s: status must be open or resolved; got %q", f.ID, f.Status)
	}
	switch f.Resolution {
	case engine.ResolutionNone, engine.ResolutionFixed, engine.ResolutionAcceptedRisk:
	default:
		return r, engine.FieldErrorf("resolution", "finding %s: unknown resolution %q", f.ID, f.Resolution)
	}
	if len(f.Evidence) > 0 && !json.Valid(f.Evidence) {
		return r, engine.FieldErrorf("evidence", "finding %s: evidence is not valid JSON", f.ID)
	}
	var err error
	if r.firstSeen, err = toCHTime("first_seen_at", f.FirstSeenAt); err != nil {
		return r, err
	}
	if r.lastSeen, err = toCHTime("last_seen_at", f.LastSeenAt); err != nil {
		return r, err
	}
	var resolved time.Time
	if f.ResolvedAt != nil {
		resolved = *f.ResolvedAt
	}
	if r.resolved, err = toCHTime("resolved_at", resolved); err != nil {
		return r, err
	}
	r.evidence = string(f.Evidence)
	r.compliance = f.Compliance
	if r.compliance == nil {
		r.compliance = []string{}
	}
	r.sevOrder = sevOrder(f.Severity)
	return r, nil
}

// size estimates the bytes the row takes in a batch.
func (r *findingRow) size() int {
	f := &r.f
	n := 96 + len(f.ID) + len(f.ResourceID) + len(f.RuleID) + len(f.ResourceType) + len(f.Provider) +
		len(f.Account) + len(f.Region) + len(f.Title) + len(f.Description) + len(f.Remediation) + len(r.evidence)
	for _, c := range r.compliance {
		n += 8 + len(c)
	}
	return n
}

// sevOrder is the key column that sorts most severe first: 0 is critical.
func sevOrder(s engine.Severity) uint8 { return uint8(len(engine.Severities) - s.Rank()) }

// severityOfOrder is the inverse of sevOrder.
func severityOfOrder(o int) engine.Severity {
	return engine.SeverityFromRank(len(engine.Severities) - o)
}

// numBuckets is the number of severity buckets (sev_order 0..4).
var numBuckets = len(engine.Severities)

// findingColumns is the column list findings are written and read with, in
// the order of findingRow.values and scanFinding.
const findingColumns = `tenant_id, audit_id, sev_order, id, severity, dimension, status, resolution,
resource_id, rule_id, resource_type, provider, account, region, title, description, remediation,
evidence, compliance, first_seen_at, last_seen_at, resolved_at`

// values are the row's column values in findingColumns order, plus written_at.
func (r *findingRow) values(tenantID, auditID string, writtenAt time.Time) []any {
	f := &r.f
	return []any{tenantID, auditID, r.sevOrder, f.ID, string(f.Severity), string(f.Dimension), string(f.Status),
		string(f.Resolution), f.ResourceID, f.RuleID, f.ResourceType, f.Provider, f.Account, f.Region,
		f.Title, f.Description, f.Remediation, r.evidence, r.compliance, r.firstSeen, r.lastSeen, r.resolved, writtenAt}
}

// scanner is what rows and row values share.
type scanner interface{ Scan(dest ...any) error }

// scanFinding reads one row selected with findingColumns.
func scanFinding(sc scanner) (engine.Finding, error) {
	var (
		f                         engine.Finding
		sevOrd                    uint8
		sev, dim, status, res, ev string
		first, last, resolved     time.Time
	)
	err := sc.Scan(&f.TenantID, &f.AuditID, &sevOrd, &f.ID, &sev, &dim, &status, &res,
		&f.ResourceID, &f.RuleID, &f.ResourceType, &f.Provider, &f.Account, &f.Region,
		&f.Title, &f.Description, &f.Remediation, &ev, &f.Compliance, &first, &last, &resolved)
	if err != nil {
		return f, fmt.Errorf("scan finding: %w", err)
	}
	f.Severity, f.Dimension, f.Status, f.Resolution = engine.Severity(sev), engine.Dimension(dim), engine.FindingStatus(status), engine.Resolution(res)
	if ev != "" {
		f.Evidence = json.RawMessage(ev)
	}
	if f.Compliance == nil {
		f.Compliance = []string{}
	}
	f.FirstSeenAt, f.LastSeenAt = fromCHTime(first), fromCHTime(last)
	if r := fromCHTime(resolved); !r.IsZero() {
		f.ResolvedAt = &r
	}
	return f, nil
}
