package engine

// DefaultPageCacheSize is how many finding pages a findings.Service keeps.
const DefaultPageCacheSize = 512
