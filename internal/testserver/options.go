package testserver

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/fourd-dev/fourd/engine/mutes"
	"github.com/fourd-dev/fourd/engine/policies"
	"github.com/fourd-dev/fourd/engine/reporting"
	"github.com/fourd-dev/fourd/engine/triage"
	"github.com/fourd-dev/fourd/store/clickhouse"
)

// Options change how New builds a Stack. The zero value is every store and
// service as cmd/fourd wires them for `fourd serve`, without report
// generation and without following the change feed.
type Options struct {
	// Clock is the services' clock; nil is the wall clock, advanceable.
	Clock *Clock
	// ClockedPostgres opens PostgreSQL on Clock too (its timestamps of
	// leases, tokens' last use), for documents that must not vary.
	ClockedPostgres bool
	// Registry, when not nil, receives the stores' timings (storemetrics).
	Registry *prometheus.Registry
	// Engine changes the engine configuration last (its stores, reports);
	// it runs again for each NewServices.
	Engine func(*findings.Config)
	// Reporting changes the report configuration last (its stores); it
	// runs again for each NewServices.
	Reporting func(*reporting.Config)
	// Stores changes the stores of the services beyond the read path
	// (policies, the inventory, triage decisions, mute rules) after the
	// Engine hooks ran, for a test that puts proxies or counters there:
	// the Engine hooks change only the engine configuration, so a test
	// that replaces a store both read says so in each hook. It runs again
	// for each NewServices.
	Stores func(*Stores)
	// NoUserStore builds identity without its store: no users, sign-in or
	// OAuth, tokens only.
	NoUserStore bool
	// TokenCacheTTL is the identity service's token cache lifetime; 0 is
	// its default.
	TokenCacheTTL time.Duration
	// FollowChanges has the services follow PostgreSQL's change feed, as
	// `fourd serve` does, from before New returns until the test ends.
	FollowChanges bool
	// Renderer, when not nil, turns report generation and its workers on
	// (Services.Reporting); ReportLease is the workers' lease (0: default).
	Renderer    engine.ReportRenderer
	ReportLease time.Duration
	// ClickHouse, when not nil, is the ClickHouse store to use instead of
	// a fresh database (a benchmark's kept data set).
	ClickHouse *clickhouse.Store
}

// Stores are the stores of a replica's services beyond the read path: the
// stack's own unless an Options.Stores hook replaces them.
type Stores struct {
	// Policies keeps custom policies (engine/policies).
	Policies policies.Store
	// Inventory is what policy dry runs and audits read the resources'
	// configurations from.
	Inventory engine.InventoryReader
	// Decisions is where triage writes people's decisions; the read path
	// reads them through findings.Config.Overrides.
	Decisions triage.Decisions
	// MuteRules is where engine/mutes writes the rules; the read path
	// applies them through findings.Config.MuteRules.
	MuteRules mutes.Store
}

// Replica changes how NewServices builds one replica's services.
type Replica struct {
	// Engine changes the engine configuration after the Options' hook.
	Engine func(*findings.Config)
	// Renderer, when not nil, turns report generation and its workers on
	// for this replica (the Options' Renderer otherwise).
	Renderer engine.ReportRenderer
	// TokenCacheTTL, when not 0, replaces the Options' one.
	TokenCacheTTL time.Duration
	// FollowChanges has the replica follow PostgreSQL's change feed until
	// the test ends (Services.StopFollowing stops it earlier).
	FollowChanges bool
}
