package ingest

import (
	"bytes"
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

// payloadBuffers and eventArrays hold what prepareResources' commits gave
// back: a first import of 1M resources made 320 MB of payload buffers and
// 80 MB of event arrays, one of each a batch.
var (
	payloadBuffers = sync.Pool{New: func() any { return new([]byte) }}
	eventArrays    = sync.Pool{New: func() any { return new([]engine.Event) }}
)

// resourceCommitTimeout bounds a commit of resource.added that outlives its
// caller (prepareResources).
const resourceCommitTimeout = time.Minute

// resourceAdded is the data of resource.added.
type resourceAdded struct {
	Resource resourceSummary `json:"resource"`
}

// prepareResources builds the resource.added events of resources new to
// the tenant and returns what commits them. A bulk write prepares a batch's
// announcement as soon as it knows which resources are new, and commits it
// once their rows are stored: the payloads are then all it keeps of the
// batch (pointer-free bytes, ~350 per resource), not the decoded
// resources. The events get their ids and creation time at commit, so that
// ids follow the order in which the outbox commits them. With a copier,
// the commit hands the committed events to it for the event log and
// returns; without, it copies them itself.
func (s *Service) prepareResources(ctx context.Context, tenantID string, rs []engine.Resource, copier *logCopier) (commit func() error) {
	// One buffer holds the payloads: one allocation, not one per event,
	// and not even that once the commits of earlier batches gave theirs
	// back (payloadBuffers).
	size := 0
	for i := range rs {
		size += resourceAddedSize(&rs[i])
	}
	pooled := payloadBuffers.Get().(*[]byte)
	buf := slices.Grow((*pooled)[:0], size)
	ends := make([]int, len(rs))
	for i := range rs {
		buf = appendResourceAdded(buf, &rs[i])
		ends[i] = len(buf)
	}
	// appendResourceAdded writes strict JSON but for a NUL byte, escaped
	// as \u0000: a payload holding one (or the text \u0000, escaped as
	// \\u0000) leaves the check to the store.
	strict := !bytes.Contains(buf, []byte(`\u0000`))
	done := false
	return func() error {
		if done { // a commit runs once: buf may be another's now
			return nil
		}
		done = true
		// The resources are stored when commit runs. Their announcement
		// must not be lost because the caller went away (a client gone
		// from POST /v1/resources): a retry finds them known and announces
		// nothing. So it outlives the caller's context, for a while.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), resourceCommitTimeout)
		defer cancel()
		// The stores keep nothing of the events once they return
		// (EventStore, EventLog): the payloads' buffer and the events'
		// arrays serve later batches once the events are committed and
		// copied to the event log (by the copier, later, when given).
		releaseBuf := func() {
			*pooled = buf[:0]
			payloadBuffers.Put(pooled)
		}
		start := 0
		for len(ends) > 0 {
			n := min(len(ends), resourceEventChunk)
			pooledEvents := eventArrays.Get().(*[]engine.Event)
			events := slices.Grow((*pooledEvents)[:0], n)[:n]
			*pooledEvents = events
			runs := engine.NewEventRuns(s.now)
			for i, end := range ends[:n] {
				id, at := runs.Next(engine.EventResourceAdded)
				events[i] = engine.Event{ID: id, TenantID: tenantID, Type: engine.EventResourceAdded, CreatedAt: at,
					Data: buf[start:end:end], Strict: strict}
				start = end
			}
			ends = ends[n:]
			last := len(ends) == 0
			release := func() {
				clear(*pooledEvents)
				eventArrays.Put(pooledEvents)
				if last {
					releaseBuf()
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
}

// resourceAddedSize is what appendResourceAdded usually needs for r (more
// only when strings need escaping).
func resourceAddedSize(r *engine.Resource) int {
	n := 110 + len(r.ID) + len(r.Provider) + len(r.Account) + len(r.Region) + len(r.Type) + len(r.NativeID) + len(r.Name)
	for _, t := range r.Tags {
		n += 6 + len(t.Key) + len(t.Value)
	}
	return n
}

// appendResourceAdded appends the data of resource.added for r, byte for
// byte what json.Marshal(resourceAdded{summarize(r)}) gives (tags sorted by
// key, HTML-safe escapes), at a fraction of its cost: a first import builds
// one per resource, and reflection took a tenth of its CPU.
func appendResourceAdded(b []byte, r *engine.Resource) []byte {
	b = append(b, `{"resource":{"id":`...)
	b = engine.AppendJSONString(b, r.ID)
	b = append(b, `,"provider":`...)
	b = engine.AppendJSONString(b, r.Provider)
	b = append(b, `,"account":`...)
	b = engine.AppendJSONString(b, r.Account)
	b = append(b, `,"region":`...)
	b = engine.AppendJSONString(b, r.Region)
	b = append(b, `,"type":`...)
	b = engine.AppendJSONString(b, r.Type)
	b = append(b, `,"native_id":`...)
	b = engine.AppendJSONString(b, r.NativeID)
	b = append(b, `,"name":`...)
	b = engine.AppendJSONString(b, r.Name)
	b = append(b, `,"tags":`...)
	b = r.Tags.AppendJSON(b)
	return append(b, "}}"...)
}
