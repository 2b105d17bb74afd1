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

// scanner is what rows and row values share.
type scanner interface{ Scan(dest ...any) error }

// scanFinding reads one row selected with findingColumns from the snapshot
// of tenantID and auditID, and its text id: when not 0, the finding's text
// is still to be filled in (fillTexts).
func scanFinding(sc scanner, tenantID, auditID string) (engine.Finding, uint64, error) {
	var (
		f                         = engine.Finding{TenantID: tenantID, AuditID: auditID}
		sevOrd                    uint8
		sev, dim, status, res, ev string
		id                        string // stored (idkey.go)
		first, last, resolved     time.Time
		textID                    uint64
	)
	err := sc.Scan(&sevOrd, &id, &sev, &dim, &status, &res,
		&f.ResourceID, &f.RuleID, &f.ResourceType, &f.Provider, &f.Account, &f.Region,
		&f.Title, &f.Description, &f.Remediation, &ev, &f.Compliance, &first, &last, &resolved, &textID)
	if err != nil {
		return f, 0, fmt.Errorf("scan finding: %w", err)
	}
	if f.ID, err = findingIDText(id); err != nil {
		return f, 0, fmt.Errorf("scan finding: %w", err)
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
	return f, textID, nil
}
