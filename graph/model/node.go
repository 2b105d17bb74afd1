package model

// Node is an object with a global id, the GraphQL Node interface: one of
// engine's Finding, Resource, Audit, Policy or Report (their ids' prefixes
// make every id global).
type Node any
