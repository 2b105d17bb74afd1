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

// optionalTime maps a DateTime column value that may be unknown back: nil
// for the 1970 sentinel, else the time in UTC.
func optionalTime(t time.Time) *time.Time {
	if t = fromCHTime(t); t.IsZero() {
		return nil
	}
	return &t
}

// keyPrefix packs up to n (≤ 8) bytes of s from offset skip, big-endian and
// zero-padded, so that comparing two packed values orders the strings as
// far as those bytes go; equal values need the strings compared.
func keyPrefix(s string, skip, n int) uint64 {
	var k uint64
	for i := range n {
		k <<= 8
		if j := skip + i; j < len(s) {
			k |= uint64(s[j])
		}
	}
	return k << (8 * (8 - n))
}

// sevOrder is the key column that sorts most severe first: 0 is critical.
func sevOrder(s engine.Severity) uint8 { return uint8(len(engine.Severities) - s.Rank()) }

// severityOfOrder is the inverse of sevOrder.
func severityOfOrder(o int) engine.Severity {
	return engine.SeverityFromRank(len(engine.Severities) - o)
}

// numBuckets is the number of severity buckets (sev_order 0..4).
var numBuckets = len(engine.Severities)

// findingColumns is the column list findings are read with from
// snapshot_findings, in the order of scanFinding. A row's text is in
// finding_texts (see finding_texts.go); the inline text columns, aliases
// of nothing there, are for rows whose text_id is 0 (none since 0012).
const findingColumns = `sev_order, id, severity, dimension, status, resolution,
resource_id, rule_id, resource_type, provider, account, region, title, description, remediation,
evidence, compliance, first_seen_at, last_seen_at, resolved_at, text_id`

// findingColumnsNoEvidence is findingColumns with an empty evidence, for
// reads that print none (engine.FindingQuery.OmitEvidence: the CSV
// export): the server neither reads nor sends the widest column.
const findingColumnsNoEvidence = `sev_order, id, severity, dimension, status, resolution,
resource_id, rule_id, resource_type, provider, account, region, title, description, remediation,
'', compliance, first_seen_at, last_seen_at, resolved_at, text_id`

// selectColumns is the column list a findings page is read with: columns
// when set, else findingColumns.
func selectColumns(columns string) string {
	if columns == "" {
		return findingColumns
	}
	return columns
}

// pageColumns is the column list of q's page queries.
func pageColumns(q engine.FindingQuery) string {
	if q.OmitEvidence {
		return findingColumnsNoEvidence
	}
	return findingColumns
}

// scanner is what rows and row values share.
type scanner interface{ Scan(dest ...any) error }

// scanFinding reads one row selected with findingColumns from the snapshot
// of tenantID and auditID, and its text id: when not 0, the finding's text
// is still to be filled in (fillTexts). A loop over many rows reuses one
// findingRow instead.
func scanFinding(sc scanner, tenantID, auditID string) (engine.Finding, uint64, error) {
	return newFindingRow().scan(sc, tenantID, auditID)
}

// findingRow holds the destinations of one row of findingColumns, reused
// from row to row: a destination handed to Scan as an interface lives on
// the heap, so fresh ones cost a dozen allocations a row (a third of an
// export's CPU with the collector's share, issue 33 §5).
type findingRow struct {
	f                             engine.Finding
	sevOrd                        uint8
	id, sev, dim, status, res, ev string
	first, last, resolved         time.Time
	textID                        uint64
	dest                          []any
}

// newFindingRow returns a findingRow with its destinations in the order of
// findingColumns.
func newFindingRow() *findingRow {
	r := &findingRow{}
	r.dest = []any{&r.sevOrd, &r.id, &r.sev, &r.dim, &r.status, &r.res,
		&r.f.ResourceID, &r.f.RuleID, &r.f.ResourceType, &r.f.Provider, &r.f.Account, &r.f.Region,
		&r.f.Title, &r.f.Description, &r.f.Remediation, &r.ev, &r.f.Compliance, &r.first, &r.last, &r.resolved, &r.textID}
	return r
}

// scan reads the next row into a new Finding (see scanFinding).
func (r *findingRow) scan(sc scanner, tenantID, auditID string) (engine.Finding, uint64, error) {
	r.f = engine.Finding{TenantID: tenantID, AuditID: auditID}
	if err := sc.Scan(r.dest...); err != nil {
		return r.f, 0, fmt.Errorf("scan finding: %w", err)
	}
	f := r.f
	var err error
	if f.ID, err = findingIDText(r.id); err != nil {
		return f, 0, fmt.Errorf("scan finding: %w", err)
	}
	f.Severity, f.Dimension, f.Status, f.Resolution = engine.Severity(r.sev), engine.Dimension(r.dim), engine.FindingStatus(r.status), engine.Resolution(r.res)
	if r.ev != "" {
		f.Evidence = json.RawMessage(r.ev)
	}
	if f.Compliance == nil {
		f.Compliance = []string{}
	}
	f.FirstSeenAt, f.LastSeenAt = fromCHTime(r.first), fromCHTime(r.last)
	if rt := fromCHTime(r.resolved); !rt.IsZero() {
		f.ResolvedAt = &rt
	}
	return f, r.textID, nil
}
