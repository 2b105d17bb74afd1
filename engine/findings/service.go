package findings

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Config holds what a Service needs. Stores are required; the rest have
// defaults.
type Config struct {
	Findings  engine.FindingStore
	Resources engine.ResourceStore
	Tenants   engine.TenantStore
	Audits    engine.AuditStore
	// Snapshots reads findings across snapshots (activity, bulk updates,
	// reports); Evaluators compiles mute rules and explanations. Both
	// optional: what needs them is unavailable without them. Audits
	// themselves run in engine/audit, policies are engine/policies'.
	Snapshots  engine.SnapshotStore
	Evaluators engine.Evaluators
	Overrides  OverrideStore
	// MuteRules and MuteMatches keep mute rules and their matches
	// (issue 33); optional, with an Evaluators that is a MuteCompiler.
	MuteRules   MuteRuleStore
	MuteMatches MuteMatchStore
	// Events is the outbox; EventLog its analytic copy. Both optional.
	Events   engine.EventStore
	EventLog engine.EventLog
	// Trends counts findings over several snapshots; optional, finding
	// trends are unavailable without it.
	Trends TrendStore
	// Analytics answers the dashboard's aggregates and the open counts
	// reports and the compliance posture read (CountReads); Catalog names
	// the rules in rankings. Optional: those are unavailable without
	// Analytics.
	Analytics Analytics
	Catalog   engine.RuleCatalog
	// Sweeper deletes expired OAuth codes, tokens, sign-in attempts and
	// idempotency keys (Operator.SweepExpired); optional, nothing is swept
	// without it.
	Sweeper ExpiredSweeper
	// ChangeListeners are told every change the feed reports, after the
	// Service's own caches (engine/identity's Operator purges its
	// Service's token cache there).
	ChangeListeners []engine.ChangeListener
	// Changes reports writes to audits and finding overrides made by any
	// process; with it (and Operator.FollowChanges running), the latest
	// completed audit and the overrides of each tenant are cached.
	// Optional: without it every finding read asks the store for them.
	Changes engine.ChangeFeed
	// Secret keys cursors and other opaque values; at least 32 bytes.
	Secret []byte
	// PageCacheSize is how many finding pages of completed snapshots the
	// Service keeps in memory (they never change); 0 means
	// DefaultPageCacheSize, negative disables the cache.
	PageCacheSize int
	// ExportPageSize is how many findings a scan of a snapshot (an
	// export's pages through ExportReads, a mute rule's dry run) reads from
	// the store per query (default and at most MaxExportPageSize).
	ExportPageSize int
	// CursorTTL bounds how long a cursor stays valid; default 24 h.
	CursorTTL time.Duration
	Logger    *slog.Logger
	Now       func() time.Time
}

// Validate reports the first missing or invalid field.
func (c Config) Validate() error {
	switch {
	case c.Findings == nil || c.Resources == nil:
		return errors.New("engine: analytics stores (Findings, Resources) are required")
	case c.Tenants == nil || c.Audits == nil:
		return errors.New("engine: control stores (Tenants, Audits) are required")
	}
	return engine.CheckSecret("engine", c.Secret)
}

// Service is the read path. Each method that serves a caller takes its
// Principal and checks tenant and scope itself; the REST and GraphQL
// adapters never decide authorization.
type Service struct {
	cfg     Config
	log     *slog.Logger
	now     func() time.Time
	cursors *engine.Cursors
	pages   *pageCache
	reads   *readCache
	// muteBuilds are the mute set builds running in the background, by
	// tenant and snapshot (buildMuteSetLater).
	muteBuilds sync.Map
	// muteBuildLocks serialise the builds of each snapshot's mute set
	// (settleMuteSet), by tenant and snapshot.
	muteBuildLocks keyedLocks
	// muteSweptUntil is the time up to which Operator.SweepMuteSets has
	// settled the expiries (zero: none yet), under muteSweepMu.
	muteSweepMu    sync.Mutex
	muteSweptUntil time.Time
}

// New returns the Service over the configured stores and its Operator
// (the principal-less upkeep); they share the caches, so what the Operator
// follows and sweeps applies to the Service's reads.
func New(cfg Config) (*Service, *Operator, error) {
	if err := cfg.Validate(); err != nil {
		return nil, nil, err
	}
	k, err := engine.NewKeyed("engine", cfg.Secret, cfg.CursorTTL, cfg.Now, cfg.Logger)
	if err != nil {
		return nil, nil, err
	}
	cfg.Now, cfg.Logger, cfg.CursorTTL = k.Now, k.Logger, k.CursorTTL
	if cfg.PageCacheSize == 0 {
		cfg.PageCacheSize = DefaultPageCacheSize
	}
	if cfg.ExportPageSize <= 0 || cfg.ExportPageSize > engine.MaxExportPageSize {
		cfg.ExportPageSize = engine.MaxExportPageSize
	}
	s := &Service{
		cfg:     cfg,
		log:     k.Logger,
		now:     k.Now,
		cursors: k.Cursors,
		pages:   newPageCache(cfg.PageCacheSize),
		reads:   newReadCache(),
	}
	return s, &Operator{s}, nil
}

// Ready reports whether the stores answer (unavailable when one does not);
// degraded lists the parts of a store that are down while it still
// answers (Degrader), which leave some tenants' requests unavailable and
// the others served. /readyz serves it.
func (s *Service) Ready(ctx context.Context) (degraded []string, err error) {
	for name, d := range map[string]any{"clickhouse": s.cfg.Findings, "postgres": s.cfg.Tenants} {
		if p, ok := d.(engine.Pinger); ok {
			if err := p.Ping(ctx); err != nil {
				return nil, engine.Errorf(engine.CodeUnavailable, "%s is not answering", name)
			}
		}
	}
	if d, ok := s.cfg.Findings.(engine.Degrader); ok {
		degraded = d.Degraded(ctx)
	}
	return degraded, nil
}
