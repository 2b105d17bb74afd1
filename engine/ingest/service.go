// Package ingest is fourd's inventory intake: it validates and normalizes
// the resources producers send (POST /v1/resources, `fourd import`),
// stores them, and announces the ones new to the tenant (resource.added)
// through the outbox, copying those events to the event log. engine keeps
// the vocabulary (Resource, IngestItem, IngestResult, the limits);
// engine/inventory decodes the formats into IngestItems.
package ingest

import (
	"context"
	"errors"
	"iter"
	"log/slog"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Store is what ingest needs of the inventory store (store/clickhouse). A
// Store that is also a BatchWriter has each batch's new resources
// announced as soon as they are stored; otherwise they are announced once
// the whole write returns, read back past maxKeptSummaries.
type Store interface {
	// WriteResources stores observations in large batches and returns the
	// ids seen for the first time for the tenant.
	WriteResources(ctx context.Context, tenantID string, resources iter.Seq2[engine.Resource, error]) (engine.WriteResourcesResult, error)
	// GetResources returns the resources with the given ids that exist, in
	// any order.
	GetResources(ctx context.Context, tenantID string, ids []string) ([]engine.Resource, error)
}

// Config holds what the Service needs. Resources is required.
type Config struct {
	Resources Store
	// Events is the outbox; without it new resources are not announced.
	Events engine.EventStore
	// EventLog is the analytic copy of events; optional.
	EventLog engine.EventLog
	Logger   *slog.Logger
	Now      func() time.Time
}

// Service is the ingest use cases.
type Service struct {
	cfg Config
	log *slog.Logger
	now func() time.Time
}

// New returns the Service over cfg.
func New(cfg Config) (*Service, error) {
	if cfg.Resources == nil {
		return nil, errors.New("ingest: Resources is required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Service{cfg: cfg, log: cfg.Logger, now: cfg.Now}, nil
}

// publisher commits events to the outbox and copies them to the event log.
func (s *Service) publisher() engine.Publisher {
	return engine.Publisher{Events: s.cfg.Events, Log: s.cfg.EventLog, Logger: s.log}
}

// newEvent builds an event with a fresh time-sortable id.
func (s *Service) newEvent(tenantID, typ string, data any) (engine.Event, error) {
	return engine.NewEvent(tenantID, typ, data, s.now())
}
