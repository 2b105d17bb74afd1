package engine

import (
	"time"
)

// DefaultMuteApplyWait is how long a write of a mute rule waits for its
// application before answering (with applied null when it is not done:
// the application goes on, and the rule shows applied once it is).
const DefaultMuteApplyWait = 20 * time.Second
