package reports

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// TestExecutiveTopResourcesShowNativeID: the executive summary's
// "Resources most at risk" names a resource by its name and the
// provider's id (an ARN), which a reader can look up in the console, not
// by fourd's internal res_ id; a resource the inventory no longer holds
// (no native id) keeps the internal id rather than a blank (issue 34).
func TestExecutiveTopResourcesShowNativeID(t *testing.T) {
	doc := fxExecutive()
	const arn = "arn:aws:s3:::donnees-clients-eu"
	doc.ExecutiveSummary.TopResources[0].NativeID = arn
	gone := doc.ExecutiveSummary.TopResources[2].ResourceID

	tags := regexp.MustCompile(`<[^>]*>`) // ids wrap after their separators: <span>…</span><wbr>
	var pdf bytes.Buffer
	if err := RenderPDF(&pdf, doc); err != nil {
		t.Fatal(err)
	}
	// The table alone: the changes list names a finding's resource by its
	// internal id when the resource has no name (left as it is).
	table := func(text, from, to string) string {
		i := strings.Index(text, from)
		j := strings.Index(text[max(i, 0):], to)
		if i < 0 || j < 0 {
			t.Fatalf("no %q … %q section in:\n%s", from, to, text)
		}
		return text[i : i+j]
	}
	for kind, text := range map[string]string{
		"PDF":  table(pdfToText(t, pdf.Bytes(), t.TempDir()), "Top risky resources", "Top rules"),
		"HTML": table(tags.ReplaceAllString(renderHTML(t, doc), ""), "Resources most at risk", "Cost waste estimate"),
	} {
		if !strings.Contains(text, arn) {
			t.Errorf("%s: the top resource's ARN %s is not shown:\n%s", kind, arn, text)
		}
		if strings.Contains(text, doc.ExecutiveSummary.TopResources[0].ResourceID) {
			t.Errorf("%s: the top resource is shown by its internal id %s:\n%s", kind, doc.ExecutiveSummary.TopResources[0].ResourceID, text)
		}
		if !strings.Contains(text, gone) {
			t.Errorf("%s: a resource without a native id lost its internal id %s:\n%s", kind, gone, text)
		}
	}
}

// TestExecutiveChangesShowNativeID: the executive summary's list of
// changes names a finding's resource by its name and the provider's id
// (an ARN), not by fourd's internal res_ id (on the old code, a resource
// without a name was shown by its res_ id alone); a resource the
// inventory no longer holds keeps its internal id (issue 34).
func TestExecutiveChangesShowNativeID(t *testing.T) {
	doc := fxExecutive()
	ex := doc.ExecutiveSummary.Changes.Examples
	const unnamed, named = "arn:aws:s3:::donnees-clients-eu", "arn:aws:s3:::zurich-logs"
	ex[0].NativeID = unnamed                             // no name
	ex[1].ResourceName, ex[1].NativeID = "zurich", named // a name and an ARN
	gone := ex[2].ResourceID                             // neither: the inventory no longer holds it

	tags := regexp.MustCompile(`<[^>]*>`)
	var pdf bytes.Buffer
	if err := RenderPDF(&pdf, doc); err != nil {
		t.Fatal(err)
	}
	// The changes are the executive summary's last section in both.
	section := func(text, from string) string {
		i := strings.Index(text, from)
		if i < 0 {
			t.Fatalf("no %q section in:\n%s", from, text)
		}
		return text[i:]
	}
	for kind, text := range map[string]string{
		"PDF":  section(pdfToText(t, pdf.Bytes(), t.TempDir()), "What changed since the previous audit"),
		"HTML": section(tags.ReplaceAllString(renderHTML(t, doc), ""), "Changes since the previous audit"),
	} {
		for _, arn := range []string{unnamed, named} {
			if !strings.Contains(text, arn) {
				t.Errorf("%s: the changed resource's ARN %s is not shown:\n%s", kind, arn, text)
			}
		}
		for _, internal := range []string{ex[0].ResourceID, ex[1].ResourceID} {
			if strings.Contains(text, internal) {
				t.Errorf("%s: a changed resource with an ARN is shown by its internal id %s:\n%s", kind, internal, text)
			}
		}
		if !strings.Contains(text, "zurich") || !strings.Contains(text, gone) {
			t.Errorf("%s: the name zurich or the gone resource's internal id %s is missing:\n%s", kind, gone, text)
		}
	}
}
