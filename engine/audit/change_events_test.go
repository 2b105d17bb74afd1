package audit

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/jsonvalid"
)

// appendFindingData writes what encoding/json writes for an event's
// finding, for every field's odd values: escapes, invalid UTF-8, an empty
// resolution (left out), a resolution time in another zone and with
// nanoseconds, and none.
func TestAppendFindingData(t *testing.T) {
	odd := []string{"", "plain", `quote " backslash \ slash /`, "<script>&amp;</script>", "\x00\x01\x1f\x7f", "\b\f\n\r\t",
		"café ☃ 𝄞", "bad \xff utf8 \xc3", "\u2028 and \u2029", "tail \xe2\x80"}
	at := time.Date(2026, 11, 27, 9, 30, 1, 123456789, time.FixedZone("X", 5*3600+1800))
	utc := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i, s := range odd {
		f := engine.Finding{ID: "fnd_" + s, Severity: engine.Severity(s), Dimension: engine.DimensionSecurity, ResourceID: "res_" + s, Title: s,
			RuleID: s, AuditID: "aud_" + s, Status: engine.FindingStatus(s), Resolution: engine.Resolution(odd[(i+1)%len(odd)]),
			ResourceType: s, Account: s, Region: odd[(i+3)%len(odd)], Description: "not in events", Evidence: json.RawMessage(`{"x":1}`)}
		switch i % 3 {
		case 1:
			f.ResolvedAt = &at
		case 2:
			f.ResolvedAt = &utc
		}
		want, err := json.Marshal(map[string]any{"finding": payloadOf(f)})
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendFindingData([]byte("prefix"), &f)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != "prefix"+string(want) {
			t.Errorf("appendFindingData(%+v)\n got %s\nwant %s", f, got[6:], want)
		}
		// The events are marked Strict unless their data has \u0000.
		if strict := !bytes.Contains(got[6:], []byte(`\u0000`)); strict && !jsonvalid.Strict(got[6:]) {
			t.Errorf("data %s would be marked strict", got[6:])
		}
	}
	// Without escapes, the size estimate holds every field.
	plain := benchFinding()
	plain.Resolution, plain.ResolvedAt = engine.ResolutionAcceptedRisk, &at
	if b, _ := appendFindingData(nil, &plain); len(b) > findingDataSize(&plain) {
		t.Errorf("findingDataSize = %d, want at least %d", findingDataSize(&plain), len(b))
	}
	// A time encoding/json refuses is refused too.
	bad := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	f := engine.Finding{ID: "fnd_1", ResolvedAt: &bad}
	if _, err := json.Marshal(map[string]any{"finding": payloadOf(f)}); err == nil {
		t.Fatal("encoding/json accepts the year 10000")
	}
	if _, err := appendFindingData(nil, &f); err == nil {
		t.Error("appendFindingData accepts the year 10000")
	}
}

// BenchmarkAppendFindingData is the data of one finding.created, as a first
// audit builds it for each new finding; BenchmarkMarshalFindingData is what
// it replaces.
func BenchmarkAppendFindingData(b *testing.B) {
	f := benchFinding()
	buf := make([]byte, 0, 1024)
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = appendFindingData(buf[:0], &f)
	}
}

func BenchmarkMarshalFindingData(b *testing.B) {
	f := benchFinding()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(map[string]any{"finding": payloadOf(f)}); err != nil {
			b.Fatal(err)
		}
	}
}

func benchFinding() engine.Finding {
	return engine.Finding{ID: "fnd_5gej05m6rnv9dz84bccyr8m95n", Severity: engine.SeverityHigh, Dimension: engine.DimensionSecurity,
		ResourceID: "res_5gej05m6rnv9dz84bccyr8m95n", Title: "Security group allows ingress from 0.0.0.0/0 to remote administration ports",
		RuleID: "sec_sg_open_admin_ports", AuditID: "aud_01jn8s7qg0313xd94cp319stzw", Status: engine.StatusOpen,
		ResourceType: "aws_security_group", Account: "345678901234", Region: "eu-west-1"}
}
