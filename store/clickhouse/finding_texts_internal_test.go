package clickhouse

import (
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// The interner knows a text by its contents: equal texts built anew (their
// own bytes, as per-finding templates make them) share one id and are sent
// once, a text sharing a rule's strings is found again, and a compliance
// list changed in place after it was seen is a new text.
func TestTextInternerByContent(t *testing.T) {
	var in textInterner
	rule := engine.Finding{Title: "Bucket is public", Description: "desc", Remediation: "fix it",
		Compliance: []string{"CIS 2.1.5"}}
	id := in.id(&rule)
	// The same text in new strings (no shared bytes).
	copied := engine.Finding{Title: strings.Clone(rule.Title), Description: strings.Clone(rule.Description),
		Remediation: strings.Clone(rule.Remediation), Compliance: []string{strings.Clone("CIS 2.1.5")}}
	if got := in.id(&copied); got != id {
		t.Fatalf("equal text in new strings: id %d, want %d", got, id)
	}
	if got := in.id(&rule); got != id {
		t.Fatalf("the rule's own strings again: id %d, want %d", got, id)
	}
	if n := len(in.takePending()); n != 1 {
		t.Fatalf("%d texts to send, want 1", n)
	}
	rule.Compliance[0] = "CIS 2.1.6" // changed in place: same slice, other text
	other := in.id(&rule)
	if other == id {
		t.Fatal("a compliance list changed in place kept the old text's id")
	}
	if p := in.takePending(); len(p) != 1 || p[0].text.compliance[0] != "CIS 2.1.6" {
		t.Fatalf("pending after the change: %+v", p)
	}
	// Texts whose outer bytes and lengths agree (same slot) stay apart.
	a := engine.Finding{Title: "Bucket policy AAAA allows public read", Description: "d"}
	b := engine.Finding{Title: "Bucket policy BBBB allows public read", Description: "d"}
	if textSlotOf(&a) != textSlotOf(&b) {
		t.Fatal("test texts meant to share a slot do not")
	}
	ida, idb := in.id(&a), in.id(&b)
	if ida == idb || in.id(&a) != ida || in.id(&b) != idb {
		t.Fatalf("texts sharing a slot: ids %d, %d, again %d, %d", ida, idb, in.id(&a), in.id(&b))
	}
	// nil and empty compliance are one text (textOf).
	c, d := engine.Finding{Title: "x"}, engine.Finding{Title: "x", Compliance: []string{}}
	if in.id(&c) != in.id(&d) {
		t.Fatal("nil and empty compliance have different ids")
	}
}
