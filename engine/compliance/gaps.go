package compliance

// Gap says why fourd cannot check a control CIS marks Automated from the
// inventory it takes, or that it could but has no check yet; "" when no
// reason is recorded. docs/compliance.md and the compliance evidence
// report show it next to a control no rule maps to, and ignore it once
// one does.
func Gap(framework, control string) string {
	return gaps[framework+":"+control]
}

const (
	gapMetricFilters = "needs CloudWatch Logs metric filters and CloudWatch alarms on the CloudTrail log group, which the inventory does not hold"
)

// gaps maps a reference to its reason. Both CIS versions are listed with
// their own numbering.
var gaps = map[string]string{
	"CIS-AWS-3.0.0:1.11": "needs the IAM credential report (access key creation time against the user's), which the inventory does not hold",
	"CIS-AWS-3.0.0:1.13": "checkable from aws_iam_access_key (active keys per user); no fourd check yet",
	"CIS-AWS-4.0.1:1.13": "checkable from aws_iam_access_key (active keys per user); no fourd check yet",
	"CIS-AWS-3.0.0:1.17": "needs the entities attached to the AWSSupportAccess managed policy; the inventory's aws_iam_role attachments could answer it; no fourd check yet",
	"CIS-AWS-4.0.1:1.17": "needs the entities attached to the AWSSupportAccess managed policy; the inventory's aws_iam_role attachments could answer it; no fourd check yet",
	"CIS-AWS-4.0.1:1.18": "checkable from aws_instance iam_instance_profile; no fourd check yet",
	"CIS-AWS-3.0.0:1.19": "needs the IAM server certificates (iam list-server-certificates), which the inventory does not hold",
	"CIS-AWS-4.0.1:1.19": "needs the IAM server certificates (iam list-server-certificates), which the inventory does not hold",
	"CIS-AWS-3.0.0:1.20": "needs the IAM Access Analyzer analyzers of every region, which the inventory does not hold",
	"CIS-AWS-4.0.1:1.20": "needs the IAM Access Analyzer analyzers of every region, which the inventory does not hold",
	"CIS-AWS-3.0.0:3.4":  "checkable by joining a trail's S3 bucket to that bucket's access logging; no fourd check yet",
	"CIS-AWS-4.0.1:3.4":  "checkable by joining a trail's S3 bucket to that bucket's access logging; no fourd check yet",
	"CIS-AWS-3.0.0:4.1":  gapMetricFilters,
	"CIS-AWS-3.0.0:4.2":  gapMetricFilters,
	"CIS-AWS-3.0.0:4.3":  gapMetricFilters,
	"CIS-AWS-3.0.0:4.4":  gapMetricFilters,
	"CIS-AWS-3.0.0:4.5":  gapMetricFilters,
	"CIS-AWS-3.0.0:4.6":  gapMetricFilters,
	"CIS-AWS-3.0.0:4.7":  gapMetricFilters,
	"CIS-AWS-3.0.0:4.8":  gapMetricFilters,
	"CIS-AWS-3.0.0:4.9":  gapMetricFilters,
	"CIS-AWS-3.0.0:4.10": gapMetricFilters,
	"CIS-AWS-3.0.0:4.11": gapMetricFilters,
	"CIS-AWS-3.0.0:4.12": gapMetricFilters,
	"CIS-AWS-3.0.0:4.13": gapMetricFilters,
	"CIS-AWS-3.0.0:4.14": gapMetricFilters,
	"CIS-AWS-3.0.0:4.15": gapMetricFilters,
	"CIS-AWS-4.0.1:4.1":  gapMetricFilters,
	"CIS-AWS-3.0.0:4.16": "needs the AWS Security Hub hub of every region, which the inventory does not hold",
	"CIS-AWS-4.0.1:4.16": "needs the AWS Security Hub hub of every region, which the inventory does not hold",
}
