// Package engine is fourd's vocabulary: the domain types, enums, ids, the
// error type and codes, Principal and scopes, cursors, events and the
// interfaces of what the use cases need from the stores. It holds no use
// case and imports no concern package (TestRootImportsNoConcern). The
// concern packages around it each have their own Service: engine/findings
// (the read path, triage, mute rules, compliance, dashboards, exports,
// policies, reports), engine/audit (audits: the orchestration and the
// evaluator), engine/identity, engine/webhooks, engine/ingest and
// engine/benchdata (loadgen's operator-only writes).
package engine
