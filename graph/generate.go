package graph

// gqlgen reads gqlgen.yml from the repository root, so it runs from there.
//go:generate sh -c "cd .. && go run github.com/99designs/gqlgen generate --config gqlgen.yml"
