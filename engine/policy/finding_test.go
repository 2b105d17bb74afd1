package policy

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/go-cmp/cmp"
)

func TestFinding(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	p := raisePolicy(`!resource.attributes.encryption.enabled`)
	p.Description = "Production data must be encrypted at rest."
	p.Title = "Bucket {{resource.name}} is not encrypted"
	p.Remediation = "Ask {{resource.tags.owner}} to enable SSE-KMS in {{resource.region}}."
	got := MustCompile(t, p).Finding(prodBucket, now)
	want := engine.Finding{
		ID:           engine.FindingID(p.TenantID, p.ID, prodBucket.ID),
		TenantID:     p.TenantID,
		ResourceID:   prodBucket.ID,
		RuleID:       p.ID,
		Dimension:    engine.DimensionSecurity,
		Severity:     engine.SeverityCritical,
		Status:       engine.StatusOpen,
		Title:        "Bucket billing-exports is not encrypted",
		Description:  "Production data must be encrypted at rest.",
		Remediation:  "Ask finance to enable SSE-KMS in eu-west-1.",
		Evidence:     json.RawMessage(`{"policy_id":"pol_01hzx0000000000000000000aa","policy_version":3,"policy_name":"Unencrypted prod buckets","effect":"raise","expression":"!resource.attributes.encryption.enabled"}`),
		Compliance:   []string{},
		ResourceType: "aws_s3_bucket",
		Provider:     "aws",
		Account:      "123456789012",
		Region:       "eu-west-1",
		FirstSeenAt:  now,
		LastSeenAt:   now,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Finding (-want +got):\n%s", diff)
	}
	if !json.Valid(got.Evidence) {
		t.Errorf("evidence is not JSON: %s", got.Evidence)
	}
}

func TestFindingTitleDefaultsToName(t *testing.T) {
	p := raisePolicy(`true`)
	got := MustCompile(t, p).Finding(instance, time.Unix(0, 0))
	if diff := cmp.Diff([]string{p.Name, ""}, []string{got.Title, got.Remediation}); diff != "" {
		t.Errorf("title, remediation (-want +got):\n%s", diff)
	}
}

func TestAdjustSeverity(t *testing.T) {
	tests := []struct {
		name        string
		effect      engine.PolicyEffect
		policySev   engine.Severity
		findingSev  engine.Severity
		want        engine.Severity
		wantChanged bool
	}{
		{"at least raises", engine.PolicySeverityAtLeast, engine.SeverityHigh, engine.SeverityLow, engine.SeverityHigh, true},
		{"at least keeps higher", engine.PolicySeverityAtLeast, engine.SeverityHigh, engine.SeverityCritical, engine.SeverityCritical, false},
		{"at least keeps equal", engine.PolicySeverityAtLeast, engine.SeverityHigh, engine.SeverityHigh, engine.SeverityHigh, false},
		{"at most lowers", engine.PolicySeverityAtMost, engine.SeverityLow, engine.SeverityCritical, engine.SeverityLow, true},
		{"at most keeps lower", engine.PolicySeverityAtMost, engine.SeverityLow, engine.SeverityInfo, engine.SeverityInfo, false},
		{"raise policies do not adjust", engine.PolicyRaise, engine.SeverityCritical, engine.SeverityLow, engine.SeverityLow, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := severityPolicy(tt.effect, tt.policySev, `true`)
			if tt.effect == engine.PolicyRaise {
				p.Dimension = engine.DimensionSecurity
			}
			sev, changed := MustCompile(t, p).AdjustSeverity(engine.Finding{Severity: tt.findingSev})
			if diff := cmp.Diff([]any{tt.want, tt.wantChanged}, []any{sev, changed}); diff != "" {
				t.Errorf("AdjustSeverity (-want +got):\n%s", diff)
			}
		})
	}
}
