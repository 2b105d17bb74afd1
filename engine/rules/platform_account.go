package rules

import (
	"slices"
	"strings"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// supportPolicySuffix ends the ARN of AWS's managed AWSSupportAccess policy.
const supportPolicySuffix = ":iam::aws:policy/AWSSupportAccess"

// setAdd adds k to the set m, making it when nil, and returns it.
func setAdd(m map[string]bool, k string) map[string]bool {
	if m == nil {
		m = map[string]bool{}
	}
	m[k] = true
	return m
}

// platformFacts are what the platform family's account checks and joins
// know about an account once its resources have been seen.
type platformFacts struct {
	// recordAllIn holds the regions whose recording AWS Config recorder
	// records every supported type (so a type absent there is absent in
	// AWS); analyzerIn those with an IAM Access Analyzer of external access.
	recordAllIn, analyzerIn map[string]bool
	// deliveredIn holds the regions of recordAllIn whose recorder record
	// AWS Config delivered itself: only there is the import the recorder's
	// inventory, in which an analyzer would be recorded (a Terraform state
	// that manages a recorder says nothing about analyzers it does not
	// manage).
	deliveredIn map[string]bool
	// analyzerUnknownIn holds the regions with an analyzer whose type the
	// source did not record (it may be one of external access).
	analyzerUnknownIn map[string]bool
	// Recording recorders: one that records every type including global
	// ones (IAM) was seen; one with an explicit type list was seen.
	recorderSeen, globalRecorded, explicitRecorder bool
	// globalUnknown: a recording recorder of every type whose source did
	// not record whether it includes global types.
	globalUnknown bool
	// IAM roles: one whose attached policies the source recorded was
	// seen; one whose attached policies it did not record (a partial or
	// foreign record: it may hold AWSSupportAccess) was seen; the first
	// with AWSSupportAccess attached.
	rolesSeen, rolesUnknown bool
	supportRole             string
	// queueRetention is each SQS queue's retention in seconds by ARN
	// (0 when the source does not say).
	queueRetention map[string]int
}

// observePlatform gathers the platform facts of one resource (s parsed).
func (f *accountFacts) observePlatform(res *engine.Resource, s *Subject) {
	p := &f.platform
	switch res.Type {
	case inv.TypeConfigRecorder:
		c := get[inv.ConfigRecorder](s)
		if c.Recording != nil && !*c.Recording { // unknown counts as recording
			return
		}
		p.recorderSeen = true
		if c.AllSupported {
			p.recordAllIn = setAdd(p.recordAllIn, res.Region)
			if c.DeliveredByConfig {
				p.deliveredIn = setAdd(p.deliveredIn, res.Region)
			}
			p.globalRecorded = p.globalRecorded || c.IncludeGlobalResourceTypes
			p.globalUnknown = p.globalUnknown || !s.recorded("include_global_resource_types")
		} else {
			p.explicitRecorder = true
		}
	case inv.TypeAccessAnalyzerAnalyzer:
		if t := get[inv.AccessAnalyzerAnalyzer](s).Type; t == "ACCOUNT" || t == "ORGANIZATION" {
			p.analyzerIn = setAdd(p.analyzerIn, res.Region)
		} else if t == "" && !s.recorded("type") {
			p.analyzerUnknownIn = setAdd(p.analyzerUnknownIn, res.Region)
		}
	case inv.TypeIAMRole:
		r := get[inv.IAMRole](s)
		// attached_policy_arns is omitempty: its absence is "none" only
		// on a whole record (canonical.go).
		if len(r.AttachedPolicyARNs) == 0 && !s.whole() {
			p.rolesUnknown = true
		} else {
			p.rolesSeen = true
		}
		if p.supportRole == "" && slices.ContainsFunc(r.AttachedPolicyARNs, func(a string) bool { return strings.HasSuffix(a, supportPolicySuffix) }) {
			p.supportRole = r.RoleName
		}
	case inv.TypeSQSQueue:
		if p.queueRetention == nil {
			p.queueRetention = map[string]int{}
		}
		p.queueRetention[res.NativeID] = get[inv.SQSQueue](s).MessageRetentionSeconds
	}
}

// platformAccountRules are the platform family's account-wide checks.
func platformAccountRules() []Rule {
	return []Rule{
		{ID: "aws-iam-020", Dimension: security, Severity: medium, Account: true, ResourceTypes: []string{inv.TypeIAMAccount},
			Compliance:  []string{"CIS-AWS-3.0.0:1.20", "CIS-AWS-4.0.1:1.20"},
			Title:       "IAM Access Analyzer is not enabled in every region in use",
			Description: "Some regions that hold resources have no IAM Access Analyzer of external access: resources shared outside the account or organization there go unnoticed. Judged only in regions whose AWS Config recorder records every supported type and whose import AWS Config delivered itself (the recorder's own configuration item), so that a missing analyzer is absent, not unrecorded: a Terraform state or an Advanced Query says nothing about analyzers it does not hold.",
			Remediation: "aws accessanalyzer create-analyzer --analyzer-name account --type ACCOUNT in each region (or ORGANIZATION from the delegated administrator).",
			accountCheck: func(f *accountFacts) Result {
				var missing, unknown []string
				for _, r := range f.missing(f.platform.analyzerIn) {
					if f.platform.recordAllIn[r] && f.platform.deliveredIn[r] && !f.platform.analyzerUnknownIn[r] {
						missing = append(missing, r)
					} else {
						unknown = append(unknown, r)
					}
				}
				if len(missing) == 0 && len(unknown) > 0 {
					return notEvaluated("access_analyzer")
				}
				return failIf(nil, len(missing) > 0, func() map[string]any { return map[string]any{"regions_without_analyzer": missing} })
			}},
		{ID: "aws-iam-021", Dimension: compliance, Severity: low, Account: true, ResourceTypes: []string{inv.TypeIAMAccount},
			Compliance:  []string{"CIS-AWS-3.0.0:1.17", "CIS-AWS-4.0.1:1.17"},
			Title:       "No IAM role may manage AWS Support cases",
			Description: "No IAM role of the account has the AWSSupportAccess policy: during an incident, opening and following AWS Support cases needs the root user or an over-privileged principal.",
			Remediation: "Create a role for incident responders and attach arn:aws:iam::aws:policy/AWSSupportAccess (aws iam attach-role-policy --role-name support --policy-arn arn:aws:iam::aws:policy/AWSSupportAccess).",
			accountCheck: func(f *accountFacts) Result {
				if f.platform.supportRole == "" && (!f.platform.rolesSeen || f.platform.rolesUnknown) {
					return notEvaluated("aws_iam_role.attached_policy_arns")
				}
				return failIf(nil, f.platform.supportRole == "", func() map[string]any { return map[string]any{"support_role": nil} })
			}},
		{ID: "aws-config-002", Dimension: compliance, Severity: medium, Account: true, ResourceTypes: []string{inv.TypeIAMAccount},
			Title:       "AWS Config records no global resources (IAM)",
			Description: "The account's AWS Config recorders record every supported type but none includes global resource types: changes to IAM users, roles, groups and policies leave no configuration history.",
			Remediation: "In one region, include global resources: aws configservice put-configuration-recorder --configuration-recorder name=default,roleARN=… --recording-group allSupported=true,includeGlobalResourceTypes=true.",
			accountCheck: func(f *accountFacts) Result {
				p := &f.platform
				switch {
				case !p.recorderSeen:
					return notEvaluated("aws_config_recorder.recording")
				case p.globalRecorded:
					return pass
				case p.explicitRecorder:
					// A recorder with an explicit type list may list IAM types.
					return notEvaluated("aws_config_recorder.resource_types")
				case p.globalUnknown:
					return notEvaluated("aws_config_recorder.include_global_resource_types")
				}
				return fail(map[string]any{"include_global_resource_types": false})
			}},
	}
}
