package engine

// Mute set upkeep (issue 33 §1). A rule's expiry changes the set a
// snapshot's reads honour without any write to announce it, so the sweep
// builds the new set soon after, instead of the first read after the
// expiry (which answers from the rules' matches meanwhile, slowly at
// scale). And a set another replaced is never read again once no cache
// names its build: the sweep deletes it a grace period after.

// MuteSweep is what one SweepMuteSets did.
type MuteSweep struct {
	// Settled is how many snapshots' sets were brought up to the active
	// rules (built, or found built) after an expiry.
	Settled int
	// Deleted is how many superseded sets were deleted.
	Deleted int
}
