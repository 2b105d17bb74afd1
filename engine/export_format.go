package engine

// ExportFormat names the encoding of an export.
type ExportFormat string

// Export formats. CSV and NDJSON exist for findings and resources; OCSF only
// for findings.
const (
	ExportCSV    ExportFormat = "csv"
	ExportNDJSON ExportFormat = "ndjson"
	ExportOCSF   ExportFormat = "ocsf"
)

// MaxExportPageSize is the most rows an export asks the store for at once
// (the store's own bound on one findings page).
const MaxExportPageSize = 10_000
