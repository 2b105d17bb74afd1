package findings

// Operator is the read path's principal-less upkeep, for cmd/fourd's
// workers: following the change feed (FollowChanges), sweeping expired
// credentials and idempotency keys (SweepExpired) and the mute sets rule
// expiries changed (SweepMuteSets). None of it checks a caller, so it is
// not on Service, which the API adapters hold: only New returns an
// Operator, and only cmd/fourd wires one.
type Operator struct{ s *Service }
