// Package dashboard is fourd's dashboard rankings (GET
// /v1/findings/rankings, GraphQL topRules, topResources, topAccounts,
// meanTimeToResolve): the rules, resources and accounts with the most open
// findings of a completed audit, and the mean time to resolve by severity.
// It reads open findings through the read path (Reads, given by
// engine/findings), so that a ranking agrees with the findings API: the
// decisions people made are applied and what active mute rules match is
// left out.
package dashboard
