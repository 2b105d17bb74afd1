package iampolicy

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func mustParse(t *testing.T, doc string) *Document {
	t.Helper()
	d, err := Parse([]byte(doc))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return d
}

// TestDecide_AWSDocumentation evaluates the example policies of AWS's IAM
// documentation against requests whose outcome the same pages state.
func TestDecide_AWSDocumentation(t *testing.T) {
	// https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic_AccessPolicyLanguage_Interplay.html:
	// AllowGetList allows iam:Get* and iam:List*; DenyReports denies
	// iam:*Report, which wins over the Allow for GetOrganizationsAccessReport;
	// iam:CreatePolicy is implicitly denied.
	interplay := `{"Version":"2012-10-17","Statement":[
	  {"Sid":"AllowGetList","Effect":"Allow","Action":["iam:Get*","iam:List*"],"Resource":"*"},
	  {"Sid":"DenyReports","Effect":"Deny","Action":"iam:*Report","Resource":"*"}]}`
	// https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_notaction.html:
	// "Allow NotAction s3:DeleteBucket on arn:aws:s3:::*" allows every S3
	// action on S3 resources but deleting a bucket; the MFA example denies
	// every non-IAM action when the user did not sign in with MFA
	// (BoolIfExists aws:MultiFactorAuthPresent false).
	notActionS3 := `{"Statement":{"Effect":"Allow","NotAction":"s3:DeleteBucket","Resource":"arn:aws:s3:::*"}}`
	notActionMFA := `{"Version":"2012-10-17","Statement":[
	  {"Sid":"AllowAll","Effect":"Allow","Action":"*","Resource":"*"},
	  {"Sid":"DenyAllUsersNotUsingMFA","Effect":"Deny","NotAction":"iam:*","Resource":"*",
	   "Condition":{"BoolIfExists":{"aws:MultiFactorAuthPresent":"false"}}}]}`
	// https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_notresource.html:
	// HRPayroll may not touch any S3 resource but the Payroll folder.
	notResource := `{"Version":"2012-10-17","Statement":{"Effect":"Deny","Action":"s3:*",
	  "NotResource":["arn:aws:s3:::HRBucket/Payroll","arn:aws:s3:::HRBucket/Payroll/*"]}}`
	// https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_principal.html:
	// "*" and {"AWS":"*"} both mean everyone; an account id means every
	// principal of the account, as arn:aws:iam::<id>:root does.
	bucket := `{"Version":"2012-10-17","Statement":[
	  {"Sid":"Account","Effect":"Allow","Principal":{"AWS":"123456789012"},"Action":"s3:GetObject","Resource":"arn:aws:s3:::b/*"},
	  {"Sid":"Service","Effect":"Allow","Principal":{"Service":["cloudtrail.amazonaws.com"]},"Action":"s3:PutObject","Resource":"arn:aws:s3:::b/AWSLogs/*"},
	  {"Sid":"DenyHTTP","Effect":"Deny","Principal":"*","Action":"s3:*","Resource":["arn:aws:s3:::b","arn:aws:s3:::b/*"],
	   "Condition":{"Bool":{"aws:SecureTransport":"false"}}}]}`
	// https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition_operators.html:
	// IpAddress / NotIpAddress on aws:SourceIp with CIDR blocks.
	ip := `{"Statement":[{"Effect":"Allow","Action":"ec2:*","Resource":"*",
	  "Condition":{"IpAddress":{"aws:SourceIp":["203.0.113.0/24","2001:DB8:1234:5678::/64"]}}}]}`
	tls := map[string][]string{"aws:SecureTransport": {"true"}}
	tests := []struct {
		name string
		doc  string
		req  Request
		want Decision
	}{
		{"interplay: Get allowed", interplay, Request{Action: "iam:GetUser", Resource: "*"}, Allowed},
		{"interplay: List allowed", interplay, Request{Action: "iam:ListRoles", Resource: "*"}, Allowed},
		{"interplay: Deny beats Allow", interplay, Request{Action: "iam:GetOrganizationsAccessReport", Resource: "*"}, ExplicitDeny},
		{"interplay: not allowed is implicit deny", interplay, Request{Action: "iam:CreatePolicy", Resource: "*"}, ImplicitDeny},
		{"actions match case-insensitively", interplay, Request{Action: "IAM:getuser", Resource: "*"}, Allowed},
		{"NotAction allows other S3 actions", notActionS3, Request{Action: "s3:GetObject", Resource: "arn:aws:s3:::b/k"}, Allowed},
		{"NotAction excludes DeleteBucket", notActionS3, Request{Action: "s3:DeleteBucket", Resource: "arn:aws:s3:::b"}, ImplicitDeny},
		{"NotAction with Resource scope: other service", notActionS3, Request{Action: "ec2:RunInstances", Resource: "arn:aws:ec2:eu-west-1:123456789012:instance/*"}, ImplicitDeny},
		{"MFA: no MFA key, non-IAM action denied", notActionMFA, Request{Action: "ec2:StopInstances", Resource: "*", Context: map[string][]string{}}, ExplicitDeny},
		{"MFA: no MFA, IAM action allowed", notActionMFA, Request{Action: "iam:ChangePassword", Resource: "*", Context: map[string][]string{}}, Allowed},
		{"MFA: with MFA, allowed", notActionMFA, Request{Action: "ec2:StopInstances", Resource: "*",
			Context: map[string][]string{"aws:MultiFactorAuthPresent": {"true"}}}, Allowed},
		{"NotResource: outside Payroll denied", notResource, Request{Action: "s3:GetObject", Resource: "arn:aws:s3:::HRBucket/Other/x"}, ExplicitDeny},
		{"NotResource: Payroll not denied (nor granted)", notResource, Request{Action: "s3:GetObject", Resource: "arn:aws:s3:::HRBucket/Payroll/x"}, ImplicitDeny},
		{"account id admits its roles", bucket, Request{Action: "s3:GetObject", Resource: "arn:aws:s3:::b/k",
			Principal: "arn:aws:iam::123456789012:role/app", Context: tls}, Allowed},
		{"another account is not admitted", bucket, Request{Action: "s3:GetObject", Resource: "arn:aws:s3:::b/k",
			Principal: "arn:aws:iam::210987654321:role/app", Context: tls}, ImplicitDeny},
		{"service principal", bucket, Request{Action: "s3:PutObject", Resource: "arn:aws:s3:::b/AWSLogs/1",
			PrincipalService: "cloudtrail.amazonaws.com", Context: tls}, Allowed},
		{"HTTP request denied even to the account", bucket, Request{Action: "s3:GetObject", Resource: "arn:aws:s3:::b/k",
			Principal: "arn:aws:iam::123456789012:role/app", Context: map[string][]string{"aws:SecureTransport": {"false"}}}, ExplicitDeny},
		{"resource ARNs match case-sensitively", bucket, Request{Action: "s3:GetObject", Resource: "arn:aws:s3:::B/k",
			Principal: "123456789012", Context: tls}, ImplicitDeny},
		{"IpAddress v4 inside", ip, Request{Action: "ec2:StartInstances", Resource: "*", Context: map[string][]string{"aws:SourceIp": {"203.0.113.7"}}}, Allowed},
		{"IpAddress v6 inside", ip, Request{Action: "ec2:StartInstances", Resource: "*", Context: map[string][]string{"aws:SourceIp": {"2001:db8:1234:5678::9"}}}, Allowed},
		{"IpAddress outside", ip, Request{Action: "ec2:StartInstances", Resource: "*", Context: map[string][]string{"aws:SourceIp": {"198.51.100.1"}}}, ImplicitDeny},
		{"unknown context: conditional Allow does not count", ip, Request{Action: "ec2:StartInstances", Resource: "*"}, ImplicitDeny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := mustParse(t, tt.doc).Decide(tt.req)
			if got != tt.want {
				t.Errorf("Decide = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestCondition_AbsentKeys checks AWS's rules for a key missing from the
// request context
// (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-single-vs-multi-valued-context-keys.html
// and reference_policies_elements_condition_operators.html#Conditions_IfExists).
func TestCondition_AbsentKeys(t *testing.T) {
	tests := []struct {
		op   string
		want bool
	}{
		{"StringEquals", false},
		{"StringEqualsIfExists", true},
		{"StringNotEquals", true},
		{"ForAnyValue:StringEquals", false},
		{"ForAllValues:StringEquals", true},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			cond := map[string]map[string][]string{tt.op: {"aws:PrincipalTag/team": {"blue"}}}
			if got := conditionHolds(cond, map[string][]string{}); got != tt.want {
				t.Errorf("holds = %v, want %v", got, tt.want)
			}
		})
	}
	null := map[string]map[string][]string{"Null": {"aws:TokenIssueTime": {"true"}}}
	if !conditionHolds(null, map[string][]string{}) || conditionHolds(null, map[string][]string{"aws:tokenissuetime": {"x"}}) {
		t.Error("Null true must hold exactly when the key is absent")
	}
	like := map[string]map[string][]string{"StringLike": {"s3:prefix": {"home/${aws:username}/*", "public/*"}}}
	if !conditionHolds(like, map[string][]string{"s3:prefix": {"public/a"}}) || conditionHolds(like, map[string][]string{"s3:prefix": {"private/a"}}) {
		t.Error("StringLike must match any of its values")
	}
	not := map[string]map[string][]string{"StringNotEquals": {"aws:RequestedRegion": {"eu-west-1", "eu-central-1"}}}
	if conditionHolds(not, map[string][]string{"aws:requestedregion": {"eu-west-1"}}) || !conditionHolds(not, map[string][]string{"aws:requestedregion": {"us-east-1"}}) {
		t.Error("StringNotEquals must hold only when the value is none of the listed ones")
	}
}

func TestGlob(t *testing.T) {
	tests := []struct {
		p, s string
		fold bool
		want bool
	}{
		{"*", "", false, true},
		{"iam:Pass*", "iam:PassRole", true, true},
		{"iam:pass*", "IAM:PassRole", true, true},
		{"iam:Pass*", "iam:GetRole", true, false},
		{"*:*", "s3:GetObject", true, true},
		{"s3:*", "s3:GetObject", true, true},
		{"s3:*", "sqs:SendMessage", true, false},
		{"s3:Get?bject", "s3:GetObject", true, true},
		{"arn:aws:s3:::b/*", "arn:aws:s3:::b/x/y", false, true},
		{"arn:aws:s3:::b/*", "arn:aws:s3:::B/x", false, false},
		{"*Report", "iam:GetCredentialReport", true, true},
		{"a*b*c", "aXbYbZc", false, true},
		{"a*b*c", "aXbYbZ", false, false},
	}
	for _, tt := range tests {
		if got := Glob(tt.p, tt.s, tt.fold); got != tt.want {
			t.Errorf("Glob(%q, %q) = %v, want %v", tt.p, tt.s, got, tt.want)
		}
	}
}

// TestGlobFoldMatchesLowering: the folding Glob gives what matching the
// lowered strings gives (its definition before it folded ASCII in place),
// on random patterns and strings over letters of both cases, wildcards and
// non-ASCII letters whose lower case differs in length.
func TestGlobFoldMatchesLowering(t *testing.T) {
	alphabet := []string{"a", "A", "b", "B", "z", "Z", ":", "*", "?", "İ", "i", "ẞ", "ß", "é", "É"}
	rnd := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		var b strings.Builder
		for range rnd.IntN(7) {
			b.WriteString(alphabet[rnd.IntN(len(alphabet))])
		}
		return b.String()
	}
	matched := 0
	for range 200_000 {
		p, s := word(), strings.ReplaceAll(strings.ReplaceAll(word(), "*", "x"), "?", "y")
		want := glob(strings.ToLower(p), strings.ToLower(s), false)
		if got := Glob(p, s, true); got != want {
			t.Fatalf("Glob(%q, %q, fold) = %v, lowered %v", p, s, got, want)
		}
		if want {
			matched++
		}
	}
	if matched < 1000 {
		t.Fatalf("only %d matches: the comparison proves little", matched)
	}
}

func BenchmarkGlobFold(b *testing.B) {
	pats := []string{"iam:PassRole", "iam:Create*", "ec2:RunInstances", "*", "lambda:*Function*", "s3:Get?bject"}
	acts := []string{"iam:PassRole", "ec2:RunInstances", "iam:CreatePolicyVersion", "lambda:CreateFunction", "S3:GETOBJECT"}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for _, p := range pats {
			for _, a := range acts {
				if Glob(p, a, true) {
					n++
				}
			}
		}
	}
	_ = n
}
