package graph

// gqlgen reads gqlgen.yml from the repository root, so it runs from there.
// gqlgen is a tool of the module (go.mod's tool directive), pinned to v0.17.95.
//go:generate sh -c "cd .. && go tool gqlgen generate --config gqlgen.yml"
