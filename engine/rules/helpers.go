package rules

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/inventory"
)

// Shorthands for rule tables.
const (
	security     = engine.DimensionSecurity
	cost         = engine.DimensionCost
	architecture = engine.DimensionArchitecture
	compliance   = engine.DimensionCompliance

	info     = engine.SeverityInfo
	low      = engine.SeverityLow
	medium   = engine.SeverityMedium
	high     = engine.SeverityHigh
	critical = engine.SeverityCritical
)

var pass = Result{}

func fail(evidence map[string]any) Result { return Result{Failed: true, Evidence: evidence} }

// notEvaluated is the result of a check whose input attributes the
// source did not record.
func notEvaluated(attrs ...string) Result { return Result{NotEvaluated: true, Missing: attrs} }

// failUnless fails when a tri-state attribute is known to be false, and is
// not evaluated when it is unknown (nil). The evidence says what it read:
// attr's value is added unless the caller put it there. As with failIf,
// the evidence is built only when it is read.
func failUnless(s *Subject, v *bool, attr string, evidence func() map[string]any) Result {
	if v == nil {
		return notEvaluated(attr)
	}
	if !*v || explaining(s) {
		ev := evidence()
		if _, ok := ev[attr]; !ok && ev != nil {
			ev[attr] = *v
		}
		return Result{Failed: !*v, Evidence: ev}
	}
	return pass
}

// failIf fails with evidence when cond holds, and passes with the same
// evidence (what the check read, for Explain) when it does not. evidence
// runs only when it is read: on a failure, or on a pass of a subject being
// explained (s nil: an account rule, always); an audit's passes, most of
// its checks, build no map.
func failIf(s *Subject, cond bool, evidence func() map[string]any) Result {
	if cond || explaining(s) {
		return Result{Failed: cond, Evidence: evidence()}
	}
	return pass
}

// explaining reports whether a pass on s must say what it read: s is being
// explained, or is nil (an account rule, judged once per account).
func explaining(s *Subject) bool { return s == nil || s.explain }

// passed is a pass that says what the check read: read runs only when the
// subject is being explained (Explain), so an audit pays a branch for it.
func passed(s *Subject, read func() map[string]any) Result {
	if !s.explain {
		return pass
	}
	return Result{Evidence: read()}
}

// tag returns the value of the tag whose key matches want ignoring case,
// '-', '_' and spaces ("Cost-Center" matches "costcenter"), without
// allocating.
func tag(tags engine.Tags, want string) (string, bool) {
	for _, t := range tags {
		if tagKeyIs(t.Key, want) {
			return t.Value, true
		}
	}
	return "", false
}

func tagKeyIs(key, want string) bool {
	j := 0
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c == '-' || c == '_' || c == ' ':
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		if j >= len(want) || want[j] != c {
			return false
		}
		j++
	}
	return j == len(want)
}

// sensitiveData reports whether the resource is tagged as holding
// sensitive data (data-classification, classification or sensitivity of
// sensitive, confidential, restricted, pii or secret).
func sensitiveData(s *Subject) (string, bool) {
	for _, k := range [...]string{"dataclassification", "classification", "sensitivity"} {
		if v, ok := tag(s.Resource.Tags, k); ok {
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "sensitive", "confidential", "restricted", "pii", "secret":
				return v, true
			}
		}
	}
	return "", false
}

// production reports whether the resource is tagged as production.
func production(s *Subject) bool {
	for _, k := range [...]string{"environment", "env", "stage"} {
		if v, ok := tag(s.Resource.Tags, k); ok {
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "prod", "production", "prd", "live":
				return true
			}
		}
	}
	return false
}

// escalateIfSensitive raises a failed result to sev when the resource is
// tagged as holding sensitive data.
func escalateIfSensitive(r Result, s *Subject, sev engine.Severity) Result {
	if !r.Failed {
		return r
	}
	if v, ok := sensitiveData(s); ok {
		r.Severity = sev
		r.Reason = "the resource is tagged as holding " + strings.ToLower(v) + " data"
		if r.Evidence == nil {
			r.Evidence = map[string]any{}
		}
		r.Evidence["data_classification"] = v
	}
	return r
}

// escalateIfProduction raises a failed result to sev on a production resource.
func escalateIfProduction(r Result, s *Subject, sev engine.Severity) Result {
	if r.Failed && production(s) {
		r.Severity = sev
		r.Reason = "the resource is tagged as production"
	}
	return r
}

// days is how many whole days lie between t and now; -1 when t is unknown.
func days(t, now time.Time) int {
	if t.IsZero() {
		return -1
	}
	return int(now.Sub(t) / (24 * time.Hour))
}

// exposedRules returns the ingress rules open to the internet (0.0.0.0/0
// when v4, ::/0 when v6) that cover port (any port when port < 0).
func exposedRules(g *inventory.SecurityGroup, port int, v4, v6 bool) []inventory.SGRule {
	var out []inventory.SGRule
	for _, r := range g.Ingress {
		if !(v4 && contains(r.CIDRBlocks, "0.0.0.0/0") || v6 && contains(r.IPv6CIDRBlocks, "::/0")) {
			continue
		}
		if port < 0 || coversPort(r, port) {
			out = append(out, r)
		}
	}
	return out
}

func coversPort(r inventory.SGRule, port int) bool {
	switch strings.ToLower(r.Protocol) {
	case "-1", "all":
		return true
	case "tcp", "6", "udp", "17":
		return r.FromPort <= port && port <= r.ToPort
	}
	return false
}

func allTraffic(r inventory.SGRule) bool {
	p := strings.ToLower(r.Protocol)
	return p == "-1" || p == "all" || (p == "tcp" || p == "6") && r.FromPort <= 0 && r.ToPort >= 65535
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// instanceFamily is the family of an instance type: "m4" of "m4.large",
// "m3" of "db.m3.medium" and "cache.m3.large".
func instanceFamily(t string) string {
	t = strings.TrimPrefix(strings.TrimPrefix(t, "db."), "cache.")
	if i := strings.IndexByte(t, '.'); i >= 0 {
		return t[:i]
	}
	return t
}

// bucketBlock is the public access block in force on a bucket: each switch
// on when it is on at the bucket or at the bucket's account. acct is the
// account's block, nil when the inventory has none. wait reports that
// enough is not enough at the bucket level and the account's block is
// still being gathered (AssessDeferring): the check must defer.
func bucketBlock(s *Subject, b *inventory.S3Bucket, enough func(inventory.PublicAccessBlock) bool) (eff inventory.PublicAccessBlock, acct *inventory.PublicAccessBlock, wait bool) {
	if b.PublicAccessBlock != nil {
		eff = *b.PublicAccessBlock
	}
	if enough(eff) {
		return eff, nil, false
	}
	if s.pending {
		return eff, nil, true
	}
	if s.account != nil && s.account.pab != nil {
		acct = s.account.pab
		eff = orBlock(eff, *acct)
	}
	return eff, acct, false
}

// orBlock is each switch on when on in a or b.
func orBlock(a, b inventory.PublicAccessBlock) inventory.PublicAccessBlock {
	return inventory.PublicAccessBlock{BlockPublicACLs: a.BlockPublicACLs || b.BlockPublicACLs,
		IgnorePublicACLs: a.IgnorePublicACLs || b.IgnorePublicACLs, BlockPublicPolicy: a.BlockPublicPolicy || b.BlockPublicPolicy,
		RestrictPublicBuckets: a.RestrictPublicBuckets || b.RestrictPublicBuckets}
}

// blockEvidence is what a public-access check read of a bucket's block:
// the bucket's own, the account's when it was consulted, and the switches
// in force.
func blockEvidence(b *inventory.S3Bucket, eff inventory.PublicAccessBlock, acct *inventory.PublicAccessBlock) map[string]any {
	ev := map[string]any{"bucket": b.Bucket, "public_access_block": b.PublicAccessBlock, "effective_public_access_block": eff}
	if acct != nil {
		ev["account_public_access_block"] = acct
	}
	return ev
}

// withEvidence adds one key to an evidence map and returns it.
func withEvidence(ev map[string]any, key string, v any) map[string]any {
	ev[key] = v
	return ev
}

// accountEvidence is the account's block as evidence: its switches, or a
// note that the inventory did not have it.
func accountEvidence(p *inventory.PublicAccessBlock) any {
	if p == nil {
		return "not in the inventory"
	}
	return p
}
