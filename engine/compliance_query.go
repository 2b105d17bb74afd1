package engine

// The compliance posture API (issue 33 §4): every framework of the catalog
// judged against a completed audit (the latest, or one named), and one
// framework's controls a page at a time.

// ComplianceQuery selects the audit a posture is read from.
type ComplianceQuery struct {
	// AuditID names a completed audit; empty means the latest.
	AuditID string
}

// ComplianceControlQuery selects the controls of one framework.
type ComplianceControlQuery struct {
	// AuditID names a completed audit; empty means the latest. A cursor
	// carries the audit its first page read, so that a walk over the pages
	// reads one audit even when another completes meanwhile.
	AuditID string
	// Status keeps the controls of one of ControlStatuses; empty keeps all.
	Status ControlStatus
	Page   PageRequest
}

// ComplianceFrameworkDetail is one framework's posture with a page of its
// controls (in catalog order).
type ComplianceFrameworkDetail struct {
	Framework CompliancePosture
	Controls  Page[ControlPosture]
}
