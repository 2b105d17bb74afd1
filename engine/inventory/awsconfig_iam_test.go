package inventory

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/go-cmp/cmp"
)

// The files of testdata/awsconfig are configuration items from
// awslabs/aws-iam-access-analyzer-policy-validation-config-rule,
// function/sample-events/ (commit 4ec2885a): create-*.json are the
// configurationItem of a rule-invocation event (objects, as snapshots and
// change notifications carry them), history-*.json the answer of
// get-resource-config-history (configuration as a JSON string). They are
// copied unchanged but for unwrapping invokingEvent.

func decodeConfigFile(t *testing.T, name string) engine.Resource {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata/awsconfig", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := NewAWSConfigDecoder(f)
	var out []engine.Resource
	for {
		r, err := d.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, r)
	}
	if len(out) != 1 {
		t.Fatalf("%s: %d resources, want 1", name, len(out))
	}
	return out[0]
}

func attrsOf[T any](t *testing.T, r engine.Resource) *T {
	t.Helper()
	v := new(T)
	if err := json.Unmarshal(r.Attributes, v); err != nil {
		t.Fatalf("attributes of %s: %v", r.Type, err)
	}
	return v
}

func actions(d *PolicyDocument) [][]string {
	if d == nil {
		return nil
	}
	var out [][]string
	for _, s := range d.Statement {
		out = append(out, append(append([]string{s.Effect}, s.Action...), s.NotAction...))
	}
	return out
}

func TestAWSConfig_IAMRole(t *testing.T) {
	for _, name := range []string{"create-iam-role.json", "history-iam-role.json"} {
		t.Run(name, func(t *testing.T) {
			r := decodeConfigFile(t, name)
			if r.Type != TypeIAMRole || r.Region != RegionGlobal || r.Account != "123456789123" {
				t.Fatalf("type %s region %s account %s", r.Type, r.Region, r.Account)
			}
			a := attrsOf[IAMRole](t, r)
			if a.AssumeRolePolicy == nil || len(a.AssumeRolePolicy.Statement) != 1 ||
				!strings.Contains(string(a.AssumeRolePolicy.Statement[0].Principal), "amazonaws.com") {
				t.Errorf("trust policy not decoded: %+v", a.AssumeRolePolicy)
			}
			if len(a.InlinePolicies) != 1 {
				t.Fatalf("inline policies: %+v", a.InlinePolicies)
			}
			want := map[string][][]string{
				"create-iam-role.json":  {{"Allow", "lambda:*"}},
				"history-iam-role.json": {{"Allow", "*"}, {"Deny", "cloudformation:CreateStack"}},
			}[name]
			if diff := cmp.Diff(want, actions(a.InlinePolicies[0].Document)); diff != "" {
				t.Errorf("inline policy (-want +got)\n%s", diff)
			}
		})
	}
}

func TestAWSConfig_IAMPolicy_DefaultVersion(t *testing.T) {
	// create-iam-policy.json has v1 (s3:PutObject) and the default v2.
	r := decodeConfigFile(t, "create-iam-policy.json")
	a := attrsOf[IAMPolicy](t, r)
	if r.Type != TypeIAMPolicy || r.Region != RegionGlobal || a.DefaultVersionID != "v2" || a.AttachmentCount == nil || *a.AttachmentCount != 0 {
		t.Fatalf("%s %s %+v", r.Type, r.Region, a)
	}
	if diff := cmp.Diff([][]string{{"Allow", "s3:PutObject", "s3:GetObject"}}, actions(a.Document)); diff != "" {
		t.Errorf("default version (-want +got)\n%s", diff)
	}
	h := attrsOf[IAMPolicy](t, decodeConfigFile(t, "history-iam-policy.json"))
	if h.Document == nil || h.AttachmentCount == nil || *h.AttachmentCount != 1 || len(h.Document.Statement) == 0 {
		t.Errorf("history item: %+v", h)
	}
}

func TestAWSConfig_IAMUserAndGroupInlinePolicies(t *testing.T) {
	u := attrsOf[IAMUser](t, decodeConfigFile(t, "history-iam-user.json"))
	if len(u.InlinePolicies) == 0 || u.InlinePolicies[0].Document == nil || len(u.InlinePolicies[0].Document.Statement) == 0 {
		t.Errorf("user inline policies not decoded: %+v", u.InlinePolicies)
	}
	if len(u.InlinePolicyNames) != len(u.InlinePolicies) {
		t.Errorf("names %v vs %d documents", u.InlinePolicyNames, len(u.InlinePolicies))
	}
	g := decodeConfigFile(t, "history-iam-group.json")
	ga := attrsOf[IAMGroup](t, g)
	if g.Type != TypeIAMGroup || len(ga.InlinePolicies) == 0 || ga.InlinePolicies[0].Document == nil {
		t.Errorf("group: %s %+v", g.Type, ga)
	}
	empty := attrsOf[IAMGroup](t, decodeConfigFile(t, "create-iam-group.json"))
	if empty.GroupName != "TestConfigGroup" || len(empty.InlinePolicies) != 0 {
		t.Errorf("group without policies: %+v", empty)
	}
}

func TestAWSConfig_ResourcePolicies(t *testing.T) {
	tests := []struct {
		file, typ string
		policy    func(t *testing.T, r engine.Resource) *PolicyDocument
		wantSid   string
	}{
		// KMS supplementaryConfiguration.Policy: a JSON string in the
		// event, a doubly encoded one in history.
		{"create-kms-key.json", TypeKMSKey, func(t *testing.T, r engine.Resource) *PolicyDocument { return attrsOf[KMSKey](t, r).Policy }, "Enable IAM User Permissions"},
		{"history-kms-key.json", TypeKMSKey, func(t *testing.T, r engine.Resource) *PolicyDocument { return attrsOf[KMSKey](t, r).Policy }, "Enable IAM User Permissions"},
		// SQS and SNS configuration.Policy, a JSON string inside an object
		// or inside a JSON-string configuration.
		{"create-sqs-queue.json", TypeSQSQueue, func(t *testing.T, r engine.Resource) *PolicyDocument { return attrsOf[SQSQueue](t, r).Policy }, "__owner_statement"},
		{"history-sqs-queue.json", TypeSQSQueue, func(t *testing.T, r engine.Resource) *PolicyDocument { return attrsOf[SQSQueue](t, r).Policy }, "__owner_statement"},
		{"create-sns-topic.json", TypeSNSTopic, func(t *testing.T, r engine.Resource) *PolicyDocument { return attrsOf[SNSTopic](t, r).Policy }, "__default_statement_ID"},
		{"history-sns-topic.json", TypeSNSTopic, func(t *testing.T, r engine.Resource) *PolicyDocument { return attrsOf[SNSTopic](t, r).Policy }, "__default_statement_ID"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r := decodeConfigFile(t, tt.file)
			if r.Type != tt.typ {
				t.Fatalf("type %s", r.Type)
			}
			p := tt.policy(t, r)
			if p == nil || len(p.Statement) == 0 || p.Statement[0].Sid != tt.wantSid {
				t.Errorf("policy: %+v", p)
			}
		})
	}
	// A secret's resource policy is not in AWS Config: unknown (null).
	s := decodeConfigFile(t, "create-secretsmanager-secret.json")
	if a := attrsOf[SecretsManagerSecret](t, s); s.Type != TypeSecretsManagerSecret || a.Policy != nil || a.Name != "prod/config-test-secret" {
		t.Errorf("secret: %s %+v", s.Type, a)
	}
}

// TestAWSConfig_ECRRepository reads an AWS::ECR::Repository item with the
// CloudFormation property names awslabs/aws-config-resource-schema lists
// for it (configuration.RepositoryName, ImageTagMutability,
// ImageScanningConfiguration.ScanOnPush) and RepositoryPolicyText in both
// encodings.
func TestAWSConfig_ECRRepository(t *testing.T) {
	policy := `{"Version":"2012-10-17","Statement":[{"Sid":"Pull","Effect":"Allow","Principal":"*","Action":["ecr:BatchGetImage"]}]}`
	quoted, _ := json.Marshal(policy)
	for name, pol := range map[string]string{"object": policy, "string": string(quoted)} {
		t.Run(name, func(t *testing.T) {
			item := `{"configurationItem":{"configurationItemStatus":"OK","resourceType":"AWS::ECR::Repository","resourceId":"app",
			  "resourceName":"app","ARN":"arn:aws:ecr:eu-west-1:123456789012:repository/app","awsAccountId":"123456789012","awsRegion":"eu-west-1",
			  "configuration":{"RepositoryName":"app","Arn":"arn:aws:ecr:eu-west-1:123456789012:repository/app","ImageTagMutability":"IMMUTABLE",
			  "ImageScanningConfiguration":{"ScanOnPush":true},"RepositoryPolicyText":` + pol + `},"supplementaryConfiguration":{},"tags":{}}}`
			d := NewAWSConfigDecoder(strings.NewReader(item))
			r, err := d.Next()
			if err != nil {
				t.Fatal(err)
			}
			a := attrsOf[ECRRepository](t, r)
			if r.Type != TypeECRRepository || a.RepositoryName != "app" || !a.ScanOnPush || a.ImageTagMutability != "IMMUTABLE" ||
				a.Policy == nil || a.Policy.Statement[0].Sid != "Pull" {
				t.Errorf("%s %+v", r.Type, a)
			}
		})
	}
}

// TestPolicyDocument_KeepsNegations: NotAction, NotResource and
// NotPrincipal survive decoding, so the evaluator sees them.
func TestPolicyDocument_KeepsNegations(t *testing.T) {
	var d PolicyDocument
	in := `{"Statement":{"Effect":"Allow","NotPrincipal":{"AWS":"arn:aws:iam::123456789012:root"},"NotAction":"s3:Delete*","NotResource":"arn:aws:s3:::b"}}`
	if err := json.Unmarshal([]byte(in), &d); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(&d)
	for _, k := range []string{`"NotPrincipal"`, `"NotAction":["s3:Delete*"]`, `"NotResource":["arn:aws:s3:::b"]`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("%s lost: %s", k, b)
		}
	}
}

// TestAWSConfig_S3BucketPolicy reads supplementaryConfiguration.BucketPolicy
// .policyText in both encodings: history-s3-bucket.json (the whole
// supplementary value a JSON string, policyText a string inside it) and
// create-s3-bucket.json (an object whose policyText is null: no policy).
// The object form with a policy string follows the same item with a
// policy added.
func TestAWSConfig_S3BucketPolicy(t *testing.T) {
	h := attrsOf[S3Bucket](t, decodeConfigFile(t, "history-s3-bucket.json"))
	if h.Policy == nil || len(h.Policy.Statement) != 1 || h.Policy.Statement[0].Sid != "Statement1" ||
		string(h.Policy.Statement[0].Principal) != `{"AWS":"arn:aws:iam::123456789123:root"}` {
		t.Errorf("history policy: %+v", h.Policy)
	}
	c := attrsOf[S3Bucket](t, decodeConfigFile(t, "create-s3-bucket.json"))
	if c.Policy != nil {
		t.Errorf("policyText null decoded as %+v", c.Policy)
	}
	b, err := os.ReadFile("testdata/awsconfig/create-s3-bucket.json")
	if err != nil {
		t.Fatal(err)
	}
	withPolicy := strings.Replace(string(b), `"policyText": null`,
		`"policyText": "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Sid\":\"Public\",\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"s3:GetObject\",\"Resource\":\"arn:aws:s3:::EXAMPLE-BUCKET/*\"}]}"`, 1)
	if withPolicy == string(b) {
		t.Fatal("fixture has no null policyText to replace")
	}
	r, err := NewAWSConfigDecoder(strings.NewReader(withPolicy)).Next()
	if err != nil {
		t.Fatal(err)
	}
	if p := attrsOf[S3Bucket](t, r).Policy; p == nil || p.Statement[0].Sid != "Public" || string(p.Statement[0].Principal) != `"*"` {
		t.Errorf("object policy: %+v", p)
	}
}
