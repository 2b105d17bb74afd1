package engine

// scopeWords says each scope in words, for the consent page (and any
// other place a person reads scopes).
var scopeWords = map[Scope]string{
	ScopeFindingsRead:   "Read findings",
	ScopeFindingsWrite:  "Accept the risk of findings and reopen them",
	ScopeResourcesRead:  "Read resources (the cloud inventory)",
	ScopeResourcesWrite: "Import resources",
	ScopeAuditsRead:     "Read audits",
	ScopeAuditsWrite:    "Start, cancel and re-run audits",
	ScopePoliciesRead:   "Read policies",
	ScopePoliciesWrite:  "Create, change and delete policies",
	ScopeReportsRead:    "Read and download reports",
	ScopeReportsWrite:   "Generate reports",
	ScopeWebhooksRead:   "Read webhook endpoints, events and deliveries",
	ScopeWebhooksWrite:  "Manage webhook endpoints and redeliver events",
	ScopeTokensWrite:    "Manage personal access tokens and OAuth clients",
}

// Words returns the scope in words ("Read findings"), or the scope itself
// when it has none.
func (s Scope) Words() string {
	if w, ok := scopeWords[s]; ok {
		return w
	}
	return string(s)
}
