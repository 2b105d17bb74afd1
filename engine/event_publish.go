package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"
	"unicode/utf8"
)

// eventChunk bounds how many events are built and committed at once.
const eventChunk = 1000

// newEvent builds an event with a fresh time-sortable id.
func (s *Service) newEvent(tenantID, typ string, data any) (Event, error) {
	return NewEvent(tenantID, typ, data, s.now())
}

// eventRunMax bounds the events of one run (see eventRuns): a run shares
// its creation time, which stays that of its first event.
const eventRunMax = 1000

// eventRuns gives the events of a large append ids in runs per type
// (engine.IDRun), each run sharing one creation time, so that the outbox
// can store a run as one row (store/postgres: event_batches) while every
// event keeps its own stable, time-sortable id.
type eventRuns struct {
	now  func() time.Time
	runs map[string]*eventRun
}

type eventRun struct {
	ids *IDRun
	at  time.Time
	n   int
}

func newEventRuns(now func() time.Time) *eventRuns {
	return &eventRuns{now: now, runs: map[string]*eventRun{}}
}

// next returns the id and creation time of the next event of type typ.
func (r *eventRuns) next(typ string) (string, time.Time) {
	run := r.runs[typ]
	if run == nil || run.n == eventRunMax {
		at := r.now().UTC()
		run = &eventRun{ids: NewIDRun(PrefixEvent, at), at: at}
		r.runs[typ] = run
	}
	run.n++
	return run.ids.Next(), run.at
}

// event builds an event of the next id in its type's run.
func (r *eventRuns) event(tenantID, typ string, data any) (Event, error) {
	b, err := json.Marshal(data)
	if err != nil {
		return Event{}, err
	}
	id, at := r.next(typ)
	return Event{ID: id, TenantID: tenantID, Type: typ, CreatedAt: at, Data: b}, nil
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
	s.logEvents(ctx, events)
	return nil
}

// logEvents copies committed events to the event log, if there is one.
// The copy is best effort: a failure is logged, not returned.
func (s *Service) logEvents(ctx context.Context, events []Event) {
	if s.cfg.EventLog == nil {
		return
	}
	if err := s.cfg.EventLog.LogEvents(ctx, events); err != nil {
		s.log.WarnContext(ctx, "copying events to the event log", "err", err, "events", len(events))
	}
}

// resourceSummary is what resource.added carries: the resource without its
// (possibly large) attributes.
type resourceSummary struct {
	ID       string `json:"id"`
	Provider string `json:"provider"`
	Account  string `json:"account"`
	Region   string `json:"region"`
	Type     string `json:"type"`
	NativeID string `json:"native_id"`
	Name     string `json:"name"`
	Tags     Tags   `json:"tags"`
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

// payloadBuffers and eventArrays hold what prepareResources' commits gave
// back: a first import of 1M resources made 320 MB of payload buffers and
// 80 MB of event arrays, one of each a batch.
var (
	payloadBuffers = sync.Pool{New: func() any { return new([]byte) }}
	eventArrays    = sync.Pool{New: func() any { return new([]Event) }}
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
func (s *Service) prepareResources(ctx context.Context, tenantID string, rs []Resource, copier *logCopier) (commit func() error) {
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
			pooledEvents := eventArrays.Get().(*[]Event)
			events := slices.Grow((*pooledEvents)[:0], n)[:n]
			*pooledEvents = events
			runs := newEventRuns(s.now)
			for i, end := range ends[:n] {
				id, at := runs.next(EventResourceAdded)
				events[i] = Event{ID: id, TenantID: tenantID, Type: EventResourceAdded, CreatedAt: at,
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
				s.logEvents(ctx, events)
				release()
			}
		}
		return nil
	}
}

// resourceAddedSize is what appendResourceAdded usually needs for r (more
// only when strings need escaping).
func resourceAddedSize(r *Resource) int {
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
func appendResourceAdded(b []byte, r *Resource) []byte {
	b = append(b, `{"resource":{"id":`...)
	b = AppendJSONString(b, r.ID)
	b = append(b, `,"provider":`...)
	b = AppendJSONString(b, r.Provider)
	b = append(b, `,"account":`...)
	b = AppendJSONString(b, r.Account)
	b = append(b, `,"region":`...)
	b = AppendJSONString(b, r.Region)
	b = append(b, `,"type":`...)
	b = AppendJSONString(b, r.Type)
	b = append(b, `,"native_id":`...)
	b = AppendJSONString(b, r.NativeID)
	b = append(b, `,"name":`...)
	b = AppendJSONString(b, r.Name)
	b = append(b, `,"tags":`...)
	b = appendTagsJSON(b, r.Tags)
	return append(b, "}}"...)
}

// jsonPlain marks the bytes AppendJSONString copies as they are: ASCII but
// control characters, the quote, the backslash and the HTML characters.
var jsonPlain = func() (t [256]bool) {
	for c := range utf8.RuneSelf {
		t[c] = c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// AppendJSONString appends s quoted as encoding/json quotes strings: HTML
// characters and U+2028/U+2029 escaped, invalid UTF-8 replaced by U+FFFD.
// The engine's hand-written JSON (event data, a rule's evidence) uses it.
func AppendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if jsonPlain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
