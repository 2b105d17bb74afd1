package graph

import (
	"log/slog"

	"github.com/fourd-dev/fourd/engine/audit"
	"github.com/fourd-dev/fourd/engine/findings"
)

// Resolver is the root of gqlgen's resolvers and their one dependency
// injection point: every resolver is a call into the Service (audit
// writes into the audit Service, nil when the server runs no audits).
type Resolver struct {
	svc    *findings.Service
	audits *audit.Service
	log    *slog.Logger
}
