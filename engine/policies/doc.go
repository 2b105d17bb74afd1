// Package policies keeps a tenant's custom policies (REST /v1/policies,
// GraphQL policy, policies, createPolicy, updatePolicy, deletePolicy,
// dryRunPolicy, testPolicy): create, read, list, update (each change a new
// version), delete, and dry runs over the current inventory that store
// nothing. Expressions are compiled and type-checked by the Checker
// (engine/audit's evaluators, over engine/policy); audits evaluate the
// stored policies themselves (engine/audit).
package policies
