// Package model holds the GraphQL types that engine has no counterpart for:
// Relay connections and edges over engine's pages, the JSON scalar, and the
// input and payload types gqlgen generates into models_gen.go.
package model
