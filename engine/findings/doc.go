// Package findings is fourd's read path and the use cases around it: finding
// lists, counts and summaries over the latest snapshot with people's
// decisions (overrides) and mute rules applied, the read caches and the
// change feed that keeps them true, triage writes (updates, bulk updates,
// mute rules), dashboards and trends, exports, explanations, policies, and
// the lists of resources and audits. Its Service checks every caller's
// tenant and scope itself; the REST and GraphQL adapters take it. It gives
// engine/audit the read path's side of an audit (AuditReads), and
// engine/reporting and engine/posture the open counts they report and judge
// (CountReads), so that all three agree with the findings API.
package findings
