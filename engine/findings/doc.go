// Package findings is fourd's read path and the use cases around it: finding
// lists, counts and summaries over the latest snapshot with people's
// decisions (overrides) and mute rules applied, the read caches and the
// change feed that keeps them true, triage writes (updates, bulk updates,
// mute rules), compliance posture and its trend, dashboards and trends,
// exports, explanations, policies, the lists of resources, audits and
// reports, and report generation (still here until engine/reporting takes
// it). Its Service checks every caller's tenant and scope itself; the REST
// and GraphQL adapters take it. It gives engine/audit the read path's side
// of an audit (AuditReads). Its vocabulary and store interfaces are engine's.
package findings
