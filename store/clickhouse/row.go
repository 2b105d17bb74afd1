package clickhouse

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
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

// findingRow is a finding checked and converted for the findings table:
// only what the table stores, compact (a snapshot batch holds 100k of
// them), with a sort key for each of the two orders a batch is sent in.
type findingRow struct {
	id, resourceID, ruleID, resourceType, provider, account, region string
	title, description, remediation, evidence, resolution           string
	compliance                                                      []string
	firstSeen, lastSeen, resolved                                   int64 // DateTime seconds
	// findingKey packs sev_order and the first bytes of the id, resourceKey
	// the first bytes of the resource id: sorting by them orders almost
	// every pair without comparing strings.
	findingKey, resourceKey uint64
	sevOrder                uint8
	// The Enum8 values of severity, dimension and status, as the findings
	// table declares them.
	severity, dimension, status int8
}

// newFindingRow validates f. A finding that the table cannot hold faithfully
// is validation_failed, never a panic or a silently altered row.
func newFindingRow(f *engine.Finding) (findingRow, error) {
	var r findingRow
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
	if r.firstSeen, err = chSeconds("first_seen_at", f.FirstSeenAt); err != nil {
		return r, err
	}
	if r.lastSeen, err = chSeconds("last_seen_at", f.LastSeenAt); err != nil {
		return r, err
	}
	var resolved time.Time
	if f.ResolvedAt != nil {
		resolved = *f.ResolvedAt
	}
	if r.resolved, err = chSeconds("resolved_at", resolved); err != nil {
		return r, err
	}
	r.id, r.resourceID, r.ruleID, r.resourceType = f.ID, f.ResourceID, f.RuleID, f.ResourceType
	r.provider, r.account, r.region = f.Provider, f.Account, f.Region
	r.title, r.description, r.remediation = f.Title, f.Description, f.Remediation
	r.evidence, r.resolution = string(f.Evidence), string(f.Resolution)
	r.compliance = f.Compliance
	if r.compliance == nil {
		r.compliance = []string{}
	}
	r.sevOrder = sevOrder(f.Severity)
	r.severity = int8(f.Severity.Rank())
	r.dimension = int8(slices.Index(engine.Dimensions, f.Dimension) + 1)
	r.status = 1
	if f.Status == engine.StatusResolved {
		r.status = 2
	}
	r.findingKey = uint64(r.sevOrder)<<56 | keyPrefix(r.id, len(engine.PrefixFinding)+1, 7)>>8
	r.resourceKey = keyPrefix(r.resourceID, strings.IndexByte(r.resourceID, '_')+1, 8)
	return r, nil
}

// chSeconds is toCHTime as seconds since 1970.
func chSeconds(field string, t time.Time) (int64, error) {
	ct, err := toCHTime(field, t)
	return ct.Unix(), err
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

// size estimates the bytes the row takes in a batch.
func (r *findingRow) size() int {
	n := 96 + len(r.id) + len(r.resourceID) + len(r.ruleID) + len(r.resourceType) + len(r.provider) +
		len(r.account) + len(r.region) + len(r.title) + len(r.description) + len(r.remediation) + len(r.evidence)
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
