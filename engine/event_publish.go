package engine

import (
	"context"
	"encoding/json"
	"fmt"
)

// eventChunk bounds how many events are built and committed at once.
const eventChunk = 1000

// newEvent builds an event with a fresh time-sortable id.
func (s *Service) newEvent(tenantID, typ string, data any) (Event, error) {
	b, err := json.Marshal(data)
	if err != nil {
		return Event{}, err
	}
	now := s.now().UTC()
	return Event{ID: NewID(PrefixEvent, now), TenantID: tenantID, Type: typ, CreatedAt: now, Data: b}, nil
}

// publish commits events to the outbox, then copies them to the event log.
// Without an EventStore configured, events are dropped (tests of other
// features).
func (s *Service) publish(ctx context.Context, events []Event) error {
	if len(events) == 0 || s.cfg.Events == nil {
		return nil
	}
	if err := s.cfg.Events.AppendEvents(ctx, events); err != nil {
		return err
	}
	if s.cfg.EventLog != nil {
		if err := s.cfg.EventLog.LogEvents(ctx, events); err != nil {
			s.log.WarnContext(ctx, "copying events to the event log", "err", err, "events", len(events))
		}
	}
	return nil
}

// resourceSummary is what resource.added carries: the resource without its
// (possibly large) attributes.
type resourceSummary struct {
	ID       string            `json:"id"`
	Provider string            `json:"provider"`
	Account  string            `json:"account"`
	Region   string            `json:"region"`
	Type     string            `json:"type"`
	NativeID string            `json:"native_id"`
	Name     string            `json:"name"`
	Tags     map[string]string `json:"tags"`
}

func summarize(r Resource) resourceSummary {
	return resourceSummary{ID: r.ID, Provider: r.Provider, Account: r.Account, Region: r.Region, Type: r.Type,
		NativeID: r.NativeID, Name: r.Name, Tags: r.Tags}
}

// publishResourceAdded announces resources new to the tenant: from known
// summaries where it has them, read back from the store otherwise.
func (s *Service) publishResourceAdded(ctx context.Context, tenantID string, ids []string, known map[string]resourceSummary) error {
	if s.cfg.Events == nil {
		return nil
	}
	for len(ids) > 0 {
		n := min(len(ids), eventChunk)
		chunk := ids[:n]
		ids = ids[n:]
		var missing []string
		events := make([]Event, 0, n)
		add := func(sum resourceSummary) error {
			ev, err := s.newEvent(tenantID, EventResourceAdded, resourceAdded{sum})
			events = append(events, ev)
			return err
		}
		for _, id := range chunk {
			if sum, ok := known[id]; ok {
				if err := add(sum); err != nil {
					return err
				}
			} else {
				missing = append(missing, id)
			}
		}
		if len(missing) > 0 {
			rs, err := s.cfg.Resources.GetResources(ctx, tenantID, missing)
			if err != nil {
				return err
			}
			for _, r := range rs {
				if err := add(summarize(r)); err != nil {
					return err
				}
			}
		}
		if err := s.publish(ctx, events); err != nil {
			return err
		}
	}
	return nil
}

// resourceEventChunk bounds the resource.added events built and committed
// at once: a bulk import announces a write batch (up to 20k) in one go, so
// that the event log gets a few large inserts rather than many small ones.
const resourceEventChunk = 20_000

// resourceAdded is the data of resource.added.
type resourceAdded struct {
	Resource resourceSummary `json:"resource"`
}

// publishResources announces resources new to the tenant, in chunks.
func (s *Service) publishResources(ctx context.Context, tenantID string, rs []Resource) error {
	for len(rs) > 0 {
		n := min(len(rs), resourceEventChunk)
		events := make([]Event, 0, n)
		for _, r := range rs[:n] {
			ev, err := s.newEvent(tenantID, EventResourceAdded, resourceAdded{summarize(r)})
			if err != nil {
				return err
			}
			events = append(events, ev)
		}
		if err := s.publish(ctx, events); err != nil {
			return fmt.Errorf("publishing resource.added: %w", err)
		}
		rs = rs[n:]
	}
	return nil
}
