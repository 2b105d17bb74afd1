package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// The decoders' absent-key rule: a decoder writes a canonical attribute
// only when its input carries the key the attribute comes from, so that a
// key the input does not carry (an Advanced Query that did not select it, a
// Terraform state without a block) is unknown to the checks, never false,
// 0 or "". TestDecoders_AbsentKeyIsNotFalse proves it from the input side:
// it takes every fixture of the importers in their sources' shapes, removes
// one key of one resource at a time, imports and audits the result, and
// fails when the audit raises a finding (or a severity) that the whole
// input did not. A removed key may only turn a pass into "not evaluated".

// absentKeyFixture is one input in an importer's own format, as units
// (configuration items, Terraform resources) inside an envelope.
type absentKeyFixture struct {
	name           string
	prefix, suffix string // the envelope around the units
	units          []any  // parsed with UseNumber; configuration values unwrapped to objects
	marshalled     [][]byte
	// quoted: units are written as JSON strings holding the item, as
	// select-resource-config (Advanced Query) returns them, the one shape
	// in which an item may lack any key.
	quoted bool
	roots  []absentKeyRoot
	// groups are the sets of units audited together (each unit is in
	// one): a whole small fixture, or in a large one a unit with the
	// records it may be joined with, so that a variant costs an import of
	// its group, not of the whole estate.
	groups [][]int
}

// absentKeyRoot is an object whose keys are removed: a configuration
// item's configuration or supplementaryConfiguration, a Terraform
// resource instance's attributes.
type absentKeyRoot struct {
	unit int
	path []any
}

// absentKeyIdentity name a resource or link it to another record (its id, ARN,
// name, the bucket a Terraform bucket resource configures, its tags):
// removing one makes another resource or an untagged one, not an unknown
// fact, so they are kept.
var absentKeyIdentity = map[string]bool{"arn": true, "id": true, "name": true, "bucket": true, "tags": true, "tags_all": true}

// doc renders the units of group g with unit i replaced by b (i < 0:
// none).
func (fx *absentKeyFixture) doc(g []int, i int, b []byte) []byte {
	var out bytes.Buffer
	out.WriteString(fx.prefix)
	for n, k := range g {
		m := fx.marshalled[k]
		if n > 0 {
			out.WriteByte(',')
		}
		if k == i {
			m = b
		}
		out.Write(m)
	}
	out.WriteString(fx.suffix)
	return out.Bytes()
}

func TestDecoders_AbsentKeyIsNotFalse(t *testing.T) {
	if testing.Short() {
		t.Skip("imports every fixture once per key")
	}
	absentKeyRun(t, 1, absentKeyKnownGaps)
}

// TestDecoders_NestedAbsentKeyIsNotFalse is TestDecoders_AbsentKeyIsNotFalse
// one level down: it removes each key of the objects the top-level keys
// hold (a public access block's switches, a security group rule's
// fromPort, a network ACL entry's ruleNumber, a load balancer attribute's
// value). On the old code 143 type/key/rule gaps showed at that depth.
func TestDecoders_NestedAbsentKeyIsNotFalse(t *testing.T) {
	if testing.Short() {
		t.Skip("imports every fixture once per nested key")
	}
	absentKeyRun(t, 2, nestedKnownGaps)
}

// absentKeyRun removes, one at a time, each key depth levels of objects
// below every fixture's roots (depth 1: the top-level keys), imports and
// audits, and compares the findings that appear with knownGaps.
func absentKeyRun(t *testing.T, depth int, knownGaps string) {
	fixtures := absentKeyFixtures(t)
	seen := map[string]bool{}   // AWS Config resource types with a fixture
	gaps := map[string]string{} // "type root.key rule" → one occurrence, in full
	variants := 0
	for _, fx := range fixtures {
		began := time.Now()
		groupOf := map[int]int{}
		var bases []map[string]engine.Severity
		for gi, g := range fx.groups {
			for _, u := range g {
				if _, ok := groupOf[u]; !ok {
					groupOf[u] = gi
				}
			}
			bases = append(bases, auditDoc(t, fx.doc(g, -1, nil)))
		}
		for _, u := range fx.units {
			if typ, ok := u.(map[string]any)["resourceType"].(string); ok {
				seen[typ] = true
			}
		}
		for _, root := range fx.roots {
			for _, path := range keyPaths(getPath(fx.units[root.unit], root.path), nil, depth) {
				if objectLevels(path) != depth {
					continue
				}
				unit := cloneJSON(fx.units[root.unit])
				deletePath(unit, append(slices.Clone(root.path), path...))
				b := fx.marshal(t, unit)
				variants++
				gi := groupOf[root.unit]
				base := bases[gi]
				for k, sev := range auditDoc(t, fx.doc(fx.groups[gi], root.unit, b)) {
					if was, ok := base[k]; !ok || sev.Rank() > was.Rank() {
						rule, native, _ := strings.Cut(k, " ")
						gap := describePath(fx.units[root.unit], root.path, path) + " " + rule
						if _, dup := gaps[gap]; !dup {
							gaps[gap] = fmt.Sprintf("%s: %s on %s (%s; before: %q)", fx.name, rule, native, sev, was)
						}
					}
				}
			}
		}
		t.Logf("%s: %d roots in %v", fx.name, len(fx.roots), time.Since(began))
	}
	known := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(knownGaps), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			known[l] = true
		}
	}
	var keys []string
	for g := range gaps {
		keys = append(keys, g)
	}
	sort.Strings(keys)
	for _, g := range keys {
		if !known[g] {
			t.Errorf("without %s a finding appears: %s", g, gaps[g])
		}
	}
	for g := range known {
		if _, ok := gaps[g]; !ok {
			t.Errorf("known gap %q no longer occurs: remove it from the known gaps", g)
		}
	}
	for _, typ := range inv.AWSConfigTypes() {
		if !seen[typ] {
			t.Errorf("no AWS Config fixture holds a %s item: add one (a passing case or the clean estate)", typ)
		}
	}
	t.Logf("%d fixtures, %d variants, %d gaps", len(fixtures), variants, len(gaps))
}

// absentKeyFixtures gathers the fixtures: the clean estate and the IAM
// sample in AWS Config's shape, every AWS Config case (both sides), and
// the Terraform states of the samples and of the Terraform tests. (The
// seeded estate is the clean one with faults, the demo's AWS Config
// snapshot repeats the estate's types 244 times, and terraform-show.json
// holds terraform.tfstate's resources: the cases stand for them at a
// fraction of the imports.)
func absentKeyFixtures(t *testing.T) []absentKeyFixture {
	var out []absentKeyFixture
	for _, f := range []string{"../estates/clean.aws-config.json", "aws-config-iam.json", "terraform.tfstate"} {
		b, err := os.ReadFile("../../testdata/inventory/" + f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, newAbsentKeyFixture(t, f, b))
	}
	ids := make([]string, 0, len(configRuleCases))
	for id := range configRuleCases {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		c := configRuleCases[id]
		for _, side := range []struct{ name, items string }{{"pass", c.pass}, {"fail", c.fail}} {
			items := strings.TrimSpace(side.items)
			if !strings.HasPrefix(items, "[") {
				items = "[" + items + "]"
			}
			out = append(out, newAbsentKeyFixture(t, id+" "+side.name, []byte(`{"configurationItems":`+items+`}`)))
		}
	}
	for _, bad := range []bool{false, true} {
		out = append(out, newAbsentKeyFixture(t, fmt.Sprintf("tfContainersState(%v)", bad), []byte(tfContainersState(bad))),
			newAbsentKeyFixture(t, fmt.Sprintf("tfEdgeState(%v)", bad), []byte(tfEdgeState(bad))),
			newAbsentKeyFixture(t, fmt.Sprintf("tfNetworkState(%v)", bad), []byte(tfNetworkState(bad))))
	}
	return out
}

// newAbsentKeyFixture parses an input into units and finds its roots.
func newAbsentKeyFixture(t *testing.T, name string, b []byte) absentKeyFixture {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var top map[string]any
	if err := dec.Decode(&top); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	fx := absentKeyFixture{name: name, suffix: "]}"}
	if top["resources"] != nil { // terraform.tfstate
		fx.prefix = `{"version":4,"terraform_version":"1.9.5","resources":[`
		fx.units = asList(top["resources"])
		for i, r := range fx.units {
			for k := range asList(r.(map[string]any)["instances"]) {
				fx.roots = append(fx.roots, absentKeyRoot{i, []any{"instances", k, "attributes"}})
			}
		}
	} else { // AWS Config: a snapshot
		fx.prefix, fx.quoted = `{"QueryInfo":{"SelectFields":[{"Name":"*"}]},"Results":[`, true
		fx.units = asList(top["configurationItems"])
		for i, it := range fx.units {
			item := it.(map[string]any)
			item["configuration"] = unwrapJSON(item["configuration"])
			if s, ok := item["supplementaryConfiguration"].(map[string]any); ok {
				for k, v := range s {
					s[k] = unwrapJSON(v)
				}
			}
			for _, k := range []string{"configuration", "supplementaryConfiguration"} {
				if _, ok := item[k].(map[string]any); ok {
					fx.roots = append(fx.roots, absentKeyRoot{i, []any{k}})
				}
			}
		}
	}
	if len(fx.roots) == 0 {
		t.Fatalf("%s: no resource found", name)
	}
	fx.groups = absentKeyGroups(fx.units)
	for _, u := range fx.units {
		fx.marshalled = append(fx.marshalled, fx.marshal(t, u))
	}
	return fx
}

// absentKeyContext are the record types other resources are judged with
// (a bucket with its account's public access block, a VPC with its flow
// logs, a subnet with its route tables, a Terraform bucket with its
// aws_s3_bucket_* settings, found by bucket name): in a large fixture each
// unit is audited with all of them.
var absentKeyContext = map[string]bool{"AWS::S3::AccountPublicAccessBlock": true, "AWS::EC2::FlowLog": true,
	"AWS::EC2::VPC": true, "AWS::EC2::RouteTable": true, "AWS::EC2::Subnet": true, "AWS::EC2::NatGateway": true,
	"AWS::Config::ConfigurationRecorder": true, "AWS::ECS::Cluster": true, "AWS::ElasticLoadBalancingV2::LoadBalancer": true,
	"AWS::ElasticLoadBalancingV2::Listener": true, "AWS::EC2::SecurityGroup": true, "AWS::CloudTrail::Trail": true,
	"aws_flow_log": true, "aws_vpc": true, "aws_caller_identity": true, "aws_volume_attachment": true,
	"aws_config_configuration_recorder": true, "aws_cloudtrail": true}

// absentKeyGroups groups a fixture's units: one group of all when there
// are few, else each unit with the context records and, for Terraform's
// S3 settings, the resources naming the same bucket.
func absentKeyGroups(units []any) [][]int {
	all := make([]int, len(units))
	for i := range all {
		all[i] = i
	}
	if len(units) <= 12 {
		return [][]int{all}
	}
	typeOf := func(u any) string {
		m := u.(map[string]any)
		if t, ok := m["resourceType"].(string); ok {
			return t
		}
		t, _ := m["type"].(string)
		return t
	}
	bucketOf := func(u any) string {
		m := u.(map[string]any)
		t, _ := m["type"].(string)
		if !strings.HasPrefix(t, "aws_s3_bucket") {
			return ""
		}
		for _, in := range asList(m["instances"]) {
			attrs, _ := in.(map[string]any)["attributes"].(map[string]any)
			if b, ok := attrs["bucket"].(string); ok {
				return b
			}
		}
		return ""
	}
	var context []int
	for i, u := range units {
		if absentKeyContext[typeOf(u)] {
			context = append(context, i)
		}
	}
	var groups [][]int
	done := map[int]bool{}
	for i, u := range units {
		if done[i] {
			continue
		}
		g := []int{i}
		if b := bucketOf(u); b != "" {
			for k := i + 1; k < len(units); k++ {
				if bucketOf(units[k]) == b {
					g = append(g, k)
					done[k] = true
				}
			}
		}
		for _, c := range context {
			if !slices.Contains(g, c) {
				g = append(g, c)
			}
		}
		slices.Sort(g)
		groups = append(groups, g)
	}
	return groups
}

// marshal writes one unit, as a JSON string when the fixture is quoted.
func (fx *absentKeyFixture) marshal(t *testing.T, u any) []byte {
	b, err := json.Marshal(u)
	if err == nil && fx.quoted {
		b, err = json.Marshal(string(b))
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// unwrapJSON turns a JSON string holding an object or array (the history
// encoding of a configuration value) into that value, once.
func unwrapJSON(v any) any {
	s, ok := v.(string)
	if !ok || !json.Valid([]byte(s)) || !strings.ContainsAny(s[:1], "{[") {
		return v
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var out any
	if dec.Decode(&out) != nil {
		return v
	}
	return out
}

func asList(v any) []any { l, _ := v.([]any); return l }

// keyPaths lists the paths (relative to v) of every object key in v down
// to depth levels of objects; arrays are entered without counting.
func keyPaths(v any, prefix []any, depth int) [][]any {
	if depth == 0 {
		return nil
	}
	var out [][]any
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if absentKeyIdentity[k] {
				continue
			}
			p := append(slices.Clone(prefix), k)
			out = append(out, p)
			out = append(out, keyPaths(x[k], p, depth-1)...)
		}
	case []any:
		for i, e := range x {
			out = append(out, keyPaths(e, append(slices.Clone(prefix), i), depth)...)
		}
	}
	return out
}

// objectLevels counts the object keys of path (array indexes do not count).
func objectLevels(path []any) int {
	n := 0
	for _, p := range path {
		if _, ok := p.(string); ok {
			n++
		}
	}
	return n
}

func getPath(v any, path []any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v
}

// deletePath removes the object key at the end of path.
func deletePath(doc any, path []any) {
	delete(getPath(doc, path[:len(path)-1]).(map[string]any), path[len(path)-1].(string))
}

// describePath names a removed key with its resource's type (the
// configuration item's, or the Terraform resource's).
func describePath(unit any, root, path []any) string {
	u := unit.(map[string]any)
	who := fmt.Sprint(u["resourceType"])
	if u["resourceType"] == nil {
		who = fmt.Sprint(u["type"])
	}
	var b strings.Builder
	b.WriteString(fmt.Sprint(root[len(root)-1]))
	for _, p := range path {
		fmt.Fprintf(&b, ".%v", p)
	}
	return who + " " + b.String()
}

func cloneJSON(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = cloneJSON(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = cloneJSON(e)
		}
		return l
	}
	return v
}

// auditDoc imports an input (skipping records the decoder refuses) and
// audits it; it returns each finding's severity by "rule native-id".
func auditDoc(t *testing.T, b []byte) map[string]engine.Severity {
	d, _, err := inv.Open(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	a := NewAuditor(sampleNow)
	out := map[string]engine.Severity{}
	add := func(v Violation, native string) {
		k := v.Rule.ID + " " + native
		if v.Severity.Rank() > out[k].Rank() {
			out[k] = v.Severity
		}
	}
	for {
		r, err := d.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var le *inv.LineError
		if errors.As(err, &le) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range a.Evaluate(r) {
			add(v, r.NativeID)
		}
	}
	for _, v := range a.Finish() {
		add(v.Violation, v.Resource.NativeID)
	}
	return out
}

// absentKeyKnownGaps are the absent keys that still turn into a finding,
// one "type root.key rule" a line: decoders (or account-wide checks) that
// do not follow the absent-key rule yet. The test fails on a gap missing
// from this list and on a listed one that no longer occurs, so the list
// stays the truth; shorten it as decoders are fixed.
const absentKeyKnownGaps = `
# Keys that name a resource or link two records: without them the record is
# about another resource or none (a flow log of no VPC leaves the VPC without
# a known flow log only when the import holds no other; the cases name RDS
# items by resource id, so the identifier's fallback, resourceName, is not
# the identifier there, as it is in AWS's items).
AWS::EC2::FlowLog configuration.resourceId aws-vpc-001
AWS::EC2::VPC configuration.vpcId aws-vpc-001
aws_flow_log attributes.vpc_id aws-vpc-001
AWS::IAM::Role configuration.roleName aws-iam-021
AWS::RDS::DBCluster configuration.dbclusterIdentifier aws-rds-025
AWS::RDS::DBInstance configuration.dBInstanceIdentifier aws-rds-026
aws_config_configuration_recorder attributes.region aws-account-002
`

// nestedKnownGaps are the nested keys whose removal still raises a
// finding. Fixed (issue 29): the S3 public access block's switches (an
// incomplete block is unknown), security group rules' ports, network ACL
// entries and associations, load balancer attribute entries; then the
// settings objects (a "?" nested source in recordedOnly: a key AWS leaves
// out of a whole item when the setting is off is the setting's absence
// there, and unknown in a partial item, as the fixtures here are), the
// Terraform S3 companions' block attributes ("block.attr" sources) and
// Terraform's inline security group rules (a rule without its ports leaves
// ingress or egress unknown, kept so when aws_security_group_rule
// resources patch the group); last the link keys between two records (a
// route that names no target leaves the table's routes unknown, an
// attachment without its policyArn the principal's attached policies:
// TestRouteWithoutTarget_RoutesUnknown, TestAttachmentWithoutPolicyARN_
// PoliciesUnknown). None is left: the test holds with no exception.
const nestedKnownGaps = ``
