package reporting

import (
	"context"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// TestNilServiceIsUnavailable: an adapter given no report service (rest
// and graph take it optionally) answers every report use case unavailable,
// never a panic.
func TestNilServiceIsUnavailable(t *testing.T) {
	var s *Service
	var o *Operator
	ctx := context.Background()
	calls := map[string]func() error{
		"ListReports": func() error { _, err := s.ListReports(ctx, reportWriter, engine.PageRequest{}); return err },
		"GetReport":   func() error { _, err := s.GetReport(ctx, reportWriter, "rep_x"); return err },
		"GenerateReport": func() error {
			_, err := s.GenerateReport(ctx, reportWriter, engine.GenerateReportInput{Kind: "executive_summary"})
			return err
		},
		"DownloadReport": func() error { _, err := s.DownloadReport(ctx, reportWriter, "rep_x", "json"); return err },
		"RunReportOnce":  func() error { _, _, err := o.RunReportOnce(ctx, "w"); return err },
	}
	for name, call := range calls {
		if code := engine.ErrorCode(call()); code != engine.CodeUnavailable {
			t.Errorf("%s on a nil Service: code %q, want unavailable", name, code)
		}
	}
}
