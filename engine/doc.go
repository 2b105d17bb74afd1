// Package engine is fourd's vocabulary: the domain types, enums, ids, the
// error type and codes, Principal and scopes, cursors, events and the
// store interfaces several concerns share (each concern declares the
// stores only it calls). It holds no use case and imports no concern
// package (TestRootImportsNoConcern). The concern packages around it each
// have their own Service: engine/findings (the read path and applying
// mute rules), engine/triage (people's work on findings), engine/exports,
// engine/idempotency (Idempotency-Key records),
// engine/policies (custom policies), engine/dashboard (the rankings),
// engine/mutes (the mute rules API), engine/posture (the compliance judge),
// engine/reporting (reports), engine/audit (audits: the orchestration and
// the evaluator), engine/identity, engine/webhooks, engine/ingest and
// engine/benchdata (loadgen's operator-only writes).
package engine
