package engine

// Cursors for single items of a page, for APIs (GraphQL connections) that
// give every edge a cursor. Each is the cursor that continues after that
// item, exactly as the page's NextCursor continues after its last item, so
// it is accepted by the matching List method with the same filters.

// FindingCursor returns the cursor after finding f in the list of findings
// filtered by flt, as flt was passed to ListFindings (f carries the audit
// id of the snapshot it was read from).
func (s *Service) FindingCursor(p Principal, flt FindingFilter, f Finding) string {
	return s.cursors.encode(p.TenantID, "findings|"+findingFingerprint(flt), findingCursor{
		AuditID: f.AuditID, After: FindingKey{SeverityRank: f.Severity.Rank(), ID: f.ID}})
}

// ResourceCursor returns the cursor after the resource with id in the list
// of resources filtered by f.
func (s *Service) ResourceCursor(p Principal, f ResourceFilter, id string) string {
	return s.cursors.encode(p.TenantID, "resources|"+fingerprint(f.Type, f.Provider, f.Account, f.Region), id)
}

// AuditCursor returns the cursor after the audit with id in ListAudits.
func (s *Service) AuditCursor(p Principal, id string) string {
	return s.cursors.encode(p.TenantID, "audits", id)
}

// PolicyCursor returns the cursor after the policy with id in ListPolicies.
func (s *Service) PolicyCursor(p Principal, id string) string {
	return s.cursors.encode(p.TenantID, "policies", id)
}

// ReportCursor returns the cursor after the report with id in ListReports.
func (s *Service) ReportCursor(p Principal, id string) string {
	return s.cursors.encode(p.TenantID, "reports", id)
}

// MuteRuleCursor returns the cursor after the mute rule with id in
// ListMuteRules.
func (s *Service) MuteRuleCursor(p Principal, id string) string {
	return s.cursors.encode(p.TenantID, "mute_rules", id)
}
