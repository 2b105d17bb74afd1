package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"github.com/fourd-dev/fourd/internal/cache"
)

// gqlCache is gqlgen's graphql.Cache over fourd's one cache
// (internal/cache): the parsed documents and the automatic persisted
// queries, each an LRU bounded by entries.
type gqlCache[T any] struct{ lru *cache.LRU[string, T] }

var _ graphql.Cache[string] = gqlCache[string]{}

func newGQLCache[T any](size int) gqlCache[T] {
	return gqlCache[T]{lru: cache.New(cache.Options[string, T]{MaxCost: size})}
}

// Get returns the value under key and marks it most recently used.
func (c gqlCache[T]) Get(_ context.Context, key string) (T, bool) { return c.lru.Get(key) }

// Add keeps value under key.
func (c gqlCache[T]) Add(_ context.Context, key string, value T) { c.lru.Put(key, value) }
