// Package mutes is the mute rules API (issue 33): a tenant's rules that
// silence the open findings a CEL expression matches, with an owner, a
// reason and an expiry; their writes, reads, history and dry runs. A
// written rule is applied to the latest snapshot through the read path
// (Reads, given by engine/findings), which owns applying rules to
// snapshots, the mute sets and their sweep, because every finding read
// honours them.
package mutes
