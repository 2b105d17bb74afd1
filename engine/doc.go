// Package engine is fourd's core: the domain vocabulary (domain types,
// enums, ids, the error type and codes, Principal, scopes, cursors), the
// Service with one method per use case not yet carved out, and the
// interfaces of what it needs from the outside. The concern packages around
// it hold the others, each with its own Service and narrow store interface:
// engine/identity, engine/webhooks, engine/ingest, engine/audit (audits:
// the orchestration and the evaluator) and engine/benchdata (loadgen's
// operator-only writes).
package engine
