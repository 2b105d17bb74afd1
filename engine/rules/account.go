package rules

import (
	"encoding/json"
	"slices"
	"sort"
	"time"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// accountFacts is what account-wide rules know about one AWS account after
// seeing all its resources.
type accountFacts struct {
	account  string
	root     *engine.Resource // the aws_iam_account resource, when seen
	regions  map[string]bool  // regions holding resources
	trailAll bool             // a logging multi-region trail exists
	trailIn  map[string]bool  // regions with a logging trail
	configIn map[string]bool  // regions with a recording Config recorder
	guardIn  map[string]bool  // regions with an enabled GuardDuty detector
	// guardUnknownIn holds the regions with a detector whose enablement
	// the source did not record: a region missing only there is not judged.
	guardUnknownIn map[string]bool
	// Trails whose logging status the source did not record: they may
	// cover a region, so a region they would cover is not judged.
	trailUnknownAll bool
	trailUnknownIn  map[string]bool
	// recorded says which kinds the account's source records: at least
	// one record of the kind holds its deciding keys (kindKeys). Without
	// one, a region lacking that kind is unknown, not uncovered, and the
	// account-wide check of the kind is not evaluated (issue 29 §2).
	recorded map[string]bool
	// pab is the account's S3 public access block (each switch on if on
	// in any record of it); nil when the inventory has none.
	pab *inv.PublicAccessBlock
	// policies holds the account's customer managed IAM policies by ARN,
	// for the checks of the principals they are attached to.
	policies map[string]policyFact
	// platform holds the facts of the platform family's account checks
	// (platform_account.go).
	platform platformFacts
	// rds holds the account's RDS sources by "cluster|instance/region/id",
	// and "cluster|instance/region" for each region where the inventory
	// records that kind, for the orphaned-snapshot checks.
	rds map[string]bool
	// ebs holds the account's EBS volumes by "region/volume id", and
	// "region" for each region where the inventory records volumes, for
	// the orphaned EBS snapshot check (aws-ebs-009).
	ebs map[string]bool
}

// policyFact is what the principal checks need of a customer managed
// policy: whether its document is known, and its full-admin statement.
type policyFact struct {
	known bool
	admin string // the statement granting "*" on "*"; "" when none
}

func (f *accountFacts) missing(covered map[string]bool) []string {
	var out []string
	for r := range f.regions {
		if !covered[r] {
			out = append(out, r)
		}
	}
	sort.Strings(out)
	return out
}

// kindKeys are, by resource type, the deciding keys of the kinds the
// account-wide checks look for in every region: a record holding none of
// them (loadgen's {"index":N,"synthetic":true}, {}) is no evidence that the
// source records that kind.
var kindKeys = map[string][]string{
	inv.TypeCloudTrail:        {"is_logging", "is_multi_region_trail"},
	inv.TypeConfigRecorder:    {"recording"},
	inv.TypeGuardDutyDetector: {"enabled"},
}

// observeKind notes that the account's source records res's kind when the
// record holds one of its deciding keys.
func (f *accountFacts) observeKind(res *engine.Resource, s *Subject) {
	keys, ok := kindKeys[res.Type]
	if !ok || s == nil || f.recorded[res.Type] {
		return
	}
	for _, k := range keys {
		if s.recorded(k) {
			f.recorded = setAdd(f.recorded, res.Type)
			return
		}
	}
}

// unrecordedKind is the "not evaluated" of an account-wide check whose
// kind (a resource type) the account's source does not record, naming the
// kind's first deciding key; ok is false when the kind is recorded.
func (f *accountFacts) unrecordedKind(typ string) (res Result, ok bool) {
	if f.recorded[typ] {
		return Result{}, false
	}
	return notEvaluated(typ + "." + kindKeys[typ][0]), true
}

func accountRules() []Rule {
	return []Rule{
		{ID: "aws-account-001", Dimension: security, Severity: high, Account: true, ResourceTypes: []string{inv.TypeIAMAccount},
			Compliance:  []string{"CIS-AWS-3.0.0:3.1", "CIS-AWS-4.0.1:3.1"},
			Title:       "CloudTrail is not enabled in every region in use",
			Description: "No logging multi-region trail exists, and some regions that hold resources have no logging trail: API activity there is not recorded.",
			Remediation: "Create one multi-region trail with management events (read and write), log file validation and KMS encryption, and keep it logging.",
			accountCheck: func(f *accountFacts) Result {
				if f.trailAll {
					return Result{Evidence: map[string]any{"multi_region_trail": true}} // once per account: no cost worth avoiding
				}
				if ne, ok := f.unrecordedKind(inv.TypeCloudTrail); ok {
					return ne // no trail recorded: a region without one is unknown
				}
				// Regions without a logging trail are surely uncovered when
				// no trail of unknown status may cover them: fail on those
				// alone, and leave the rest unjudged.
				var m []string
				unknown := false
				for _, r := range f.missing(f.trailIn) {
					if f.trailUnknownAll || f.trailUnknownIn[r] {
						unknown = true
					} else {
						m = append(m, r)
					}
				}
				if len(m) == 0 && unknown {
					return notEvaluated("is_logging") // a trail whose status is unknown may cover them
				}
				return failIf(nil, len(m) > 0, func() map[string]any { return map[string]any{"regions_without_trail": m, "multi_region_trail": false} })
			}},
		{ID: "aws-account-002", Dimension: compliance, Severity: medium, Account: true, ResourceTypes: []string{inv.TypeIAMAccount},
			Compliance:  []string{"CIS-AWS-3.0.0:3.3", "CIS-AWS-4.0.1:3.3"},
			Title:       "AWS Config is not recording in every region in use",
			Description: "Some regions that hold resources have no recording AWS Config recorder, so their configuration history is missing.",
			Remediation: "Enable AWS Config in every region (an organization conformance pack or the Config console's one-click setup).",
			accountCheck: func(f *accountFacts) Result {
				if ne, ok := f.unrecordedKind(inv.TypeConfigRecorder); ok {
					return ne
				}
				m := f.missing(f.configIn)
				return failIf(nil, len(m) > 0, func() map[string]any { return map[string]any{"regions_without_recorder": m} })
			}},
		{ID: "aws-account-003", Dimension: security, Severity: medium, Account: true, ResourceTypes: []string{inv.TypeIAMAccount},
			Title:       "GuardDuty is not enabled in every region in use",
			Description: "Some regions that hold resources have no enabled GuardDuty detector, so threats there go undetected.",
			Remediation: "Enable GuardDuty in every region, ideally for the whole organization from a delegated administrator account.",
			accountCheck: func(f *accountFacts) Result {
				if ne, ok := f.unrecordedKind(inv.TypeGuardDutyDetector); ok {
					return ne
				}
				var m []string // regions surely without an enabled detector
				unknown := false
				for _, r := range f.missing(f.guardIn) {
					if f.guardUnknownIn[r] {
						unknown = true
					} else {
						m = append(m, r)
					}
				}
				if len(m) == 0 && unknown {
					return notEvaluated("enabled")
				}
				return failIf(nil, len(m) > 0, func() map[string]any { return map[string]any{"regions_without_detector": m} })
			}},
	}
}

// AccountViolation is a violation found by Finish. For an account-wide
// rule, Resource is the account's aws_iam_account resource; when the
// inventory has none it is synthesized (native id
// arn:aws:iam::<account>:root), and the caller should add it to the
// inventory so the finding has a resource. For a check that waited for its
// account's facts (Auditor.Record), Resource is the resource checked.
type AccountViolation struct {
	Resource engine.Resource
	Violation
}

// Auditor evaluates the rule pack over a stream of resources: Evaluate per
// resource, then Finish once for the account-wide rules and for the checks
// that needed the facts of a whole account. It is not safe for concurrent
// use; a parallel runner calls AssessDeferring from its workers and Record
// from one goroutine.
type Auditor struct {
	now      time.Time
	accounts map[string]*accountFacts
	deferred deferredSet // the resources Record deferred, packed
	notEval  map[string]int64
	judged   []int64 // by Rule.idx: resources (or accounts) passed or failed
}

// NewAuditor returns an Auditor that judges ages against now.
func NewAuditor(now time.Time) *Auditor {
	return &Auditor{now: now, accounts: map[string]*accountFacts{}, notEval: map[string]int64{},
		judged: make([]int64, len(loadPack().all))}
}

// Evaluate returns res's violations and records it (see Record). The
// violations of checks that wait for account facts come from Finish.
func (a *Auditor) Evaluate(res engine.Resource) []Violation {
	o := AssessDeferring(res, a.now)
	a.Record(res, o)
	return o.Violations
}

// Record takes in what AssessDeferring made of res: it gathers the facts
// the account rules need, counts the checks not evaluated, and holds res
// (packed: deferredSet) for Finish when some of its checks were deferred.
func (a *Auditor) Record(res engine.Resource, o Outcome) {
	if s := o.subject; s != nil && s.Resource.Type == res.Type && s.Resource.NativeID == res.NativeID {
		a.observe(&res, factSubject(&res, s))
	} else {
		a.Observe(res)
	}
	for _, ne := range o.NotEvaluated {
		a.notEval[ne.Rule.ID]++
	}
	// Finish runs every joining check of a deferred resource again and
	// counts it then.
	a.countJudged(o, o.Deferred)
	if o.Deferred {
		a.deferred.add(&res)
	}
}

// countJudged counts the rules o passed or failed, but for those joining
// other resources' facts when skipJoins.
func (a *Auditor) countJudged(o Outcome, skipJoins bool) { countJudgedInto(a.judged, o, skipJoins) }

// countJudgedInto is countJudged into judged, by Rule.idx.
func countJudgedInto(judged []int64, o Outcome, skipJoins bool) {
	for i, r := range o.rules {
		if i < 64 && o.judged&(1<<i) != 0 && !(skipJoins && len(r.Joins) > 0) {
			judged[r.idx]++
		}
	}
}

// Evaluated counts, per rule id, the resources (or accounts) a rule
// judged — passed or failed —, among those recorded and those judged by
// Finish; rules that judged nothing are absent. With NotEvaluated it says
// which checks actually ran: the compliance posture passes a control only
// on checks that judged resources.
func (a *Auditor) Evaluated() map[string]int64 {
	out := map[string]int64{}
	all := loadPack().all
	for i, n := range a.judged {
		if n > 0 {
			out[all[i].ID] = n
		}
	}
	return out
}

// NotEvaluated counts, per rule id, the resources (or accounts) a rule
// could not judge for want of data, among those recorded and those judged
// by Finish.
func (a *Auditor) NotEvaluated() map[string]int64 { return a.notEval }

// Observe records the facts the account rules need from res without
// evaluating it.
func (a *Auditor) Observe(res engine.Resource) {
	if factTypes[res.Type] {
		a.observe(&res, NewSubject(&res, a.now))
	} else {
		a.observe(&res, nil)
	}
}

// factTypes are the resource types whose attributes hold facts the account
// rules read (observe parses them); of the others only the account and
// region count.
var factTypes = map[string]bool{
	inv.TypeCloudTrail: true, inv.TypeConfigRecorder: true, inv.TypeGuardDutyDetector: true,
	inv.TypeS3AccountPublicAccessBlock: true, inv.TypeIAMPolicy: true, inv.TypeRDSCluster: true,
	inv.TypeDBInstance: true, inv.TypeAccessAnalyzerAnalyzer: true, inv.TypeSQSQueue: true, inv.TypeIAMRole: true,
	inv.TypeEBSVolume: true,
}

// factSubject is s, already parsed for the checks of res, when observe
// reads facts from res's type, and nil when it reads none.
func factSubject(res *engine.Resource, s *Subject) *Subject {
	if !factTypes[res.Type] {
		return nil
	}
	return s
}

func (a *Auditor) observe(res *engine.Resource, s *Subject) {
	if res.Provider != inv.ProviderAWS || res.Account == "" {
		return
	}
	f := a.accounts[res.Account]
	if f == nil {
		f = &accountFacts{account: res.Account, regions: map[string]bool{}, trailIn: map[string]bool{},
			configIn: map[string]bool{}, guardIn: map[string]bool{}, trailUnknownIn: map[string]bool{}, guardUnknownIn: map[string]bool{}}
		a.accounts[res.Account] = f
	}
	if res.Region != "" && res.Region != inv.RegionGlobal {
		f.regions[res.Region] = true
	}
	if s != nil && s.bad {
		return
	}
	f.observeKind(res, s)
	switch res.Type {
	case inv.TypeIAMAccount:
		if f.root == nil {
			r := *res
			f.root = &r
		}
	case inv.TypeCloudTrail:
		t := get[inv.CloudTrail](s)
		switch {
		case t.IsLogging == nil:
			f.trailUnknownAll = f.trailUnknownAll || t.IsMultiRegionTrail
			f.trailUnknownIn[firstNonEmpty(t.HomeRegion, res.Region)] = true
		case *t.IsLogging:
			f.trailAll = f.trailAll || t.IsMultiRegionTrail
			f.trailIn[firstNonEmpty(t.HomeRegion, res.Region)] = true
			if !t.IsMultiRegionTrail && !s.recorded("is_multi_region_trail") {
				f.trailUnknownAll = true // a logging trail that may cover every region
			}
		}
	case inv.TypeS3AccountPublicAccessBlock:
		p := get[inv.S3AccountPublicAccessBlock](s).PublicAccessBlock
		if f.pab != nil {
			p = orBlock(*f.pab, p)
		}
		f.pab = &p
	case inv.TypeIAMPolicy:
		if f.policies == nil {
			f.policies = map[string]policyFact{}
		}
		p := get[inv.IAMPolicy](s)
		fact := policyFact{known: p.Document != nil}
		fact.admin, _ = s.policy(p.Document).FullAdmin()
		f.policies[res.NativeID] = fact
	case inv.TypeRDSCluster:
		f.observeRDS("cluster", res.Region, get[inv.RDSCluster](s).Identifier)
	case inv.TypeDBInstance:
		f.observeRDS("instance", res.Region, get[inv.DBInstance](s).Identifier)
	case inv.TypeEBSVolume:
		f.observeEBSVolume(res, s)
	case inv.TypeConfigRecorder:
		// A recorder whose status the source did not record counts as
		// recording: an unknown is no evidence of a gap.
		if c := get[inv.ConfigRecorder](s); c.Recording == nil || *c.Recording {
			f.configIn[res.Region] = true
			f.observePlatform(res, s)
		}
	case inv.TypeAccessAnalyzerAnalyzer, inv.TypeSQSQueue, inv.TypeIAMRole:
		f.observePlatform(res, s)
	case inv.TypeGuardDutyDetector:
		if get[inv.GuardDutyDetector](s).Enabled {
			f.guardIn[res.Region] = true
		} else if !s.recorded("enabled") {
			f.guardUnknownIn[res.Region] = true
		}
	}
}

// Finish evaluates the account-wide rules over what the Auditor saw, in
// account then rule order.
func (a *Auditor) Finish() []AccountViolation {
	ids := make([]string, 0, len(a.accounts))
	for id := range a.accounts {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var out []AccountViolation
	p := loadPack()
	for _, id := range ids {
		f := a.accounts[id]
		for i := range p.all {
			r := &p.all[i]
			if !r.Account {
				continue
			}
			res := r.accountCheck(f)
			if res.NotEvaluated {
				a.notEval[r.ID]++
				continue
			}
			a.judged[r.idx]++
			if v, ok := violation(r, res); ok {
				out = append(out, AccountViolation{Resource: f.resource(), Violation: v})
			}
		}
	}
	// The checks that waited for their account's facts.
	out = a.finishDeferred(out)
	a.deferred = deferredSet{}
	return out
}

// resource is the account's aws_iam_account resource, or a synthesized one.
func (f *accountFacts) resource() engine.Resource {
	if f.root != nil {
		return *f.root
	}
	attrs, _ := json.Marshal(inv.IAMAccount{AccountID: f.account, Synthesized: true})
	return engine.Resource{Provider: inv.ProviderAWS, Account: f.account, Region: inv.RegionGlobal,
		Type: inv.TypeIAMAccount, NativeID: "arn:aws:iam::" + f.account + ":root", Name: f.account, Attributes: attrs}
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
