package graph

//go:generate go run github.com/99designs/gqlgen generate --config ../gqlgen.yml
