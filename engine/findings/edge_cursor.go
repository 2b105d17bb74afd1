package findings

import "github.com/fourd-dev/fourd/engine"

// FindingCursor returns the cursor after finding f in the list of findings
// filtered by flt, as flt was passed to ListFindings (f carries the audit
// id of the snapshot it was read from).
func (s *Service) FindingCursor(p engine.Principal, flt engine.FindingFilter, f engine.Finding) string {
	return s.cursors.Encode(p.TenantID, "findings|"+findingFingerprint(flt), findingCursor{
		AuditID: f.AuditID, After: engine.FindingKey{SeverityRank: f.Severity.Rank(), ID: f.ID}})
}

// ResourceCursor returns the cursor after the resource with id in the list
// of resources filtered by f.
func (s *Service) ResourceCursor(p engine.Principal, f engine.ResourceFilter, id string) string {
	return s.cursors.Encode(p.TenantID, "resources|"+engine.Fingerprint(f.Type, f.Provider, f.Account, f.Region), id)
}

// AuditCursor returns the cursor after the audit with id in ListAudits.
func (s *Service) AuditCursor(p engine.Principal, id string) string {
	return s.cursors.Encode(p.TenantID, "audits", id)
}
