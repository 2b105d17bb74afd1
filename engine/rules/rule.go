// Package rules is fourd's built-in rule pack: checks over the canonical
// AWS inventory of engine/inventory, spanning the four audit dimensions.
//
// Evaluate runs the rules of a resource's type over it; the attributes are
// parsed once per resource into the type's struct, and the checks read that
// struct. Account-wide rules (CloudTrail, AWS Config and GuardDuty in every
// region in use) need facts from all of an account's resources: an Auditor
// gathers them while it evaluates a stream and reports those violations at
// the end, attached to the account's aws_iam_account resource.
package rules

import (
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/inventory"
	"github.com/fourd-dev/fourd/engine/rules/iampolicy"
)

// Rule is one built-in check. Its fields are stable: findings carry the id.
type Rule struct {
	ID          string // e.g. aws-s3-001; never reused
	Title       string
	Description string
	Remediation string
	Dimension   engine.Dimension
	Severity    engine.Severity // the default; a Result may raise it
	// Compliance lists control references "<framework>:<control>" naming
	// controls of engine/compliance's catalog, e.g. CIS-AWS-4.0.1:2.1.4;
	// loadPack appends the rule's frameworkRefs.
	Compliance    []string
	ResourceTypes []string
	// Account marks a rule evaluated once per account by Auditor.Finish.
	Account bool
	// Joins names the types of other resources of the account whose facts
	// the check reads (e.g. aws_s3_account_public_access_block); empty for
	// most. While those facts are pending (AssessDeferring) such a check
	// defers instead of failing, so that Finish judges it once.
	Joins []string
	// Reads are, by resource type, the top-level canonical attributes whose
	// value decides the check's outcome (derived from its cases by
	// TestRules_PartialRecords, reads_gen.go): a pass on a resource whose
	// source recorded not all of them is not evaluated, since the pass read
	// a missing attribute as its zero value.
	Reads map[string][]string
	// witnesses are, by type then attribute of Reads, the values that made
	// the check fail on its cases (see judged).
	witnesses map[string]map[string][]string
	// Check evaluates a resource rule; nil for account rules.
	Check func(*Subject) Result

	accountCheck func(*accountFacts) Result
	idx          int // in pack.all
}

// Result is the outcome of a check: passed, failed, or not evaluated.
type Result struct {
	Failed bool
	// Evidence is what the check read: on a failure, what becomes the
	// finding's evidence; on a pass, what Explain shows (a check returns
	// it through failIf, which has it anyway, or passed, which builds it
	// only for Explain).
	Evidence map[string]any
	// Severity, when set, replaces the rule's default, and Reason says why
	// (e.g. a public bucket holding data tagged confidential).
	Severity engine.Severity
	Reason   string
	// NotEvaluated marks a check whose input the source did not record
	// (an unknown, not a false): it neither passes nor fails, and Missing
	// names the canonical attributes it lacked.
	NotEvaluated bool
	Missing      []string

	// deferred asks to run the check again once the facts of the whole
	// account are known (see Auditor.Defer).
	deferred bool
}

// NotEvaluated is a rule that could not judge a resource for want of data.
type NotEvaluated struct {
	Rule    *Rule
	Missing []string // the canonical attributes it lacked
}

// Outcome is what the pack made of one resource.
type Outcome struct {
	Violations   []Violation
	NotEvaluated []NotEvaluated
	// Deferred reports checks that wait for facts of other resources of
	// the account (an S3 bucket's for its account's public access block);
	// pass the resource to Auditor.Defer.
	Deferred bool

	// subject is the parsed resource the outcome judged (AssessDeferring),
	// so that Auditor.Record gathers the account facts from it instead of
	// parsing the attributes a second time.
	subject *Subject
	// rules are the rules assess ran and judged has bit i set when
	// rules[i] passed or failed (neither not evaluated nor deferred): what
	// Auditor.Evaluated counts.
	rules  []*Rule
	judged uint64
}

// Violation is a failed check on a resource: what becomes a finding.
type Violation struct {
	Rule     *Rule
	Severity engine.Severity
	// SeverityReason says why Severity differs from Rule.Severity; empty
	// when it does not. It is also in Evidence as "severity_reason".
	SeverityReason string
	Evidence       map[string]any
}

// EvidenceJSON is the violation's evidence as a JSON object.
func (v Violation) EvidenceJSON() json.RawMessage {
	if len(v.Evidence) == 0 {
		return json.RawMessage(`{}`)
	}
	b, err := appendEvidence(make([]byte, 0, 128), v.Evidence)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return b
}

// Subject is a resource under evaluation with its attributes parsed once
// into the canonical struct of its type.
type Subject struct {
	Resource *engine.Resource
	Now      time.Time
	attrs    any
	bad      bool
	// The last policy document handed to the evaluator and its parse, so
	// that rules reading the same document (a bucket's public-access and
	// TLS checks) parse it once.
	polSrc *inventory.PolicyDocument
	polDoc *iampolicy.Document
	// account holds the facts of the resource's account once they are all
	// known (Auditor.Finish); pending means they are still being gathered.
	account *accountFacts
	pending bool
	// explain asks passing checks to say what they read (see passed);
	// audits leave it off and pay nothing for it.
	explain bool
	// blank is set when the source recorded no attribute at all ({}, null
	// or nothing): a check that reads attributes and passes has read
	// nothing, so it is not evaluated (see recordedNothing).
	blank bool
	// readIndex, present, written and canonical record which of the
	// attributes the type's rules read, which of the keys its canonical
	// attributes always write, and whether any canonical key at all, the
	// source recorded (see judged and canonical.go); set on first use.
	readIndex *typeReads
	present   uint64
	written   uint64
	canonical bool
	// keysKnown is set when the fast decoder read the attributes: the
	// record's top-level keys are then exactly the fields of the type's
	// struct whose bit keys has (see fastAttrs), and no scan is needed.
	keys      fieldMask
	keysKnown bool
}

// NewSubject parses res's attributes for the rules of its type.
// Attributes that do not parse make the subject invalid: no rule reads it.
func NewSubject(res *engine.Resource, now time.Time) *Subject {
	s := &Subject{Resource: res, Now: now, blank: blankAttributes(res.Attributes)}
	if newAttrs, ok := attrTypes[res.Type]; ok {
		if v, ok := fastAttrs(res.Type, res.Attributes, &s.keys); ok {
			s.attrs, s.keysKnown = v, true
			return s
		}
		s.keys = fieldMask{}
		s.attrs = newAttrs()
		if len(res.Attributes) > 0 {
			s.bad = json.Unmarshal(res.Attributes, s.attrs) != nil
		}
	}
	return s
}

// Valid reports whether the attributes parsed.
func (s *Subject) Valid() bool { return !s.bad }

// get returns the subject's parsed attributes as *T; a zero T when the
// resource's type has another struct (a rule registered for a wrong type).
func get[T any](s *Subject) *T {
	if t, ok := s.attrs.(*T); ok {
		return t
	}
	return new(T)
}

// attrTypes makes the attribute struct of each canonical type.
var attrTypes = map[string]func() any{
	inventory.TypeS3Bucket:               func() any { return new(inventory.S3Bucket) },
	inventory.TypeSecurityGroup:          func() any { return new(inventory.SecurityGroup) },
	inventory.TypeInstance:               func() any { return new(inventory.Instance) },
	inventory.TypeEBSVolume:              func() any { return new(inventory.EBSVolume) },
	inventory.TypeEBSSnapshot:            func() any { return new(inventory.EBSSnapshot) },
	inventory.TypeDBInstance:             func() any { return new(inventory.DBInstance) },
	inventory.TypeEIP:                    func() any { return new(inventory.EIP) },
	inventory.TypeLB:                     func() any { return new(inventory.LoadBalancer) },
	inventory.TypeCloudTrail:             func() any { return new(inventory.CloudTrail) },
	inventory.TypeKMSKey:                 func() any { return new(inventory.KMSKey) },
	inventory.TypeIAMAccount:             func() any { return new(inventory.IAMAccount) },
	inventory.TypeIAMUser:                func() any { return new(inventory.IAMUser) },
	inventory.TypeIAMAccessKey:           func() any { return new(inventory.IAMAccessKey) },
	inventory.TypeVPC:                    func() any { return new(inventory.VPC) },
	inventory.TypeLambdaFunction:         func() any { return new(inventory.LambdaFunction) },
	inventory.TypeAutoScalingGroup:       func() any { return new(inventory.AutoScalingGroup) },
	inventory.TypeElastiCacheCluster:     func() any { return new(inventory.ElastiCacheCluster) },
	inventory.TypeDynamoDBTable:          func() any { return new(inventory.DynamoDBTable) },
	inventory.TypeEFSFileSystem:          func() any { return new(inventory.EFSFileSystem) },
	inventory.TypeCloudFrontDistribution: func() any { return new(inventory.CloudFrontDistribution) },
	inventory.TypeSQSQueue:               func() any { return new(inventory.SQSQueue) },
	inventory.TypeSNSTopic:               func() any { return new(inventory.SNSTopic) },
	inventory.TypeConfigRecorder:         func() any { return new(inventory.ConfigRecorder) },
	inventory.TypeGuardDutyDetector:      func() any { return new(inventory.GuardDutyDetector) },
	inventory.TypeLogGroup:               func() any { return new(inventory.LogGroup) },
	inventory.TypeIAMRole:                func() any { return new(inventory.IAMRole) },
	inventory.TypeIAMPolicy:              func() any { return new(inventory.IAMPolicy) },
	inventory.TypeIAMGroup:               func() any { return new(inventory.IAMGroup) },
	inventory.TypeECRRepository:          func() any { return new(inventory.ECRRepository) },
	inventory.TypeSecretsManagerSecret:   func() any { return new(inventory.SecretsManagerSecret) },
	inventory.TypeDBSnapshot:             func() any { return new(inventory.DBSnapshot) },

	inventory.TypeS3AccountPublicAccessBlock: func() any { return new(inventory.S3AccountPublicAccessBlock) },
	inventory.TypeRDSCluster:                 func() any { return new(inventory.RDSCluster) },
	inventory.TypeRDSClusterSnapshot:         func() any { return new(inventory.RDSClusterSnapshot) },
	inventory.TypeRedshiftCluster:            func() any { return new(inventory.RedshiftCluster) },

	inventory.TypeSubnet:         func() any { return new(inventory.Subnet) },
	inventory.TypeRouteTable:     func() any { return new(inventory.RouteTable) },
	inventory.TypeNetworkACL:     func() any { return new(inventory.NetworkACL) },
	inventory.TypeNATGateway:     func() any { return new(inventory.NATGateway) },
	inventory.TypeVPCEndpoint:    func() any { return new(inventory.VPCEndpoint) },
	inventory.TypeTransitGateway: func() any { return new(inventory.TransitGateway) },
	inventory.TypeVPNConnection:  func() any { return new(inventory.VPNConnection) },

	// Platform family (B3).
	inventory.TypeECSTaskDefinition: func() any { return new(inventory.ECSTaskDefinition) },
	inventory.TypeECSCluster:        func() any { return new(inventory.ECSCluster) },
	inventory.TypeECSService:        func() any { return new(inventory.ECSService) },
	inventory.TypeEKSCluster:        func() any { return new(inventory.EKSCluster) },
	inventory.TypeOpenSearchDomain:  func() any { return new(inventory.OpenSearchDomain) },
	inventory.TypeKinesisStream:     func() any { return new(inventory.KinesisStream) },
	inventory.TypeFirehoseStream:    func() any { return new(inventory.FirehoseStream) },
	inventory.TypeMSKCluster:        func() any { return new(inventory.MSKCluster) },

	// Compute and load-balancing family (B2).
	inventory.TypeClassicLoadBalancer: func() any { return new(inventory.ClassicLoadBalancer) },
	inventory.TypeLBListener:          func() any { return new(inventory.LBListener) },
	inventory.TypeLaunchTemplate:      func() any { return new(inventory.LaunchTemplate) },
	inventory.TypeLaunchConfiguration: func() any { return new(inventory.LaunchConfiguration) },
	// The families of issue 29 §4.
	inventory.TypeCodeBuildProject:       func() any { return new(inventory.CodeBuildProject) },
	inventory.TypeSFNStateMachine:        func() any { return new(inventory.SFNStateMachine) },
	inventory.TypeCloudWatchAlarm:        func() any { return new(inventory.CloudWatchAlarm) },
	inventory.TypeCognitoIdentityPool:    func() any { return new(inventory.CognitoIdentityPool) },
	inventory.TypeCognitoUserPoolClient:  func() any { return new(inventory.CognitoUserPoolClient) },
	inventory.TypeACMPCACertAuthority:    func() any { return new(inventory.ACMPCACertificateAuthority) },
	inventory.TypeAccessAnalyzerAnalyzer: func() any { return new(inventory.AccessAnalyzerAnalyzer) },

	// Data family (B1), continued.
	inventory.TypeBackupPlan:              func() any { return new(inventory.BackupPlan) },
	inventory.TypeBackupVault:             func() any { return new(inventory.BackupVault) },
	inventory.TypeBackupRecoveryPoint:     func() any { return new(inventory.BackupRecoveryPoint) },
	inventory.TypeSageMakerNotebook:       func() any { return new(inventory.SageMakerNotebook) },
	inventory.TypeSageMakerEndpointConfig: func() any { return new(inventory.SageMakerEndpointConfig) },
	inventory.TypeAthenaWorkgroup:         func() any { return new(inventory.AthenaWorkgroup) },
	inventory.TypeGlueJob:                 func() any { return new(inventory.GlueJob) },

	// Edge family (B2).
	inventory.TypeAPIGatewayStage:   func() any { return new(inventory.APIGatewayStage) },
	inventory.TypeAPIGatewayV2Stage: func() any { return new(inventory.APIGatewayV2Stage) },
	inventory.TypeWAFv2WebACL:       func() any { return new(inventory.WAFv2WebACL) },
	inventory.TypeRoute53Zone:       func() any { return new(inventory.Route53HostedZone) },
	inventory.TypeACMCertificate:    func() any { return new(inventory.ACMCertificate) },
	inventory.TypeNetworkFirewall:   func() any { return new(inventory.NetworkFirewall) },
}

type pack struct {
	all    []Rule
	byType map[string][]*Rule
	byID   map[string]*Rule
	// joinsByType are the rules of byType with Joins: those Auditor.Finish
	// runs again once the accounts' facts are known.
	joinsByType map[string][]*Rule
	reads       map[string]*typeReads // by resource type
}

var loadPack = sync.OnceValue(func() *pack {
	var all []Rule
	all = append(all, securityRules()...)
	all = append(all, securityIAMRules()...)
	all = append(all, securityIAMPolicyRules()...)
	all = append(all, costRules()...)
	all = append(all, ebsOrphanRules()...)
	all = append(all, architectureRules()...)
	all = append(all, complianceRules()...)
	all = append(all, accountRules()...)
	all = append(all, dataRules()...)
	all = append(all, networkRules()...)
	all = append(all, platformRules()...)
	all = append(all, computeRules()...)
	all = append(all, edgeRules()...)
	p := &pack{all: all, byType: map[string][]*Rule{}, byID: map[string]*Rule{}, joinsByType: map[string][]*Rule{}}
	for i := range p.all {
		r := &p.all[i]
		if refs := frameworkRefs[r.ID]; len(refs) > 0 {
			r.Compliance = append(slices.Clip(r.Compliance), refs...)
		}
		r.Reads, r.witnesses = readsOfRule(ruleReads[r.ID])
		r.idx = i
		p.byID[r.ID] = r
		if r.Account {
			continue
		}
		for _, t := range r.ResourceTypes {
			p.byType[t] = append(p.byType[t], r)
			if len(r.Joins) > 0 {
				p.joinsByType[t] = append(p.joinsByType[t], r)
			}
		}
	}
	p.reads = indexReads(p.byType)
	return p
})

// All returns every rule, ordered by dimension then id. The slice is a
// copy; the rules' Check functions are shared.
func All() []Rule {
	out := slices.Clone(loadPack().all)
	slices.SortFunc(out, func(a, b Rule) int {
		if c := slices.Index(engine.Dimensions, a.Dimension) - slices.Index(engine.Dimensions, b.Dimension); c != 0 {
			return c
		}
		if a.ID < b.ID {
			return -1
		}
		if a.ID > b.ID {
			return 1
		}
		return 0
	})
	return out
}

// ByType returns the resource rules that apply to a resource type
// (precomputed; do not modify the slice).
func ByType(resourceType string) []*Rule { return loadPack().byType[resourceType] }

// ByID returns the rule with the given id.
func ByID(id string) (*Rule, bool) {
	r, ok := loadPack().byID[id]
	return r, ok
}

// Evaluate runs the resource rules of res's type over it at time now and
// returns the violations (nil when none). Facts of other resources of the
// account (an account-level S3 public access block) count as unknown;
// account-wide rules and those joins need an Auditor.
func Evaluate(res engine.Resource, now time.Time) []Violation {
	return Assess(res, now).Violations
}

// Assess is Evaluate with the checks that could not be evaluated.
func Assess(res engine.Resource, now time.Time) Outcome {
	return assess(NewSubject(&res, now))
}

// AssessDeferring is Assess for a resource of a stream whose accounts'
// facts are still being gathered: checks that need them are left out and
// Outcome.Deferred says so; Auditor.Defer has them run by Finish. It is
// safe for concurrent use.
func AssessDeferring(res engine.Resource, now time.Time) Outcome {
	s := NewSubject(&res, now)
	s.pending = true
	o := assess(s)
	o.subject = s
	return o
}

func assess(s *Subject) Outcome {
	return assessRules(s, ByType(s.Resource.Type))
}

// assessRules is assess with only rules, which apply to s's type.
func assessRules(s *Subject, rules []*Rule) Outcome {
	var out Outcome
	if len(rules) == 0 || s.bad {
		return out
	}
	if a, ok := s.attrs.(*inventory.IAMAccount); ok && a.Synthesized {
		return out // stands in for an account the inventory knows nothing about
	}
	out.rules = rules
	for i, r := range rules {
		res := judged(s, r, r.Check(s))
		switch {
		case res.deferred:
			out.Deferred = true
		case res.NotEvaluated:
			out.NotEvaluated = append(out.NotEvaluated, NotEvaluated{Rule: r, Missing: res.Missing})
		default:
			if i < 64 {
				out.judged |= 1 << i
			}
			if v, ok := violation(r, res); ok {
				out.Violations = append(out.Violations, v)
			}
		}
	}
	return out
}

func violation(r *Rule, res Result) (Violation, bool) {
	if !res.Failed {
		return Violation{}, false
	}
	v := Violation{Rule: r, Severity: r.Severity, Evidence: res.Evidence}
	if res.Severity != "" && res.Severity != r.Severity {
		v.Severity, v.SeverityReason = res.Severity, res.Reason
		if v.Evidence == nil {
			v.Evidence = map[string]any{}
		}
		v.Evidence["severity_reason"] = res.Reason
		v.Evidence["default_severity"] = string(r.Severity)
	}
	return v, true
}

// readsTagsOnly are the rules that judge a resource by its tags alone: a
// resource with no recorded attribute is still judged by them.
var readsTagsOnly = map[string]bool{"aws-tag-001": true}

// recordedNothing turns a pass on a resource whose source recorded no
// attribute (blank, or foreign: no key of the type's canonical
// attributes, like loadgen's {"index":N,"synthetic":true}) into "not
// evaluated": a check that reads attributes and finds
// none has read nothing, and a pass on nothing read is not evidence (issue
// 29: unknown is not false, and not true either). Failures stand: they
// fire on the resource's existence (a Classic Load Balancer) or on
// defaults that hold whatever is recorded.
func recordedNothing(s *Subject, r *Rule, res Result) Result {
	if res.Failed || res.NotEvaluated || res.deferred || readsTagsOnly[r.ID] || !s.blank && !s.foreign() {
		return res
	}
	return notEvaluated("attributes")
}

// blankAttributes reports whether b records no attribute: empty, null or
// an object without a key.
func blankAttributes(b []byte) bool {
	i := skipSpace(b, 0)
	if i == len(b) {
		return true
	}
	switch b[i] {
	case 'n':
		return string(b[i:min(len(b), i+4)]) == "null" && skipSpace(b, i+4) == len(b)
	case '{':
		j := skipSpace(b, i+1)
		return j < len(b) && b[j] == '}' && skipSpace(b, j+1) == len(b)
	}
	return false
}
