package rules

// platformRules are the checks of the identity, governance, security
// services, containers, messaging and monitoring family (ECS, EKS, …;
// issue 29 §4).
func platformRules() []Rule {
	var out []Rule
	out = append(out, ecsRules()...)
	out = append(out, eksRules()...)
	out = append(out, buildRules()...)
	out = append(out, identityRules()...)
	out = append(out, platformAccountRules()...)
	out = append(out, platformServiceRules()...)
	return out
}
