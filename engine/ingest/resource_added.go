package ingest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// eventChunk bounds how many events are built and committed at once.
const eventChunk = 1000

// resourceSummary is what resource.added carries: the resource without its
// (possibly large) attributes.
type resourceSummary struct {
	ID       string      `json:"id"`
	Provider string      `json:"provider"`
	Account  string      `json:"account"`
	Region   string      `json:"region"`
	Type     string      `json:"type"`
	NativeID string      `json:"native_id"`
	Name     string      `json:"name"`
	Tags     engine.Tags `json:"tags"`
}

func summarize(r engine.Resource) resourceSummary {
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
		events := make([]engine.Event, 0, n)
		add := func(sum resourceSummary) error {
			ev, err := s.newEvent(tenantID, engine.EventResourceAdded, resourceAdded{sum})
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
		if err := s.publisher().Publish(ctx, events); err != nil {
			return err
		}
	}
	return nil
}

// resourceEventChunk bounds the resource.added events built and committed
// at once: a bulk import announces a write batch (up to 20k) in one go, so
// that the event log gets a few large inserts rather than many small ones.
const resourceEventChunk = 20_000

// eventArrays holds the event arrays of committed chunks: a first import
// of 1M resources made 80 MB of them, one a batch.
var eventArrays = sync.Pool{New: func() any { return new([]engine.Event) }}

// resourceCommitTimeout bounds a commit of resource.added that outlives its
// caller (publishAdded).
const resourceCommitTimeout = time.Minute

// resourceAdded is the data of resource.added.
type resourceAdded struct {
	Resource resourceSummary `json:"resource"`
}

// publishAdded builds the resource.added events of a stored batch's new
// resources from their packed data (engine.ResourceBatch) and commits
// them, in chunks of resourceEventChunk. The events get their ids and
// creation time here, so that ids follow the order in which the outbox
// commits them. With a copier, the committed events go to it for the event
// log, which releases added once copied; without, they are copied here.
// added is released in every case.
func (s *Service) publishAdded(ctx context.Context, tenantID string, added engine.AddedResources, copier *logCopier) error {
	if added.Len() == 0 {
		added.Release()
		return nil
	}
	// The resources are stored when this runs. Their announcement must
	// not be lost because the caller went away (a client gone from POST
	// /v1/resources): a retry finds them known and announces nothing. So
	// it outlives the caller's context, for a while.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), resourceCommitTimeout)
	defer cancel()
	// The stores keep nothing of the events once they return (EventStore,
	// EventLog): the payloads' buffer and the events' arrays serve later
	// batches once the events are committed and copied to the event log
	// (by the copier, later, when given).
	for start := 0; start < added.Len(); {
		n := min(added.Len()-start, resourceEventChunk)
		pooledEvents := eventArrays.Get().(*[]engine.Event)
		events := slices.Grow((*pooledEvents)[:0], n)[:n]
		*pooledEvents = events
		runs := engine.NewEventRuns(s.now)
		for i := range n {
			id, at := runs.Next(engine.EventResourceAdded)
			events[i] = engine.Event{ID: id, TenantID: tenantID, Type: engine.EventResourceAdded, CreatedAt: at,
				Data: added.Data(start + i), Strict: added.Strict()}
		}
		start += n
		last := start == added.Len()
		release := func() {
			clear(*pooledEvents)
			eventArrays.Put(pooledEvents)
			if last {
				added.Release()
			}
		}
		if err := s.cfg.Events.AppendEvents(ctx, events); err != nil {
			// The copies of earlier chunks, still queued, read the
			// buffer: it is not given back, and the collector takes it.
			clear(*pooledEvents)
			eventArrays.Put(pooledEvents)
			return fmt.Errorf("publishing resource.added: %w", err)
		}
		if copier != nil {
			copier.copy(ctx, events, release)
		} else {
			s.publisher().LogEvents(ctx, events)
			release()
		}
	}
	return nil
}
