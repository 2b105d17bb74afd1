package exports

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// referenceCSVRecord is the findings CSV row as encoding/csv was given it
// before csvLine: every cell through csvSafe.
func referenceCSVRecord(f engine.Finding) []string {
	resolved := ""
	if f.ResolvedAt != nil {
		resolved = f.ResolvedAt.UTC().Format(time.RFC3339)
	}
	assignee := ""
	if f.Assignee != nil {
		assignee = *f.Assignee
	}
	rec := []string{f.ID, f.AuditID, f.ResourceID, f.RuleID, string(f.Dimension), string(f.Severity),
		string(f.Status), string(f.Resolution), f.Title, f.Description, f.Remediation, strings.Join(f.Compliance, ";"),
		f.ResourceType, f.Provider, f.Account, f.Region, f.FirstSeenAt.UTC().Format(time.RFC3339),
		f.LastSeenAt.UTC().Format(time.RFC3339), resolved, string(f.WorkflowStatus), assignee,
		strconv.FormatInt(f.OpenAgeSeconds, 10), f.MuteRuleID}
	for i, c := range rec {
		rec[i] = csvSafe(c)
	}
	return rec
}

// TestCSVLineAsEncodingCSV: the findings CSV written by csvLine is byte for
// byte what encoding/csv (UseCRLF) wrote for the csvSafe cells, on
// generated findings whose texts hold quotes, commas, CR, LF, leading
// spaces and formula characters, `\.`, non-ASCII and empty cells.
func TestCSVLineAsEncodingCSV(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 33))
	pieces := []string{"", "a", " lead", "\ttab", "=SUM(A1)", "+1", "-2", "@x", "\rcr", "x\r\ny", "q\"uote", "c,omma",
		`\.`, "é ü", "\u00a0nbsp", "line\nbreak", "'", "plain text", "\u2028sep"}
	text := func() string {
		var b strings.Builder
		for range r.IntN(3) + 1 {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	var want, got bytes.Buffer
	cw := csv.NewWriter(&want)
	cw.UseCRLF = true
	if err := cw.Write(FindingCSVColumns); err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriter(&got)
	var l csvLine
	for _, c := range FindingCSVColumns {
		l.cell(c)
	}
	if err := l.end(bw); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 27, 10, 0, 0, 0, time.FixedZone("x", 3600))
	for i := range 3000 {
		f := engine.Finding{ID: text(), AuditID: text(), ResourceID: text(), RuleID: text(), Dimension: engine.Dimension(text()),
			Severity: engine.Severity(text()), Status: engine.FindingStatus(text()), Resolution: engine.Resolution(text()), Title: text(),
			Description: text(), Remediation: text(), ResourceType: text(), Provider: text(), Account: text(),
			Region: text(), FirstSeenAt: at.Add(time.Duration(i) * time.Second), WorkflowStatus: engine.WorkflowStatus(text()),
			OpenAgeSeconds: int64(r.IntN(2000) - 1000), MuteRuleID: text()}
		if i%3 > 0 {
			f.LastSeenAt = at
		}
		for range r.IntN(4) {
			f.Compliance = append(f.Compliance, text())
		}
		if i%2 == 0 {
			rt := at.Add(time.Hour)
			f.ResolvedAt = &rt
		}
		if i%5 == 0 {
			a := text()
			f.Assignee = &a
		}
		if err := cw.Write(referenceCSVRecord(f)); err != nil {
			t.Fatal(err)
		}
		findingCSVLine(&f, &l)
		if err := l.end(bw); err != nil {
			t.Fatal(err)
		}
	}
	cw.Flush()
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want.Bytes(), got.Bytes()) {
		w, g := strings.Split(want.String(), "\r\n"), strings.Split(got.String(), "\r\n")
		for i := range min(len(w), len(g)) {
			if w[i] != g[i] {
				t.Fatalf("line %d differs:\nencoding/csv %q\ncsvLine      %q", i, w[i], g[i])
			}
		}
		t.Fatalf("%d bytes from encoding/csv, %d from csvLine", want.Len(), got.Len())
	}
}

// BenchmarkFindingCSV compares a findings CSV row by csvLine with the
// same row by encoding/csv.
func BenchmarkFindingCSV(b *testing.B) {
	at := time.Now()
	f := engine.Finding{ID: "fnd_0123456789abcdefghjkmnpqrs", AuditID: "aud_0123456789abcdefghjkmnpqrs",
		ResourceID: "res_0123456789abcdefghjkmnpqrs", RuleID: "aws.s3.bucket_public_read", Dimension: "security",
		Severity: "high", Status: "open", Title: "S3 bucket allows public read",
		Description: "The bucket policy or ACL grants read access to everyone, so anyone on the internet can list it.",
		Remediation: "Remove the public grant, then enable Block Public Access on the bucket and the account.",
		Compliance:  []string{"CIS-AWS-4.0.1:2.1.4"}, ResourceType: "aws_s3_bucket", Provider: "aws", Account: "123456789012",
		Region: "eu-west-1", FirstSeenAt: at, LastSeenAt: at, WorkflowStatus: "open", OpenAgeSeconds: 86400}
	b.Run("csvLine", func(b *testing.B) {
		bw := bufio.NewWriter(&bytes.Buffer{})
		var l csvLine
		b.ReportAllocs()
		for b.Loop() {
			findingCSVLine(&f, &l)
			_ = l.end(bw)
			bw.Reset(&bytes.Buffer{})
		}
	})
	b.Run("encoding/csv", func(b *testing.B) {
		bw := bufio.NewWriter(&bytes.Buffer{})
		cw := csv.NewWriter(bw)
		cw.UseCRLF = true
		b.ReportAllocs()
		for b.Loop() {
			_ = cw.Write(referenceCSVRecord(f))
			cw.Flush()
			bw.Reset(&bytes.Buffer{})
		}
	})
}
