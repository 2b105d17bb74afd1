// Package policy evaluates a tenant's custom policies: CEL expressions over a
// resource (and, for severity effects, a built-in finding) that raise findings
// or move the severity of built-in findings.
//
// The flow is: Validate a policy when it is written (syntax, types, templates
// and every other field, as validation_failed errors carrying the CEL error
// position); Compile it once per audit into a Program; for every resource in
// scope call Program.Match with an Input whose attributes were parsed once
// (ParseAttributes) and are shared by all policies; turn matches into
// findings (Program.Finding) or severity changes (Program.AdjustSeverity).
// DryRun streams an inventory through one policy without writing anything.
//
// Evaluation is bounded by a cost limit per resource. A failed evaluation
// (cost limit exceeded, a missing map key, a non-bool result) is an
// *EvalError: the audit runner counts it and skips that resource for that
// policy; it never fails the audit. docs/policies.md describes the CEL
// environment for policy authors.
package policy
