package rules

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"golang.org/x/tools/go/packages"
)

// inventoryPkg is the import path of the canonical types.
const inventoryPkg = "github.com/fourd-dev/fourd/engine/inventory"

// attrNotRead lists canonical attributes importers produce that no rule
// needs to read, each with the reason. Keep it short: identity, display and
// placement values only (a finding already names the resource by its native
// id and name; the resource view shows where it lives), never a fact about
// configuration that a check could judge.
var attrNotRead = map[string]string{
	"S3AccountPublicAccessBlock.AccountID": "identity: the account is the resource's account",
	"IAMAccount.AccountID":                 "identity: the account is the resource's account",
	"IAMPolicy.DefaultVersionID":           "identity: names the version whose document is Document, which rules read",
	"SQSQueue.URL":                         "identity: the queue's endpoint",
	"IAMUser.UserID":                       "identity: AWS's stable id of the user (AIDA…)",
	"IAMRole.RoleID":                       "identity: AWS's stable id of the role (AROA…)",
	"IAMGroup.GroupID":                     "identity: AWS's stable id of the group (AGPA…)",
	"IAMPolicy.PolicyID":                   "identity: AWS's stable id of the policy (ANPA…)",
	"LoadBalancer.DNSName":                 "display: the name clients resolve",
	"SecurityGroup.Description":            "display: free text written by the group's owner",
	"EBSSnapshot.Description":              "display: free text written by the snapshot's owner",
	"CloudFrontDistribution.DomainName":    "display: the name clients resolve",
	"VPC.CIDRBlock":                        "display: the VPC's address range",
	"IAMGroup.Path":                        "display: an organizational prefix of the name",
	"IAMPolicy.Path":                       "display: an organizational prefix of the name",
	"IAMRole.Path":                         "display: an organizational prefix of the name",
	"S3Bucket.CreationDate":                "display: age shown in the resource view",
	"EBSVolume.CreateTime":                 "display: age shown in the resource view",
	"Instance.LaunchTime":                  "display: age shown in the resource view",
	"IAMRole.CreateDate":                   "display: age shown in the resource view",
	"IAMUser.CreateDate":                   "display: age shown in the resource view",
	"Instance.AvailabilityZone":            "placement: where the instance runs",
	"Instance.VPCID":                       "placement: where the instance runs",
	"Instance.SubnetID":                    "placement: where the instance runs",
	"Instance.SecurityGroupIDs":            "relation: the groups, judged as resources of their own",
	"Instance.IAMInstanceProfile":          "relation: the profile's role is judged as a resource of its own",
	"Instance.ImageID":                     "relation: names the AMI, which the inventory does not hold",
	"EBSVolume.AvailabilityZone":           "placement: where the volume lives",
	"EBSVolume.AttachedTo":                 "relation: the instances (the volume's state says whether it is in use)",
	"SecurityGroup.VPCID":                  "placement: the group's VPC",
	"SGRule.SecurityGroups":                "relation: sources that are other groups, not the internet",
	"IAMUser.Groups":                       "relation: the groups, judged as resources of their own",
	"Route.GatewayID":                      "relation: the route's target (internet, virtual private or local gateway)",
	"Route.NATGatewayID":                   "relation: the route's target; the NAT gateway's use is joined at import (route_table_count)",
	"Route.TransitGatewayID":               "relation: the route's target, judged as a resource of its own",
}

// attrNoRuleYet lists facts importers produce that a check should judge but
// none does yet (the backlog of issue 29 §4): it may only shrink. Writing
// the rule that reads one of them makes this test ask you to remove it.
var attrNoRuleYet = map[string]string{
	"AutoScalingGroup.DesiredCapacity":          "cost: idle groups",
	"CloudFrontDistribution.PriceClass":         "cost: PriceClass_All where the audience is regional",
	"CloudTrail.IncludeGlobalServiceEvents":     "security: IAM and STS events not logged (CIS 3.1)",
	"CloudTrail.S3BucketName":                   "security: the trail's bucket is public (join with the bucket)",
	"DBInstance.Status":                         "cost: stopped instances still paying storage",
	"DBInstance.KMSKeyID":                       "security: encrypted with a customer managed key",
	"DBSnapshot.Engine":                         "cost: snapshots of engines no longer in use",
	"DBSnapshot.KMSKeyID":                       "security: encrypted with a customer managed key",
	"DynamoDBTable.SSEKMSKeyARN":                "security: encrypted with a customer managed key",
	"EBSVolume.IOPS":                            "cost: over-provisioned io1/io2 volumes",
	"EBSVolume.KMSKeyID":                        "security: encrypted with a customer managed key",
	"ECRRepository.ScanOnPush":                  "security: images not scanned on push",
	"EFSFileSystem.PerformanceMode":             "architecture: maxIO where generalPurpose serves",
	"EFSFileSystem.KMSKeyID":                    "security: encrypted with a customer managed key",
	"IAMUser.PasswordLastUsed":                  "security: console credentials unused for 45 days (CIS 1.12)",
	"Instance.Monitoring":                       "architecture: detailed monitoring off",
	"KMSKey.KeyUsage":                           "security: rotation applies to ENCRYPT_DECRYPT keys only",
	"LambdaFunction.Timeout":                    "architecture: timeouts at the maximum",
	"LoadBalancer.Scheme":                       "security: internet-facing load balancers without WAF",
	"PasswordPolicy.MaxPasswordAge":             "security: password expiry (CIS-AWS-1.4 1.11)",
	"PasswordPolicy.RequireLowercaseCharacters": "security: password complexity (CIS-AWS-1.4 1.6)",
	"PasswordPolicy.RequireNumbers":             "security: password complexity (CIS-AWS-1.4 1.7)",
	"PasswordPolicy.RequireSymbols":             "security: password complexity (CIS-AWS-1.4 1.7)",
	"PasswordPolicy.RequireUppercaseCharacters": "security: password complexity (CIS-AWS-1.4 1.5)",
	"S3Bucket.KMSMasterKeyID":                   "security: encrypted with a customer managed key",
	"SecretsManagerSecret.KMSKeyID":             "security: encrypted with a customer managed key",
}

// attrNoSample lists attributes rules read that no sample under testdata/
// carries, each with the reason that is acceptable.
var attrNoSample = map[string]string{
	"IAMAccount.Synthesized":       "set by the engine for an account no source described, never by an importer",
	"PolicyStatement.NotAction":    "IAM policy grammar, kept as written; engine/rules/iampolicy's tests evaluate it",
	"PolicyStatement.NotResource":  "IAM policy grammar, kept as written; engine/rules/iampolicy's tests evaluate it",
	"PolicyStatement.NotPrincipal": "IAM policy grammar, kept as written; engine/rules/iampolicy's tests evaluate it",
}

// attrField is one field of a canonical struct: "S3Bucket.Versioning".
type attrField = string

// TestAttributeModelHonest keeps the canonical attribute model honest: every
// attribute an importer produces is read by some rule, and every attribute a
// rule reads is produced by some importer. "Read" is found by type-checking
// engine/rules (every selection of a field of an engine/inventory struct in
// non-test code); "produced" by decoding every sample under testdata/
// (inventory samples and estates, in all their formats) and the rules' AWS
// Config cases (configRuleCases), recording the fields that are non-zero in
// at least one resource.
func TestAttributeModelHonest(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the package")
	}
	read := fieldsRulesRead(t)
	produced := fieldsImportersProduce(t)

	var problems []string
	for _, f := range sortedKeys(produced) {
		_, isRead := read[f]
		_, allowed := attrNotRead[f]
		_, backlog := attrNoRuleYet[f]
		if isRead || allowed || backlog {
			continue
		}
		problems = append(problems, fmt.Sprintf("inventory.%s (JSON %q) is produced by an importer (e.g. %s) but no rule reads it.\n"+
			"\tWrite the rule that needs it (engine/rules), or stop producing it (remove the field from the canonical type in\n"+
			"\tengine/inventory and from its decoders). Only an identity, display or placement value (an id, a name, a free-text\n"+
			"\tdescription, a zone) may instead go in attrNotRead in engine/rules/attrmodel_test.go, with the reason.",
			f, produced[f].key, produced[f].where))
	}
	for _, f := range sortedKeys(read) {
		_, isProduced := produced[f]
		_, allowed := attrNoSample[f]
		if isProduced || allowed {
			continue
		}
		problems = append(problems, fmt.Sprintf("inventory.%s is read by a rule (%s) but no importer produces it: no sample under testdata/\n"+
			"\tnor AWS Config case (configRuleCases) gives it a non-zero value. Make the AWS Config and/or Terraform decoder fill it\n"+
			"\tfrom the source's own field (engine/inventory), and give it a value in the rule's configRuleCases entry or in an\n"+
			"\testate (testdata/estates/parts/<family>.py, then python3 testdata/estates/generate.py testdata/estates).\n"+
			"\tIf no source records the fact, the rule must not read it.",
			f, read[f]))
	}
	stale := func(list, why string, bad func(string) bool, m map[string]string) {
		for _, f := range sortedKeys(m) {
			if bad(f) {
				problems = append(problems, fmt.Sprintf("inventory.%s is listed in %s (engine/rules/attrmodel_test.go) but %s: delete that line.", f, list, why))
			}
		}
	}
	isRead := func(f string) bool { _, ok := read[f]; return ok }
	notProduced := func(f string) bool { _, ok := produced[f]; return !ok }
	stale("attrNotRead", "a rule reads it now", isRead, attrNotRead)
	stale("attrNotRead", "no importer produces it", notProduced, attrNotRead)
	stale("attrNoRuleYet", "a rule reads it now (well done)", isRead, attrNoRuleYet)
	stale("attrNoRuleYet", "no importer produces it", notProduced, attrNoRuleYet)
	stale("attrNoSample", "a sample carries it now", func(f string) bool { return !notProduced(f) }, attrNoSample)
	stale("attrNoSample", "no rule reads it", func(f string) bool { return !isRead(f) }, attrNoSample)
	for _, p := range problems {
		t.Error(p)
	}
	if len(read) < 100 || len(produced) < 100 {
		t.Errorf("the analysis saw %d fields read and %d produced: it is broken", len(read), len(produced))
	}
}

// fieldsRulesRead type-checks engine/rules and its subpackages (non-test
// code) and returns every field of an engine/inventory struct that is
// selected, with one place that selects it.
func fieldsRulesRead(t *testing.T) map[attrField]string {
	t.Helper()
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo, Dir: "."}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	owners := map[*types.Var]attrField{}
	read := map[attrField]string{}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Fatalf("%s: %v", p.PkgPath, e)
		}
		for _, imp := range p.Types.Imports() {
			if imp.Path() == inventoryPkg {
				indexFields(imp, owners)
			}
		}
		for _, f := range p.Syntax {
			if ast.IsGenerated(f) {
				continue // the attribute decoders (attrdecode_gen.go) set every field, reading none
			}
			ast.Inspect(f, func(n ast.Node) bool {
				se, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				sel, ok := p.TypesInfo.Selections[se]
				if !ok || sel.Kind() != types.FieldVal {
					return true
				}
				v, ok := sel.Obj().(*types.Var)
				if !ok {
					return true
				}
				if name, ok := owners[v.Origin()]; ok {
					if _, seen := read[name]; !seen {
						read[name] = position(p.Fset, se.Pos())
					}
				}
				return true
			})
		}
	}
	return read
}

// indexFields maps every field of every struct type of pkg to its name.
func indexFields(pkg *types.Package, owners map[*types.Var]attrField) {
	scope := pkg.Scope()
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok {
			continue
		}
		st, ok := tn.Type().Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for i := range st.NumFields() {
			f := st.Field(i)
			if f.Embedded() {
				continue // its own fields are indexed under its type
			}
			owners[f] = tn.Name() + "." + f.Name()
		}
	}
}

func position(fset *token.FileSet, p token.Pos) string {
	pos := fset.Position(p)
	return fmt.Sprintf("%s:%d", filepath.Base(pos.Filename), pos.Line)
}

// producedAt is where a produced field was first seen.
type producedAt struct{ key, where string }

// sampleDirs hold the inputs the importers are tested on.
var sampleDirs = []string{"../../testdata/inventory", "../../testdata/estates"}

// fieldsImportersProduce decodes every sample inventory and AWS Config case
// and returns the canonical fields that are non-zero in at least one
// resource.
func fieldsImportersProduce(t *testing.T) map[attrField]producedAt {
	t.Helper()
	out := map[attrField]producedAt{}
	files := 0
	for _, dir := range sampleDirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || strings.HasSuffix(name, ".labels.json") ||
				!(strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".ndjson") || strings.HasSuffix(name, ".tfstate")) {
				continue
			}
			f, err := os.Open(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			res := loadReader(t, f)
			f.Close()
			files++
			recordProduced(t, res, name, out)
		}
	}
	if files < 6 {
		t.Fatalf("read %d sample files", files)
	}
	// The AWS Config cases of the rules (configRuleCases) go through the
	// same importer: what they carry is produced too.
	for _, id := range sortedKeys(configRuleCases) {
		c := configRuleCases[id]
		for side, items := range map[string]string{"pass": c.pass, "fail": c.fail} {
			recordProduced(t, decodeItems(t, items), "configRuleCases["+id+"]."+side, out)
		}
	}
	return out
}

// recordProduced records the non-zero canonical fields of resources.
func recordProduced(t *testing.T, resources []engine.Resource, source string, out map[attrField]producedAt) {
	t.Helper()
	for _, r := range resources {
		mk, ok := attrTypes[r.Type]
		if !ok || len(r.Attributes) == 0 {
			continue
		}
		v := mk()
		if err := json.Unmarshal(r.Attributes, v); err != nil {
			t.Fatalf("%s: %s %s: %v", source, r.Type, r.NativeID, err)
		}
		walkProduced(reflect.ValueOf(v).Elem(), source+" "+r.Type+" "+r.NativeID, out)
	}
}

var timeType = reflect.TypeFor[time.Time]()

// walkProduced records the non-zero fields of the canonical struct v and,
// recursively, of the canonical structs it holds.
func walkProduced(v reflect.Value, where string, out map[attrField]producedAt) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			walkProduced(v.Elem(), where, out)
		}
		return
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // json.RawMessage: a leaf
		}
		for i := range v.Len() {
			walkProduced(v.Index(i), where, out)
		}
		return
	case reflect.Struct:
	default:
		return
	}
	typ := v.Type()
	if typ.PkgPath() != inventoryPkg || typ == timeType {
		return
	}
	for i := range typ.NumField() {
		sf := typ.Field(i)
		fv := v.Field(i)
		if !sf.IsExported() {
			continue
		}
		if !sf.Anonymous && !fv.IsZero() {
			name := typ.Name() + "." + sf.Name
			if _, seen := out[name]; !seen {
				key, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
				out[name] = producedAt{key: key, where: where}
			}
		}
		walkProduced(fv, where, out)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
