package engine

import (
	"time"
)

// DefaultMuteApplyWait is how long a write of a mute rule waits for its
// application before answering (with applied null when it is not done:
// the application goes on, and the rule shows applied once it is).
const DefaultMuteApplyWait = 20 * time.Second

// MuteApplyTimeout bounds applying a rule to the latest snapshot, or
// building its mute set, once a rule is written: the write stands even if
// the caller goes away meanwhile.
const MuteApplyTimeout = 10 * time.Minute
