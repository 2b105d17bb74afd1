package rules

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
	"github.com/google/go-cmp/cmp"
)

func allowAll(principal string) string {
	return `{"Statement":[{"Effect":"Allow","Principal":` + principal + `,"Action":"*"}]}`
}

const (
	adminDoc   = `{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}`
	readDoc    = `{"Statement":[{"Effect":"Allow","Action":["s3:GetObject"],"Resource":"arn:aws:s3:::b/*"}]}`
	passRunDoc = `{"Statement":[{"Effect":"Allow","Action":["iam:PassRole","ec2:RunInstances"],"Resource":"*"}]}`
	orgOnly    = `{"Statement":[{"Effect":"Allow","Principal":"*","Action":"*","Condition":{"StringEquals":{"aws:PrincipalOrgID":"o-1"}}}]}`
)

// policyRuleCases holds, for each rule that reads policy documents, a
// resource that passes and one that fails (TestRules_PassAndFail runs them).
var policyRuleCases = map[string]struct{ pass, fail engine.Resource }{
	"aws-iam-012": {mk(inv.TypeIAMPolicy, `{"policy_name":"p","attachment_count":1,"document":`+readDoc+`}`),
		mk(inv.TypeIAMPolicy, `{"policy_name":"p","attachment_count":1,"document":`+adminDoc+`}`)},
	"aws-iam-013": {mk(inv.TypeIAMRole, `{"role_name":"r","attached_policy_arns":["arn:aws:iam::aws:policy/ReadOnlyAccess"],"inline_policies":[{"name":"i","document":`+readDoc+`}]}`),
		mk(inv.TypeIAMRole, `{"role_name":"r","inline_policies":[{"name":"i","document":`+adminDoc+`}]}`)},
	"aws-iam-014": {mk(inv.TypeIAMGroup, `{"group_name":"g","inline_policies":[{"name":"i","document":`+readDoc+`}]}`),
		mk(inv.TypeIAMGroup, `{"group_name":"g","attached_policy_arns":["arn:aws:iam::aws:policy/AdministratorAccess"]}`)},
	"aws-iam-015": {mk(inv.TypeIAMRole, `{"role_name":"r","assume_role_policy":{"Statement":[{"Effect":"Allow","Principal":{"Service":"ec2.amazonaws.com"},"Action":"sts:AssumeRole"}]}}`),
		mk(inv.TypeIAMRole, `{"role_name":"r","assume_role_policy":{"Statement":[{"Effect":"Allow","Principal":{"AWS":"*"},"Action":"sts:AssumeRole"}]}}`)},
	"aws-iam-016": {mk(inv.TypeIAMRole, `{"role_name":"r","assume_role_policy":{"Statement":[{"Effect":"Allow","Principal":{"AWS":"999988887777"},"Action":"sts:AssumeRole","Condition":{"StringEquals":{"sts:ExternalId":"x1"}}}]}}`),
		mk(inv.TypeIAMRole, `{"role_name":"r","assume_role_policy":{"Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::999988887777:root"},"Action":"sts:AssumeRole"}]}}`)},
	"aws-iam-018": {mk(inv.TypeIAMRole, `{"role_name":"r","assume_role_policy":{"Statement":[{"Effect":"Allow","Principal":{"Federated":"arn:aws:iam::111122223333:oidc-provider/token.actions.githubusercontent.com"},"Action":"sts:AssumeRoleWithWebIdentity","Condition":{"StringLike":{"token.actions.githubusercontent.com:sub":"repo:acme/app:ref:refs/heads/main"}}}]}}`),
		mk(inv.TypeIAMRole, `{"role_name":"r","assume_role_policy":{"Statement":[{"Effect":"Allow","Principal":{"Federated":"arn:aws:iam::111122223333:oidc-provider/token.actions.githubusercontent.com"},"Action":"sts:AssumeRoleWithWebIdentity","Condition":{"StringEquals":{"token.actions.githubusercontent.com:aud":"sts.amazonaws.com"}}}]}}`)},
	"aws-iam-017": {mk(inv.TypeIAMPolicy, `{"policy_name":"p","document":`+readDoc+`}`),
		mk(inv.TypeIAMPolicy, `{"policy_name":"p","document":`+passRunDoc+`}`)},
	"aws-kms-003": {mk(inv.TypeKMSKey, `{"key_id":"k","policy":`+allowAll(`{"AWS":"arn:aws:iam::111122223333:root"}`)+`}`),
		mk(inv.TypeKMSKey, `{"key_id":"k","policy":`+allowAll(`{"AWS":"*"}`)+`}`)},
	"aws-sqs-003":            {mk(inv.TypeSQSQueue, `{"name":"q","policy":`+orgOnly+`}`), mk(inv.TypeSQSQueue, `{"name":"q","policy":`+allowAll(`"*"`)+`}`)},
	"aws-sns-002":            {mk(inv.TypeSNSTopic, `{"name":"t","policy":`+orgOnly+`}`), mk(inv.TypeSNSTopic, `{"name":"t","policy":`+allowAll(`{"AWS":["*"]}`)+`}`)},
	"aws-lambda-005":         {mk(inv.TypeLambdaFunction, `{"function_name":"f"}`), mk(inv.TypeLambdaFunction, `{"function_name":"f","policy":`+allowAll(`"*"`)+`}`)},
	"aws-ecr-001":            {mk(inv.TypeECRRepository, `{"repository_name":"r","policy":`+orgOnly+`}`), mk(inv.TypeECRRepository, `{"repository_name":"r","policy":`+allowAll(`"*"`)+`}`)},
	"aws-secretsmanager-001": {mk(inv.TypeSecretsManagerSecret, `{"name":"s","policy":`+allowAll(`{"AWS":"arn:aws:iam::111122223333:role/app"}`)+`}`), mk(inv.TypeSecretsManagerSecret, `{"name":"s","policy":`+allowAll(`"*"`)+`}`)},
}

// TestPolicyRules_Semantics checks that the policy rules follow IAM's
// evaluation, not the text: each case would be misjudged by a grep.
func TestPolicyRules_Semantics(t *testing.T) {
	tests := []struct {
		name string
		res  engine.Resource
		rule string
		want bool
	}{
		{"user: inline admin split over two policies still counts", mk(inv.TypeIAMUser,
			`{"user_name":"u","inline_policies":[{"name":"a","document":{"Statement":{"Effect":"Allow","Action":"s3:*","Resource":"*"}}},{"name":"b","document":{"Statement":[{"Effect":"Allow","Action":"*:*","Resource":["*"]}]}}]}`), "aws-iam-006", true},
		{"user: admin cancelled by an unconditional Deny in another inline policy", mk(inv.TypeIAMUser,
			`{"user_name":"u","inline_policies":[{"name":"a","document":`+adminDoc+`},{"name":"b","document":{"Statement":{"Effect":"Deny","Action":"iam:*","Resource":"*"}}}]}`), "aws-iam-006", false},
		{"user: a customer policy named AdministratorAccess is not AWS's", mk(inv.TypeIAMUser,
			`{"user_name":"u","attached_policy_arns":["arn:aws:iam::111122223333:policy/AdministratorAccess"]}`), "aws-iam-006", false},
		{"user: AdministratorAccess in GovCloud", mk(inv.TypeIAMUser,
			`{"user_name":"u","attached_policy_arns":["arn:aws-us-gov:iam::aws:policy/AdministratorAccess"]}`), "aws-iam-006", true},
		{"policy: conditional admin (MFA) is not flagged", mk(inv.TypeIAMPolicy,
			`{"policy_name":"p","document":{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*","Condition":{"Bool":{"aws:MultiFactorAuthPresent":"true"}}}]}}`), "aws-iam-012", false},
		{"policy: NotAction iam:* is not full admin", mk(inv.TypeIAMPolicy,
			`{"policy_name":"p","document":{"Statement":[{"Effect":"Allow","NotAction":"iam:*","Resource":"*"}]}}`), "aws-iam-012", false},
		{"policy: no document is not evaluated, not failed", mk(inv.TypeIAMPolicy, `{"policy_name":"p","document":null}`), "aws-iam-012", false},
		{"escalation: iam:Pass* with lambda:Create* on *", mk(inv.TypeIAMRole,
			`{"role_name":"r","inline_policies":[{"name":"i","document":{"Statement":[{"Effect":"Allow","Action":["iam:Pass*","lambda:Create*"],"Resource":"*"}]}}]}`), "aws-iam-017", true},
		{"escalation: PassRole scoped to one role", mk(inv.TypeIAMGroup,
			`{"group_name":"g","inline_policies":[{"name":"i","document":{"Statement":[{"Effect":"Allow","Action":"iam:PassRole","Resource":"arn:aws:iam::111122223333:role/app"},{"Effect":"Allow","Action":"ec2:RunInstances","Resource":"*"}]}}]}`), "aws-iam-017", false},
		{"escalation: AttachUserPolicy on * for a user", mk(inv.TypeIAMUser,
			`{"user_name":"u","inline_policies":[{"name":"i","document":{"Statement":{"Effect":"Allow","Action":"IAM:attachuserpolicy","Resource":"*"}}}]}`), "aws-iam-017", true},
		{"trust: org-restricted wildcard principal", mk(inv.TypeIAMRole,
			`{"role_name":"r","assume_role_policy":{"Statement":[{"Effect":"Allow","Principal":"*","Action":"sts:AssumeRole","Condition":{"StringEquals":{"aws:PrincipalOrgID":"o-1"}}}]}}`), "aws-iam-015", false},
		{"trust: own account is not external", mk(inv.TypeIAMRole,
			`{"role_name":"r","assume_role_policy":{"Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::111122223333:role/ci"},"Action":"sts:AssumeRole"}]}}`), "aws-iam-016", false},
		{"S3: SecureTransport does not make a public statement private", mk(inv.TypeS3Bucket,
			`{"bucket":"b","public_access_block":null,"policy":{"Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::b/*","Condition":{"Bool":{"aws:SecureTransport":"true"}}}]}}`), "aws-s3-003", true},
		{"S3: NotPrincipal Allow is public", mk(inv.TypeS3Bucket,
			`{"bucket":"b","public_access_block":null,"policy":{"Statement":[{"Effect":"Allow","NotPrincipal":{"AWS":"arn:aws:iam::111122223333:root"},"Action":"s3:GetObject","Resource":"arn:aws:s3:::b/*"}]}}`), "aws-s3-003", true},
		{"S3: a policy string in AWS Config's encoding", mk(inv.TypeS3Bucket,
			`{"bucket":"b","public_access_block":null,"policy":"{\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"s3:GetObject\",\"Resource\":\"arn:aws:s3:::b/*\"}]}"}`), "aws-s3-003", true},
		{"S3: HTTP denied for the whole bucket", mk(inv.TypeS3Bucket,
			`{"bucket":"b","policy":{"Statement":[{"Effect":"Deny","Principal":{"AWS":"*"},"Action":"s3:*","Resource":["arn:aws:s3:::b","arn:aws:s3:::b/*"],"Condition":{"Bool":{"aws:SecureTransport":"false"}}}]}}`), "aws-s3-005", false},
		{"S3: HTTP denied for one prefix only", mk(inv.TypeS3Bucket,
			`{"bucket":"b","policy":{"Statement":[{"Effect":"Deny","Principal":"*","Action":"s3:*","Resource":"arn:aws:s3:::b/private/*","Condition":{"Bool":{"aws:SecureTransport":"false"}}}]}}`), "aws-s3-005", true},
		{"SNS: AWS's default topic policy (AWS:SourceOwner)", mk(inv.TypeSNSTopic,
			`{"name":"t","policy":{"Statement":[{"Effect":"Allow","Principal":{"AWS":"*"},"Action":["SNS:Publish"],"Condition":{"StringEquals":{"AWS:SourceOwner":"111122223333"}}}]}}`), "aws-sns-002", false},
		{"SQS: public Allow cancelled by a public Deny", mk(inv.TypeSQSQueue,
			`{"name":"q","policy":{"Statement":[{"Effect":"Allow","Principal":"*","Action":"sqs:SendMessage"},{"Effect":"Deny","Principal":"*","Action":"sqs:*"}]}}`), "aws-sqs-003", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, fired := firedIDs(Evaluate(tt.res, testNow))[tt.rule]
			if fired != tt.want {
				t.Errorf("%s fired = %v, want %v (evidence %v)", tt.rule, fired, tt.want, v.Evidence)
			}
		})
	}
}

func TestPolicyRules_UnattachedAdminPolicyIsMedium(t *testing.T) {
	v := firedIDs(Evaluate(mk(inv.TypeIAMPolicy, `{"policy_name":"p","attachment_count":0,"document":`+adminDoc+`}`), testNow))["aws-iam-012"]
	if v.Rule == nil || v.Severity != engine.SeverityMedium || v.SeverityReason == "" {
		t.Errorf("got %+v", v)
	}
}

// decodeAWSConfig reads AWS Config items from a file.
func decodeAWSConfig(t *testing.T, path string) []engine.Resource {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := inv.NewAWSConfigDecoder(f)
	var out []engine.Resource
	for {
		r, err := d.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, r)
	}
}

// policyRules are the ids of the rules that read policy documents.
var policyRules = []string{"aws-iam-006", "aws-iam-012", "aws-iam-013", "aws-iam-014", "aws-iam-015", "aws-iam-016", "aws-iam-017", "aws-iam-018", "aws-iam-019",
	"aws-kms-003", "aws-sqs-003", "aws-sns-002", "aws-lambda-005", "aws-ecr-001", "aws-secretsmanager-001", "aws-s3-003"}

// policyFindings audits resources as one stream (an Auditor, so that
// checks joining other resources of the account run) and returns, per
// resource name, the policy rules that fired.
func policyFindings(res []engine.Resource) map[string][]string {
	got := map[string][]string{}
	a := NewAuditor(sampleNow)
	for _, r := range res {
		for _, v := range a.Evaluate(r) {
			if slices.Contains(policyRules, v.Rule.ID) {
				got[r.Name] = append(got[r.Name], v.Rule.ID)
			}
		}
	}
	for _, v := range a.Finish() {
		if slices.Contains(policyRules, v.Rule.ID) {
			got[v.Resource.Name] = append(got[v.Resource.Name], v.Rule.ID)
		}
	}
	for _, ids := range got {
		sort.Strings(ids)
	}
	return got
}

// joinRuleCases holds, for the rules that read other resources of the
// account, a stream whose principal passes and one whose principal fails
// (TestJoinRules_PassAndFail runs them through an Auditor).
var joinRuleCases = map[string]struct{ pass, fail []engine.Resource }{
	"aws-iam-019": {
		[]engine.Resource{mkARN(inv.TypeIAMPolicy, "arn:aws:iam::111122223333:policy/read", `{"policy_name":"read","document":`+readDoc+`}`),
			mk(inv.TypeIAMRole, `{"role_name":"r","attached_policy_arns":["arn:aws:iam::111122223333:policy/read","arn:aws:iam::aws:policy/ReadOnlyAccess"]}`)},
		// The role comes before the policy it is attached to.
		[]engine.Resource{mk(inv.TypeIAMRole, `{"role_name":"r","attached_policy_arns":["arn:aws:iam::111122223333:policy/all"]}`),
			mkARN(inv.TypeIAMPolicy, "arn:aws:iam::111122223333:policy/all", `{"policy_name":"all","document":`+adminDoc+`}`)},
	},
}

func mkARN(typ, arn, attrs string) engine.Resource {
	r := mk(typ, attrs)
	r.NativeID, r.Name = arn, arn[strings.LastIndexByte(arn, '/')+1:]
	return r
}

func TestJoinRules_PassAndFail(t *testing.T) {
	fired := func(stream []engine.Resource, id string) bool {
		principal := stream[0]
		if principal.Type == inv.TypeIAMPolicy {
			principal = stream[len(stream)-1]
		}
		return slices.Contains(policyFindingsOf(stream)[principal.Name], id)
	}
	for id, c := range joinRuleCases {
		t.Run(id, func(t *testing.T) {
			if fired(c.pass, id) {
				t.Errorf("passing stream fired %s", id)
			}
			if !fired(c.fail, id) {
				t.Errorf("failing stream did not fire %s", id)
			}
		})
	}
	// Without its policy's record the principal is not evaluated, alone
	// or in a stream.
	role := mk(inv.TypeIAMRole, `{"role_name":"r","attached_policy_arns":["arn:aws:iam::111122223333:policy/elsewhere"]}`)
	for _, ne := range Assess(role, testNow).NotEvaluated {
		if ne.Rule.ID == "aws-iam-019" {
			return
		}
	}
	t.Error("aws-iam-019 was not reported as not evaluated without the policy")
}

// policyFindingsOf is policyFindings over every rule id.
func policyFindingsOf(res []engine.Resource) map[string][]string {
	got := map[string][]string{}
	a := NewAuditor(testNow)
	for _, r := range res {
		for _, v := range a.Evaluate(r) {
			got[r.Name] = append(got[r.Name], v.Rule.ID)
		}
	}
	for _, v := range a.Finish() {
		got[v.Resource.Name] = append(got[v.Resource.Name], v.Rule.ID)
	}
	return got
}

// TestPolicyRules_AWSSampleEvents runs the policy rules over AWS's own
// configuration items (awslabs/aws-iam-access-analyzer-policy-validation-
// config-rule function/sample-events, in engine/inventory/testdata): the
// service-catalog launch role's inline policy is Allow "*" on "*", and
// ConfigTestRule's "lambda:*" on "*" includes lambda:UpdateFunctionCode on
// every function, an escalation (run code as any function's role). The
// other items (S3 put/get policy, default SNS and SQS policies, the
// CloudTrail key policy) produce nothing.
func TestPolicyRules_AWSSampleEvents(t *testing.T) {
	files, err := filepath.Glob("../inventory/testdata/awsconfig/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no sample events: %v", err)
	}
	var res []engine.Resource
	for _, f := range files {
		res = append(res, decodeAWSConfig(t, f)...)
	}
	want := map[string][]string{"S3LaunchRole": {"aws-iam-013"}, "ConfigTestRule": {"aws-iam-017"}}
	if diff := cmp.Diff(want, policyFindings(res)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestPolicyRules_IAMSample: every seeded misconfiguration of
// testdata/inventory/aws-config-iam.json is found by the intended rule,
// and its well-configured twins produce no policy finding.
func TestPolicyRules_IAMSample(t *testing.T) {
	got := policyFindings(decodeAWSConfig(t, "../../testdata/inventory/aws-config-iam.json"))
	want := map[string][]string{
		"AdminEverything":                      {"aws-iam-012"},
		"Deployer":                             {"aws-iam-017"},
		"legacy-admin":                         {"aws-iam-013"},
		"open-role":                            {"aws-iam-015"},
		"vendor-audit":                         {"aws-iam-016"},
		"gha-deploy-any":                       {"aws-iam-018"},
		"ops-admin":                            {"aws-iam-019"},
		"admins":                               {"aws-iam-014"},
		"developers":                           {"aws-iam-017"},
		"ci-bot":                               {"aws-iam-006"},
		"1111aaaa-2222-3333-4444-555566667777": {"aws-kms-003"},
		"public-intake":                        {"aws-sqs-003"},
		"public-alerts":                        {"aws-sns-002"},
		"public-hook":                          {"aws-lambda-005"},
		"shared-base":                          {"aws-ecr-001"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	for name := range got {
		if strings.Contains(name, "ReadAppData") || name == "app-ec2" || name == "orders" || name == "gha-deploy" {
			t.Errorf("clean twin %s has findings", name)
		}
	}
}

// TestPolicyRules_Terraform: the same rules judge policies read from a
// Terraform state (JSON-string policy attributes).
func TestPolicyRules_Terraform(t *testing.T) {
	const state = `{"version":4,"resources":[
	 {"mode":"managed","type":"aws_iam_role","name":"ci","instances":[{"attributes":{"arn":"arn:aws:iam::111122223333:role/ci","id":"ci","name":"ci",
	   "assume_role_policy":"{\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"*\"},\"Action\":\"sts:AssumeRole\"}]}",
	   "inline_policy":[{"name":"deploy","policy":"{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\"}]}"}]}}]},
	 {"mode":"managed","type":"aws_iam_policy","name":"p","instances":[{"attributes":{"arn":"arn:aws:iam::111122223333:policy/launch","id":"launch","name":"launch",
	   "policy":"{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":[\"iam:PassRole\",\"ec2:RunInstances\"],\"Resource\":\"*\"}]}"}}]},
	 {"mode":"managed","type":"aws_kms_key","name":"k","instances":[{"attributes":{"arn":"arn:aws:kms:eu-west-1:111122223333:key/k1","id":"k1","key_id":"k1","enable_key_rotation":true,
	   "policy":"{\"Statement\":[{\"Sid\":\"Root\",\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"arn:aws:iam::111122223333:root\"},\"Action\":\"kms:*\",\"Resource\":\"*\"}]}"}}]}
	]}`
	d, _, err := inv.Open(strings.NewReader(state))
	if err != nil {
		t.Fatal(err)
	}
	var res []engine.Resource
	for {
		r, err := d.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		res = append(res, r)
	}
	want := map[string][]string{"ci": {"aws-iam-013", "aws-iam-015"}, "launch": {"aws-iam-017"}}
	if diff := cmp.Diff(want, policyFindings(res)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestPolicyRules_UnknownIsNotEvaluated: a policy check whose document the
// source did not record reports "not evaluated" naming the attribute,
// never a finding and never a pass.
func TestPolicyRules_UnknownIsNotEvaluated(t *testing.T) {
	tests := []struct {
		rule    string
		res     engine.Resource
		missing []string
	}{
		{"aws-iam-012", mk(inv.TypeIAMPolicy, `{"policy_name":"p","attachment_count":1}`), []string{"document"}},
		{"aws-iam-017", mk(inv.TypeIAMPolicy, `{"policy_name":"p","document":null}`), []string{"document"}},
		{"aws-iam-015", mk(inv.TypeIAMRole, `{"role_name":"r"}`), []string{"assume_role_policy"}},
		{"aws-iam-016", mk(inv.TypeIAMRole, `{"role_name":"r"}`), []string{"assume_role_policy"}},
		{"aws-iam-018", mk(inv.TypeIAMRole, `{"role_name":"r"}`), []string{"assume_role_policy"}},
		// Terraform's aws_iam_user and older NDJSON name inline policies
		// without their documents.
		{"aws-iam-006", mk(inv.TypeIAMUser, `{"user_name":"u","inline_policy_names":["x"]}`), []string{"inline_policies"}},
		{"aws-iam-017", mk(inv.TypeIAMUser, `{"user_name":"u","inline_policy_names":["x"]}`), []string{"inline_policies"}},
		{"aws-kms-003", mk(inv.TypeKMSKey, `{"key_id":"k"}`), []string{"policy"}},
		{"aws-lambda-005", mk(inv.TypeLambdaFunction, `{"function_name":"f"}`), []string{"policy"}},
		{"aws-secretsmanager-001", mk(inv.TypeSecretsManagerSecret, `{"name":"s"}`), []string{"policy"}},
	}
	for _, tt := range tests {
		t.Run(tt.rule+" "+tt.res.Type, func(t *testing.T) {
			assertNotEvaluated(t, tt.res, tt.rule, tt.missing)
		})
	}
	// Known to have no policy (SQS and SNS omit it, ECR writes null): they
	// pass on a record the importer wrote whole. On a partial record (one
	// lacking a key its type writes even when zero) the omitted policy may
	// just be unrecorded: not evaluated (issue 29).
	for _, r := range []engine.Resource{mk(inv.TypeSQSQueue, `{"name":"q"}`), mk(inv.TypeSNSTopic, `{"name":"t"}`),
		mk(inv.TypeECRRepository, `{"repository_name":"r","policy":null}`), mk(inv.TypeIAMUser, `{"user_name":"u"}`)} {
		for _, ne := range Assess(wholeRecord(t, r), testNow).NotEvaluated {
			if slices.Contains(policyRules, ne.Rule.ID) {
				t.Errorf("%s: %s not evaluated", r.Type, ne.Rule.ID)
			}
		}
	}
	for _, c := range []struct {
		res  engine.Resource
		rule string
	}{
		{mk(inv.TypeSQSQueue, `{"name":"q"}`), "aws-sqs-003"}, {mk(inv.TypeSNSTopic, `{"name":"t"}`), "aws-sns-002"},
		{mk(inv.TypeIAMUser, `{"user_name":"u"}`), "aws-iam-017"}, {mk(inv.TypeIAMRole, `{"role_name":"r","role_id":"R"}`), "aws-iam-017"},
	} {
		if !slices.ContainsFunc(Assess(c.res, testNow).NotEvaluated, func(ne NotEvaluated) bool { return ne.Rule.ID == c.rule }) {
			t.Errorf("%s %s: %s is judged on a partial record", c.res.Type, c.res.Attributes, c.rule)
		}
	}
}
