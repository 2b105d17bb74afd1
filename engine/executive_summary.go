package engine

// KeyMessage is one sentence of an executive summary's first page, written
// from the report's own figures.
type KeyMessage struct {
	// Kind is biggest_risk, biggest_change or biggest_saving.
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// TopAction is a rule whose open findings to fix first: actions are ranked
// by the posture weight they remove per hour of remediation effort
// (RemediationEffortHours over the rule's open findings).
type TopAction struct {
	RuleID      string    `json:"rule_id"`
	Title       string    `json:"title"`
	Severity    Severity  `json:"severity"`
	Dimension   Dimension `json:"dimension"`
	Open        int64     `json:"open"`
	RiskRemoved float64   `json:"risk_removed"` // PostureWeights summed over the open findings
	EffortHours float64   `json:"effort_hours"`
	RiskPerHour float64   `json:"risk_per_hour"`
	// BySeverity counts the open findings by severity: a rule's findings
	// need not share one (policies raise or lower it per finding), and a
	// key message says how many are of the severity it names. Not in the
	// document.
	BySeverity map[Severity]int64 `json:"-"`
}

// FrameworkPosture is one compliance framework as the compliance evidence
// report judges it: of the controls assessed (passed or failed), how many
// passed. Controls not applicable (nothing of their types), with
// insufficient data, manual or not assessed are left out of the share.
type FrameworkPosture struct {
	Framework string `json:"framework"`
	Title     string `json:"title"`
	Controls  int    `json:"controls"`
	// Checked is the controls assessed: passed or failed.
	Checked int `json:"checked"`
	Failing int `json:"failing"`
	// PassingPercent is 100 × (Checked − Failing) / Checked, one decimal
	// (the compliance evidence report's score); 0 when no control is
	// assessed.
	PassingPercent float64 `json:"passing_percent"`
}

// ResourceExposure is the posture in terms a CFO reads: the share of the
// resources scanned with no open critical or high finding.
type ResourceExposure struct {
	ResourcesScanned   int64 `json:"resources_scanned"`
	WithCriticalOrHigh int64 `json:"with_critical_or_high"`
	// ClearPercent is 100 × (ResourcesScanned − WithCriticalOrHigh) /
	// ResourcesScanned, one decimal; 0 when no resource was scanned.
	ClearPercent float64 `json:"clear_percent"`
}
