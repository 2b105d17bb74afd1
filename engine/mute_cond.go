package engine

// MuteCond is a mute rule's expression in a form the analytics store can
// evaluate over a snapshot's rows itself, with no finding leaving it: a tree
// of conjunctions, disjunctions and negations over comparisons of one
// finding column with string constants. A rule whose expression has this
// form is applied by one INSERT … SELECT in the store instead of a streamed
// CEL pass (mute_apply.go); both must mute exactly the same findings.
type MuteCond struct {
	Op MuteOp
	// Field is the column MuteEq and MuteIn compare.
	Field MuteField
	// Values are MuteEq's one constant, MuteIn's constants (any number).
	Values []string
	// Args are MuteAnd's and MuteOr's operands (two or more) or MuteNot's
	// one.
	Args []MuteCond
}

// MuteOp is the operation of a MuteCond.
type MuteOp int

// The operations of a MuteCond.
const (
	MuteFalse MuteOp = iota // never matches
	MuteTrue                // always matches
	MuteEq                  // Field == Values[0]
	MuteIn                  // Field is one of Values
	MuteAnd                 // every one of Args
	MuteOr                  // any one of Args
	MuteNot                 // not Args[0]
)

// MuteField is a finding field a MuteCond compares: each is a string a
// snapshot row holds for every finding.
type MuteField string

// The fields a MuteCond compares, named as the CEL expression names them
// (finding.rule_id, resource.type, …).
const (
	MuteRuleID       MuteField = "finding.rule_id"
	MuteSeverity     MuteField = "finding.severity"
	MuteDimension    MuteField = "finding.dimension"
	MuteResourceID   MuteField = "resource.id"
	MuteResourceType MuteField = "resource.type"
	MuteProvider     MuteField = "resource.provider"
	MuteAccount      MuteField = "resource.account"
	MuteRegion       MuteField = "resource.region"
)

// MuteFields are the fields a MuteCond may compare.
var MuteFields = []MuteField{MuteRuleID, MuteSeverity, MuteDimension, MuteResourceID, MuteResourceType,
	MuteProvider, MuteAccount, MuteRegion}

// MuteConditioner is implemented by a MuteMatcher whose expression may be
// a MuteCond.
type MuteConditioner interface {
	// Condition returns the expression as a MuteCond, or false when it
	// reads anything else (title, compliance, tags, attributes, a function).
	Condition() (MuteCond, bool)
}
