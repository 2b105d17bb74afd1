package iampolicy

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParse_Encodings reads one document in every encoding AWS delivers
// policies in: an object, a JSON string (S3 BucketPolicy.policyText, SQS
// and SNS Policy attributes), a doubly encoded string (KMS
// supplementaryConfiguration.Policy in configuration history, as in
// awslabs/aws-iam-access-analyzer-policy-validation-config-rule
// function/sample-events/history-kms-key.json) and URL-encoded JSON (AWS
// Config's IAM documents, as in create-iam-role.json of the same repo).
func TestParse_Encodings(t *testing.T) {
	obj := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"ec2.amazonaws.com"},"Action":"sts:AssumeRole"}]}`
	once, _ := json.Marshal(obj)
	twice, _ := json.Marshal(string(once))
	urlEnc := strings.ReplaceAll(url.QueryEscape(obj), "+", "%20")
	want := mustParse(t, obj)
	for name, in := range map[string]string{"object": obj, "string": string(once), "twice": string(twice), "url": urlEnc} {
		t.Run(name, func(t *testing.T) {
			got, err := Parse([]byte(in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	for _, bad := range []string{`[]`, `{"Statement":[{"Effect":"Maybe","Action":"*"}]}`, `{"Statement":[{"Effect":"Allow","Principal":"someone"}]}`, `%7Bnot json`} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%s) succeeded", bad)
		}
	}
}

func TestFullAdmin(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want bool
	}{
		{"star on star", `{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}`, true},
		{"star colon star in an array", `{"Statement":[{"Effect":"Allow","Action":["*:*"],"Resource":["*"]}]}`, true},
		// history-iam-role.json's inline policy: Allow * on * plus a Deny of
		// one action under a condition is still full admin.
		{"conditional deny does not reduce", `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"},
			{"Effect":"Deny","Action":"cloudformation:CreateStack","Resource":"*","Condition":{"Null":{"aws:ResourceTag/aws:servicecatalog:productArn":"false"}}}]}`, true},
		{"unconditional deny carves out", `{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*"},{"Effect":"Deny","Action":"iam:*","Resource":"*"}]}`, false},
		{"service wildcard only", `{"Statement":[{"Effect":"Allow","Action":"s3:*","Resource":"*"}]}`, false},
		{"all actions on one resource", `{"Statement":[{"Effect":"Allow","Action":"*","Resource":"arn:aws:s3:::b"}]}`, false},
		{"conditional allow", `{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*","Condition":{"Bool":{"aws:MultiFactorAuthPresent":"true"}}}]}`, false},
		{"NotAction is not full admin", `{"Statement":[{"Effect":"Allow","NotAction":"iam:*","Resource":"*"}]}`, false},
		// create-iam-policy.json's default version.
		{"put and get objects", `{"Version":"2012-10-17","Statement":[{"Sid":"Statement1","Effect":"Allow","Action":["s3:PutObject","s3:GetObject"],"Resource":["*"]}]}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, got := mustParse(t, tt.doc).FullAdmin(); got != tt.want {
				t.Errorf("FullAdmin = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestPrivilegeEscalations(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string
	}{
		{"PassRole and RunInstances", `{"Statement":[{"Effect":"Allow","Action":["iam:PassRole","ec2:RunInstances"],"Resource":"*"}]}`,
			[]string{"iam:PassRole + ec2:RunInstances"}},
		{"wildcards: iam:Pass* and lambda:Create*", `{"Statement":[{"Effect":"Allow","Action":["iam:Pass*","lambda:Create*"],"Resource":"*"}]}`,
			[]string{"iam:PassRole + lambda:CreateFunction"}},
		{"PassRole on one role is scoped", `{"Statement":[{"Effect":"Allow","Action":"iam:PassRole","Resource":"arn:aws:iam::123456789012:role/app"},
			{"Effect":"Allow","Action":"ec2:RunInstances","Resource":"*"}]}`, nil},
		{"CreatePolicyVersion", `{"Statement":{"Effect":"Allow","Action":"iam:CreatePolicyVersion","Resource":"*"}}`, []string{"iam:CreatePolicyVersion"}},
		{"AttachUserPolicy denied", `{"Statement":[{"Effect":"Allow","Action":"iam:AttachUserPolicy","Resource":"*"},{"Effect":"Deny","Action":"iam:Attach*","Resource":"*"}]}`, nil},
		{"iam:* holds many", `{"Statement":[{"Effect":"Allow","Action":"IAM:*","Resource":"*"}]}`, nil /* checked below */},
		{"read only", `{"Statement":[{"Effect":"Allow","Action":["iam:Get*","iam:List*"],"Resource":"*"}]}`, nil},
		{"full admin reports FullAdmin instead", `{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustParse(t, tt.doc).PrivilegeEscalations()
			if tt.name == "iam:* holds many" {
				if !slices.Contains(got, "iam:AttachRolePolicy") || !slices.Contains(got, "iam:PutUserPolicy") {
					t.Errorf("got %v", got)
				}
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestPublicStatements(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string
	}{
		{"star", `{"Statement":[{"Sid":"P","Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::b/*"}]}`, []string{"P"}},
		{"AWS star in an array", `{"Statement":[{"Effect":"Allow","Principal":{"AWS":["*"]},"Action":"sqs:SendMessage"}]}`, []string{"statement 0"}},
		{"NotPrincipal allow", `{"Statement":[{"Sid":"N","Effect":"Allow","NotPrincipal":{"AWS":"arn:aws:iam::123456789012:root"},"Action":"sns:Publish"}]}`, []string{"N"}},
		// SNS's default topic policy (create-sns-topic.json): AWS "*" limited
		// by AWS:SourceOwner (key case as AWS writes it).
		{"SNS default policy", `{"Version":"2008-10-17","Id":"__default_policy_ID","Statement":[{"Sid":"__default_statement_ID","Effect":"Allow","Principal":{"AWS":"*"},
			"Action":["SNS:GetTopicAttributes","SNS:Publish"],"Resource":"arn:aws:sns:us-east-1:123456789123:my-sns-topic","Condition":{"StringEquals":{"AWS:SourceOwner":"123456789123"}}}]}`, nil},
		// The CloudTrail key policy (history-kms-key.json): AWS "*" limited
		// by kms:CallerAccount.
		{"KMS CallerAccount", `{"Statement":[{"Sid":"Enable cross account log decryption","Effect":"Allow","Principal":{"AWS":"*"},"Action":["kms:Decrypt","kms:ReEncryptFrom"],"Resource":"*",
			"Condition":{"StringEquals":{"kms:CallerAccount":"123456789123"},"StringLike":{"kms:EncryptionContext:aws:cloudtrail:arn":"arn:aws:cloudtrail:*:123456789123:trail/*"}}}]}`, nil},
		{"PrincipalOrgID", `{"Statement":[{"Effect":"Allow","Principal":"*","Action":"ecr:BatchGetImage","Condition":{"StringEquals":{"aws:PrincipalOrgID":"o-733s9vnx22"}}}]}`, nil},
		{"SourceVpce", `{"Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::b/*","Condition":{"StringEquals":{"aws:SourceVpce":"vpce-1a2b3c4d"}}}]}`, nil},
		{"SourceArn like", `{"Statement":[{"Effect":"Allow","Principal":"*","Action":"sqs:SendMessage","Condition":{"ArnLike":{"aws:SourceArn":"arn:aws:sns:eu-west-1:123456789012:t"}}}]}`, nil},
		{"SourceIp range", `{"Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Condition":{"IpAddress":{"aws:SourceIp":"203.0.113.0/24"}}}]}`, nil},
		{"SourceIp everywhere is public", `{"Statement":[{"Sid":"A","Effect":"Allow","Principal":"*","Action":"s3:GetObject","Condition":{"IpAddress":{"aws:SourceIp":"0.0.0.0/0"}}}]}`, []string{"A"}},
		{"SecureTransport alone is public", `{"Statement":[{"Sid":"T","Effect":"Allow","Principal":"*","Action":"s3:GetObject","Condition":{"Bool":{"aws:SecureTransport":"true"}}}]}`, []string{"T"}},
		{"wildcard SourceArn is public", `{"Statement":[{"Sid":"W","Effect":"Allow","Principal":"*","Action":"sqs:*","Condition":{"ArnLike":{"aws:SourceArn":"*"}}}]}`, []string{"W"}},
		{"negated condition is public", `{"Statement":[{"Sid":"X","Effect":"Allow","Principal":"*","Action":"sqs:*","Condition":{"StringNotEquals":{"aws:SourceAccount":"123456789012"}}}]}`, []string{"X"}},
		{"IfExists is public", `{"Statement":[{"Sid":"I","Effect":"Allow","Principal":"*","Action":"sqs:*","Condition":{"StringEqualsIfExists":{"aws:SourceAccount":"123456789012"}}}]}`, []string{"I"}},
		{"named account", `{"Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::123456789012:root"},"Action":"s3:*"}]}`, nil},
		{"service principal", `{"Statement":[{"Effect":"Allow","Principal":{"Service":"cloudtrail.amazonaws.com"},"Action":"s3:PutObject"}]}`, nil},
		{"Deny for everyone cancels", `{"Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::b/*"},
			{"Effect":"Deny","Principal":"*","Action":"s3:*","Resource":"arn:aws:s3:::b/*"}]}`, nil},
		{"public Deny is not public access", `{"Statement":[{"Effect":"Deny","Principal":"*","Action":"s3:*","Condition":{"Bool":{"aws:SecureTransport":"false"}}}]}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, mustParse(t, tt.doc).PublicStatements()); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestTrust(t *testing.T) {
	const own = "123456789012"
	tests := []struct {
		name     string
		doc      string
		anyone   []string
		external []string
	}{
		// create-iam-role.json's trust policy.
		{"EC2 service", `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"ec2.amazonaws.com"},"Action":"sts:AssumeRole"}]}`, nil, nil},
		{"anyone", `{"Statement":[{"Sid":"Open","Effect":"Allow","Principal":{"AWS":"*"},"Action":"sts:AssumeRole"}]}`, []string{"Open"}, nil},
		{"anyone in my org", `{"Statement":[{"Effect":"Allow","Principal":"*","Action":"sts:AssumeRole","Condition":{"StringEquals":{"aws:PrincipalOrgID":"o-abc123"}}}]}`, nil, nil},
		{"third party without ExternalId", `{"Statement":[{"Effect":"Allow","Principal":{"AWS":["arn:aws:iam::999988887777:root","123456789012"]},"Action":"sts:AssumeRole"}]}`, nil, []string{"999988887777"}},
		{"third party with ExternalId", `{"Statement":[{"Effect":"Allow","Principal":{"AWS":"999988887777"},"Action":"sts:AssumeRole","Condition":{"StringEquals":{"sts:ExternalId":"Unique-1"}}}]}`, nil, nil},
		{"cross-account with MFA", `{"Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::999988887777:user/ops"},"Action":"sts:AssumeRole","Condition":{"Bool":{"aws:MultiFactorAuthPresent":"true"}}}]}`, nil, nil},
		{"own account", `{"Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::123456789012:root"},"Action":"sts:AssumeRole"}]}`, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := mustParse(t, tt.doc)
			if diff := cmp.Diff(tt.anyone, d.TrustsAnyone()); diff != "" {
				t.Errorf("TrustsAnyone (-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(tt.external, d.ExternalTrust(own)); diff != "" {
				t.Errorf("ExternalTrust (-want +got)\n%s", diff)
			}
		})
	}
}

func TestDeniesInsecureTransport(t *testing.T) {
	deny := `{"Statement":[{"Effect":"Deny","Principal":"*","Action":"s3:*","Resource":["arn:aws:s3:::b","arn:aws:s3:::b/*"],"Condition":{"Bool":{"aws:SecureTransport":"false"}}}]}`
	if !mustParse(t, deny).DeniesInsecureTransport("s3:GetObject", "arn:aws:s3:::b/k") {
		t.Error("the documented deny-HTTP statement was not recognised")
	}
	other := `{"Statement":[{"Effect":"Deny","Principal":"*","Action":"s3:*","Resource":"arn:aws:s3:::other/*","Condition":{"Bool":{"aws:SecureTransport":"false"}}}]}`
	if mustParse(t, other).DeniesInsecureTransport("s3:GetObject", "arn:aws:s3:::b/k") {
		t.Error("a statement about another bucket counted")
	}
	allowTLS := `{"Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::b/*","Condition":{"Bool":{"aws:SecureTransport":"true"}}}]}`
	if mustParse(t, allowTLS).DeniesInsecureTransport("s3:GetObject", "arn:aws:s3:::b/k") {
		t.Error("an Allow over TLS is not a deny of HTTP")
	}
}

func TestOpenWebIdentity(t *testing.T) {
	const gh = `"Principal":{"Federated":"arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com"},"Action":"sts:AssumeRoleWithWebIdentity"`
	tests := []struct {
		name string
		doc  string
		want []string
	}{
		// GitHub's documented trust policy: aud and a repository's sub.
		{"pinned to a repository", `{"Statement":[{"Effect":"Allow",` + gh + `,"Condition":{"StringEquals":{"token.actions.githubusercontent.com:aud":"sts.amazonaws.com"},
			"StringLike":{"token.actions.githubusercontent.com:sub":"repo:octo-org/octo-repo:*"}}}]}`, nil},
		{"audience only", `{"Statement":[{"Effect":"Allow",` + gh + `,"Condition":{"StringEquals":{"token.actions.githubusercontent.com:aud":"sts.amazonaws.com"}}}]}`,
			[]string{"token.actions.githubusercontent.com"}},
		{"any repository", `{"Statement":[{"Effect":"Allow",` + gh + `,"Condition":{"StringLike":{"token.actions.githubusercontent.com:sub":"repo:*"}}}]}`,
			[]string{"token.actions.githubusercontent.com"}},
		{"EKS service account pinned", `{"Statement":[{"Effect":"Allow","Principal":{"Federated":"arn:aws:iam::123456789012:oidc-provider/oidc.eks.eu-west-1.amazonaws.com/id/ABC"},
			"Action":"sts:AssumeRoleWithWebIdentity","Condition":{"StringEquals":{"oidc.eks.eu-west-1.amazonaws.com/id/ABC:sub":"system:serviceaccount:app:api"}}}]}`, nil},
		{"EKS any service account", `{"Statement":[{"Effect":"Allow","Principal":{"Federated":"arn:aws:iam::123456789012:oidc-provider/oidc.eks.eu-west-1.amazonaws.com/id/ABC"},
			"Action":"sts:AssumeRoleWithWebIdentity","Condition":{"StringLike":{"oidc.eks.eu-west-1.amazonaws.com/id/ABC:sub":"system:serviceaccount:*"}}}]}`,
			[]string{"oidc.eks.eu-west-1.amazonaws.com/id/ABC"}},
		{"SAML is not OIDC", `{"Statement":[{"Effect":"Allow","Principal":{"Federated":"arn:aws:iam::123456789012:saml-provider/okta"},"Action":"sts:AssumeRoleWithSAML"}]}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, mustParse(t, tt.doc).OpenWebIdentity()); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
