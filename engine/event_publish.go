package engine

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"
	"unicode/utf8"
)

// EventRunMax bounds the events of one run (see EventRuns): a run shares
// its creation time, which stays that of its first event.
const EventRunMax = 1000

// EventRuns gives the events of a large append ids in runs per type
// (engine.IDRun), each run sharing one creation time, so that the outbox
// can store a run as one row (store/postgres: event_batches) while every
// event keeps its own stable, time-sortable id.
type EventRuns struct {
	now  func() time.Time
	runs map[string]*eventRun
}

type eventRun struct {
	ids *IDRun
	at  time.Time
	n   int
}

// NewEventRuns returns the runs of events made by the clock now.
func NewEventRuns(now func() time.Time) *EventRuns {
	return &EventRuns{now: now, runs: map[string]*eventRun{}}
}

// Next returns the id and creation time of the next event of type typ.
func (r *EventRuns) Next(typ string) (string, time.Time) {
	run := r.runs[typ]
	if run == nil || run.n == EventRunMax {
		at := r.now().UTC()
		run = &eventRun{ids: NewIDRun(PrefixEvent, at), at: at}
		r.runs[typ] = run
	}
	run.n++
	return run.ids.Next(), run.at
}

// Event builds an event of the next id in its type's run.
func (r *EventRuns) Event(tenantID, typ string, data any) (Event, error) {
	b, err := json.Marshal(data)
	if err != nil {
		return Event{}, err
	}
	id, at := r.Next(typ)
	return Event{ID: id, TenantID: tenantID, Type: typ, CreatedAt: at, Data: b}, nil
}

// Publisher commits events to the outbox, then copies them to the event
// log. The concern packages (engine/findings, audit, ingest) publish
// through it.
type Publisher struct {
	// Events is the outbox; without it events are dropped (tests of other
	// features).
	Events EventStore
	// Log is the event log; without it nothing is copied.
	Log EventLog
	// Logger reports failed copies.
	Logger *slog.Logger
}

// Publish commits events to the outbox, then copies them to the event log.
func (p Publisher) Publish(ctx context.Context, events []Event) error {
	if len(events) == 0 || p.Events == nil {
		return nil
	}
	if err := p.Events.AppendEvents(ctx, events); err != nil {
		return err
	}
	p.LogEvents(ctx, events)
	return nil
}

// LogEvents copies committed events to the event log, if there is one.
// The copy is best effort: a failure is logged, not returned.
func (p Publisher) LogEvents(ctx context.Context, events []Event) {
	if p.Log == nil {
		return
	}
	if err := p.Log.LogEvents(ctx, events); err != nil {
		p.Logger.WarnContext(ctx, "copying events to the event log", "err", err, "events", len(events))
	}
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
