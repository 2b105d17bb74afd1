package graph

import (
	"net/url"
	"strings"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/graph/model"
)

// normalizeReportInput lower-cases the enum-like values of a report
// request so GraphQL callers may write them as the schema's enums are
// written (EXECUTIVE_SUMMARY, HIGH) or as REST's (executive_summary, high);
// engine then validates them exactly as for POST /v1/reports.
func normalizeReportInput(in engine.GenerateReportInput) engine.GenerateReportInput {
	in.Kind = strings.ToLower(in.Kind)
	in.Filters.Dimensions = lowerAll(in.Filters.Dimensions)
	in.Filters.Severities = lowerAll(in.Filters.Severities)
	return in
}

// lowerAll returns a lower-cased copy of xs (nil stays nil).
func lowerAll(xs []string) []string {
	if xs == nil {
		return nil
	}
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strings.ToLower(x)
	}
	return out
}

// reportDownloadPath is the REST path that downloads a report in a format,
// or nil while the report is not ready (the path would answer 409).
func reportDownloadPath(r *engine.Report, format model.ReportFormat) *string {
	if r.Status != engine.ReportReady {
		return nil
	}
	p := "/v1/reports/" + url.PathEscape(r.ID) + "/download?format=" + strings.ToLower(string(format))
	return &p
}
