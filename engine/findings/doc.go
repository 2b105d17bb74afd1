// Package findings is fourd's read path: finding lists, counts and
// summaries over the latest snapshot with people's decisions (overrides)
// and mute rules applied, the read caches and the change feed that keeps
// them true, applying mute rules to snapshots and their mute sets, trends,
// explanations, and the lists of resources and audits.
// Its Service checks every caller's tenant and scope itself; the REST and
// GraphQL adapters take it. The concerns built on the read path take a
// narrow view of it, so that they agree with the findings API:
// engine/audit the side of an audit (AuditReads), engine/reporting,
// engine/posture and engine/dashboard the open counts (CountReads),
// engine/mutes a written rule's application (MuteReads), engine/triage the
// findings and decisions it changes (TriageReads) and engine/exports the
// pages it streams (ExportReads). New also returns the Operator, the
// principal-less upkeep only cmd/fourd holds: following the change feed
// and the sweeps of expired credentials and of mute sets.
package findings
