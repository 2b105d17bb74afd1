package graph

import (
	"log/slog"

	"github.com/fourd-dev/fourd/engine"
)

// Resolver is the root of gqlgen's resolvers and their one dependency
// injection point: every resolver is a call into the Service.
type Resolver struct {
	svc *engine.Service
	log *slog.Logger
}
