package engine

// A mute set is the muted findings of one snapshot under one set of active
// rule versions (the refs a read honours, in their order), materialised
// when that set changes: when a rule is written, when an audit writes a new
// snapshot, and, for a change no write announces (a rule's expiry), by the
// sweep (findings.Operator.SweepMuteSets) or the first read that finds it missing, whichever
// comes first. A set another replaced is deleted by the sweep a grace
// period later. Reads then anti-join one build of the
// set, one row per muted finding, and read its precomputed counts, instead
// of every rule's matches (docs/design/mute-rules.md).

// MuteSetBuild is one build of a mute set.
type MuteSetBuild struct {
	TenantID string
	AuditID  string
	// Key names the set: a hash of its ordered rule versions (muteSetKey).
	Key string
	// Build names this build's rows in the analytics store.
	Build string
	Muted int64
}
