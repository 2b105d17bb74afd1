package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/postgres"
	"github.com/fourd-dev/fourd/webhook"
)

// run returns n events of a tenant and type made as a run (consecutive
// ids, one creation time), as the engine makes a large append's events.
// Their data is canonical jsonb text, so that it reads back byte for byte.
func run(tenantID, typ string, ms, n int) []engine.Event {
	at := t0.Add(time.Duration(ms) * time.Millisecond)
	ids := engine.NewIDRun(engine.PrefixEvent, at)
	out := make([]engine.Event, n)
	for i := range out {
		out[i] = engine.Event{ID: ids.Next(), TenantID: tenantID, Type: typ, CreatedAt: at,
			Data: json.RawMessage(fmt.Sprintf(`{"n": %d, "type": %q}`, ms+i, typ))}
	}
	return out
}

// interleave merges the event lists one by one, as the audit's
// finding.created and policy.violated arrive.
func interleave(lists ...[]engine.Event) []engine.Event {
	var out []engine.Event
	for i := 0; ; i++ {
		more := false
		for _, l := range lists {
			if i < len(l) {
				out = append(out, l[i])
				more = true
			}
		}
		if !more {
			return out
		}
	}
}

func byIDDesc(evs []engine.Event) []engine.Event {
	out := slices.Clone(evs)
	slices.SortFunc(out, func(a, b engine.Event) int { return strings.Compare(b.ID, a.ID) })
	return out
}

func mustBatches(t *testing.T, s *postgres.Store, tenantID string) ([]int, int) {
	t.Helper()
	b, n, err := postgres.EventBatchesForTest(context.Background(), s, tenantID)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(b)
	return b, n
}

// listAll pages through ListEvents.
func listAll(t *testing.T, s *postgres.Store, tenantID, typ string, limit int) []engine.Event {
	t.Helper()
	var out []engine.Event
	for before := ""; ; {
		page, err := s.ListEvents(context.Background(), engine.EventQuery{TenantID: tenantID, Type: typ, BeforeID: before, Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, page...)
		if len(page) < limit {
			return out
		}
		before = page[len(page)-1].ID
	}
}

func eventKeys(evs []engine.Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.ID + " " + e.TenantID + " " + e.Type + " " + e.CreatedAt.Format(time.RFC3339Nano) + " " + string(e.Data)
	}
	return out
}

// A large append stores its runs as batches of up to 1,000 events and the
// events that follow no other as rows; a small one stores rows. Listing
// merges both in id order, with paging and the type filter; each batched
// event is found by its id; another tenant's events never show.
func TestEventBatchesListAndGet(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	acme := mustTenant(t, s, "acme")
	other := mustTenant(t, s, "other")

	small := fresh(acme.ID, 10, 3) // rows
	if err := s.AppendEvents(ctx, small); err != nil {
		t.Fatal(err)
	}
	added := run(acme.ID, engine.EventResourceAdded, 100, 2500)
	created := run(acme.ID, engine.EventFindingCreated, 100, 1100)
	loose := fresh(acme.ID, 50, 4) // random ids inside a large append: rows
	large := append(interleave(added, created), loose...)
	if err := s.AppendEvents(ctx, large); err != nil {
		t.Fatal(err)
	}
	later := fresh(acme.ID, 20000, 2) // rows newer than every batch
	if err := s.AppendEvents(ctx, later); err != nil {
		t.Fatal(err)
	}
	theirs := run(other.ID, engine.EventResourceAdded, 100, 2200)
	if err := s.AppendEvents(ctx, theirs); err != nil {
		t.Fatal(err)
	}

	batches, rows := mustBatches(t, s, acme.ID)
	diff(t, "acme's batches", []int{100, 500, 1000, 1000, 1000}, batches)
	if rows != 9 {
		t.Errorf("acme has %d event rows; want 9", rows)
	}
	all := slices.Concat(small, added, created, loose, later)
	diff(t, "the outbox (tables)", eventKeys(byIDDesc(all)), eventKeys(byIDDesc(mustEvents(t, s, acme.ID))))

	for _, limit := range []int{1, 7, 200, 1000} {
		diff(t, fmt.Sprintf("all events, pages of %d", limit), eventKeys(byIDDesc(all)), eventKeys(listAll(t, s, acme.ID, "", limit)))
	}
	for typ, want := range map[string][]engine.Event{
		engine.EventResourceAdded:  slices.Concat(added, small, loose, later),
		engine.EventFindingCreated: created,
		engine.EventAuditStarted:   nil,
	} {
		for _, limit := range []int{13, 200} {
			diff(t, typ+fmt.Sprintf(", pages of %d", limit), eventKeys(byIDDesc(want)), eventKeys(listAll(t, s, acme.ID, typ, limit)))
		}
	}
	diff(t, "other's events", eventKeys(byIDDesc(theirs)), eventKeys(listAll(t, s, other.ID, "", 200)))

	// A page that starts inside a batch.
	page, err := s.ListEvents(ctx, engine.EventQuery{TenantID: acme.ID, BeforeID: added[1500].ID, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	want := byIDDesc(all)
	i := slices.IndexFunc(want, func(e engine.Event) bool { return e.ID == added[1500].ID })
	diff(t, "a page before an event inside a batch", eventKeys(want[i+1:i+4]), eventKeys(page))

	for _, e := range []engine.Event{added[0], added[999], added[1000], added[1234], added[2499], created[0], created[1099], small[1], loose[2]} {
		got, err := s.GetEvent(ctx, acme.ID, e.ID)
		if err != nil {
			t.Fatalf("GetEvent(%s): %v", e.ID, err)
		}
		diff(t, "GetEvent "+e.ID, eventKeys([]engine.Event{e}), eventKeys([]engine.Event{got}))
		_, err = s.GetEvent(ctx, other.ID, e.ID)
		wantCode(t, "another tenant's event", err, engine.CodeNotFound)
	}
	// Ids near batches but in none, and ids that are no event ids.
	beyond := run(acme.ID, engine.EventResourceAdded, 100, 1) // a fresh run: in no batch
	for _, id := range []string{beyond[0].ID, nextID(t, created[1099].ID), nextID(t, added[2499].ID), "evt_x", "",
		"evt_" + strings.Repeat("z", 26), "evt_" + strings.Repeat("0", 26), "evt_" + strings.Repeat("7", 26),
		strings.Replace(added[5].ID, "evt_", "res_", 1), strings.ToUpper(added[5].ID), added[5].ID + "0",
		strings.Repeat("a", 600), "evt_\x00"} {
		_, err := s.GetEvent(ctx, acme.ID, id)
		wantCode(t, fmt.Sprintf("GetEvent(%q)", id), err, engine.CodeNotFound)
		_, err = s.RedeliverEvent(ctx, acme.ID, id, "", t0)
		wantCode(t, fmt.Sprintf("RedeliverEvent(%q)", id), err, engine.CodeNotFound)
	}
}

// nextID is the id after id (one past it in its run).
func nextID(t *testing.T, id string) string {
	t.Helper()
	b, ok := engine.ParseID(engine.PrefixEvent, id)
	if !ok {
		t.Fatalf("ParseID(%s)", id)
	}
	for i := 15; i >= 0; i-- {
		b[i]++
		if b[i] != 0 {
			break
		}
	}
	return engine.FormatID(engine.PrefixEvent, b)
}

// A retried append stores nothing twice: the same large append, a larger
// one that overlaps it, a small one of some of its events, and an audit's
// events around them.
func TestEventBatchesRetriedAppends(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	acme := mustTenant(t, s, "acme")
	evs := run(acme.ID, engine.EventResourceAdded, 100, 4000)
	if err := s.AppendEvents(ctx, evs[:2500]); err != nil {
		t.Fatal(err)
	}
	for i, retry := range [][]engine.Event{
		evs[:2500],                 // the same
		evs[:2500],                 // again
		evs[10:20],                 // small: rows, skipped
		evs[2499:2500],             // the last one alone
		evs[300:3300],              // overlapping, with 800 new ones, chunked differently
		append(evs[3000:], evs...), // everything, out of order
	} {
		if err := s.AppendEvents(ctx, retry); err != nil {
			t.Fatalf("retry %d: %v", i, err)
		}
	}
	diff(t, "the outbox after retries", eventKeys(byIDDesc(evs)), eventKeys(byIDDesc(mustEvents(t, s, acme.ID))))
	diff(t, "listed after retries", eventKeys(byIDDesc(evs)), eventKeys(listAll(t, s, acme.ID, "", 1000)))
	// Rows first, then a large append of them: the rows stay, once.
	rowsFirst := run(acme.ID, engine.EventFindingCreated, 500, 2100)
	if err := s.AppendEvents(ctx, rowsFirst[1000:1010]); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendEvents(ctx, rowsFirst); err != nil {
		t.Fatal(err)
	}
	all := slices.Concat(evs, rowsFirst)
	diff(t, "the outbox after rows then batches", eventKeys(byIDDesc(all)), eventKeys(byIDDesc(mustEvents(t, s, acme.ID))))
	diff(t, "listed after rows then batches", eventKeys(byIDDesc(all)), eventKeys(listAll(t, s, acme.ID, "", 999)))
	for _, e := range []engine.Event{rowsFirst[999], rowsFirst[1000], rowsFirst[1009], rowsFirst[1010]} {
		got, err := s.GetEvent(ctx, acme.ID, e.ID)
		if err != nil {
			t.Fatal(err)
		}
		diff(t, "GetEvent", eventKeys([]engine.Event{e}), eventKeys([]engine.Event{got}))
	}
}

// An audit's events (CompleteAudit) are stored as batches when many: runs
// of finding.created and policy.violated interleaved, the audit.completed
// that follows no other as a row.
func TestEventBatchesCompleteAudit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	acme := mustTenant(t, s, "acme")
	a := queued(acme.ID, 1)
	a.Status, a.StartedAt = engine.AuditRunning, at(0)
	mustCreateAudit(t, s, a)
	done := a
	done.Status, done.CompletedAt = engine.AuditCompleted, at(time.Minute)
	created := run(acme.ID, engine.EventFindingCreated, 100, 2300)
	violated := run(acme.ID, engine.EventPolicyViolated, 100, 40)
	completed := fresh(acme.ID, 9000, 1)
	evs := append(interleave(created, violated), completed...)
	if err := s.CompleteAudit(ctx, seq(evs, nil), func() engine.Audit { return done }); err != nil {
		t.Fatal(err)
	}
	batches, rows := mustBatches(t, s, acme.ID)
	diff(t, "batches", []int{40, 300, 1000, 1000}, batches)
	if rows != 1 {
		t.Errorf("%d rows; want 1", rows)
	}
	diff(t, "listed", eventKeys(byIDDesc(evs)), eventKeys(listAll(t, s, acme.ID, "", 200)))
	// An error from the stream stores nothing.
	b := queued(acme.ID, 2)
	b.Status, b.StartedAt = engine.AuditRunning, at(0)
	if err := s.CompleteAudit(ctx, seq(run(acme.ID, engine.EventFindingCreated, 200, 3000), fmt.Errorf("boom")), func() engine.Audit { return done }); err == nil {
		t.Fatal("CompleteAudit with a failing stream: no error")
	}
	if got := len(mustEvents(t, s, acme.ID)); got != len(evs) {
		t.Errorf("%d events after a failed CompleteAudit; want %d", got, len(evs))
	}
}

// The dispatcher fans a batch out to the endpoints subscribed to its type,
// one delivery per event and endpoint, whose claimed event (and so its
// body) is what the same event stored as a row gives; batches nobody wants
// at commit are stored fanned out. Deliveries list with their event's
// type, redelivery and recovery create deliveries of batched events, and
// every path keeps to its tenant.
func TestEventBatchesFanOutAndDeliveries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	acme := mustTenant(t, s, "acme")
	quiet := mustTenant(t, s, "quiet") // no endpoints
	rowsT := mustTenant(t, s, "rows")  // the same events as rows
	added := mustEndpoint(t, s, acme.ID, 1, engine.EventResourceAdded)
	every := mustEndpoint(t, s, acme.ID, 2, "*")
	mustEndpoint(t, s, acme.ID, 3, engine.EventAuditCompleted) // wants none of them
	mustEndpoint(t, s, rowsT.ID, 4, "*")

	// Data that jsonb rewrites (key order, spaces, escapes).
	odd := func(evs []engine.Event) []engine.Event {
		for i := range evs {
			evs[i].Data = json.RawMessage(fmt.Sprintf(`{"z":%d,"a":[1,2,{"é":"\u00e9\n"}],  "m":null}`, i))
		}
		return evs
	}
	resources := odd(run(acme.ID, engine.EventResourceAdded, 100, 1500))
	findings := odd(run(acme.ID, engine.EventFindingCreated, 100, 700))
	if err := s.AppendEvents(ctx, interleave(resources, findings)); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendEvents(ctx, run(quiet.ID, engine.EventResourceAdded, 100, 2500)); err != nil {
		t.Fatal(err)
	}
	var asRows []engine.Event
	for _, e := range resources[:5] {
		e.TenantID = rowsT.ID
		asRows = append(asRows, e)
	}
	if err := s.AppendEvents(ctx, asRows); err != nil {
		t.Fatal(err)
	}

	fanned := 0
	for {
		n, err := s.FanOutEvents(ctx, 500, t0)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if n > 500+1000 {
			t.Errorf("one fan-out took %d events", n)
		}
		fanned += n
	}
	if want := 1500 + 700 + 5; fanned != want { // quiet's batches were stored fanned out
		t.Errorf("fanned out %d events; want %d", fanned, want)
	}
	countDeliveries := func(tenantID, endpointID string) int {
		n := 0
		for before := ""; ; {
			ds, err := s.ListDeliveries(ctx, engine.DeliveryQuery{TenantID: tenantID, EndpointID: endpointID, BeforeID: before, Limit: 1000})
			if err != nil {
				t.Fatal(err)
			}
			n += len(ds)
			if len(ds) < 1000 {
				return n
			}
			before = ds[len(ds)-1].ID
		}
	}
	if got := countDeliveries(acme.ID, added.ID); got != 1500 {
		t.Errorf("%d deliveries to the resource.added endpoint; want 1500", got)
	}
	if got := countDeliveries(acme.ID, every.ID); got != 2200 {
		t.Errorf("%d deliveries to the * endpoint; want 2200", got)
	}
	if got := countDeliveries(quiet.ID, every.ID); got != 0 {
		t.Errorf("another tenant lists %d deliveries of acme's endpoint", got)
	}

	// Deliveries of one batched event.
	ev := resources[1234]
	ds, err := s.ListDeliveries(ctx, engine.DeliveryQuery{TenantID: acme.ID, EventID: ev.ID, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 || ds[0].EventType != engine.EventResourceAdded || ds[0].EventID != ev.ID {
		t.Errorf("deliveries of %s: %+v; want 2 of resource.added", ev.ID, ds)
	}
	if ds, err := s.ListDeliveries(ctx, engine.DeliveryQuery{TenantID: quiet.ID, EventID: ev.ID, Limit: 10}); err != nil || len(ds) != 0 {
		t.Errorf("another tenant's deliveries of %s: %v, %v", ev.ID, ds, err)
	}

	// Claimed deliveries carry the event as stored: the same as a row's.
	wantBody := map[string][]byte{}
	for _, e := range asRows {
		got, err := s.GetEvent(ctx, rowsT.ID, e.ID)
		if err != nil {
			t.Fatal(err)
		}
		got.TenantID = acme.ID
		if wantBody[e.ID], err = webhook.EventBody(got); err != nil {
			t.Fatal(err)
		}
	}
	byID := map[string]engine.Event{}
	for _, e := range slices.Concat(resources, findings) {
		byID[e.ID] = e
	}
	claimedN, checked := 0, 0
	for {
		cs, err := s.ClaimDeliveries(ctx, "w1", t0.Add(time.Second), 1000, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) == 0 {
			break
		}
		for _, c := range cs {
			if c.Event.TenantID == rowsT.ID {
				continue
			}
			claimedN++
			e, ok := byID[c.Event.ID]
			if !ok || c.Event.Type != e.Type || !c.Event.CreatedAt.Equal(e.CreatedAt) || c.Event.TenantID != acme.ID {
				t.Fatalf("claimed event %+v; want %+v", c.Event, e)
			}
			var got, want any
			if json.Unmarshal(c.Event.Data, &got) != nil || json.Unmarshal(e.Data, &want) != nil {
				t.Fatalf("claimed data %s", c.Event.Data)
			}
			diff(t, "claimed data", want, got)
			if body, ok := wantBody[c.Event.ID]; ok {
				checked++
				got, err := webhook.EventBody(c.Event)
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != string(body) {
					t.Errorf("body of batched %s:\n%s\nas a row:\n%s", c.Event.ID, got, body)
				}
			}
		}
	}
	if claimedN != 1500+2200 || checked != 10 {
		t.Errorf("claimed %d deliveries of acme (%d bodies compared); want %d (10)", claimedN, checked, 3700)
	}

	// Redelivery of a batched event: to its subscribers, to one endpoint.
	rd, err := s.RedeliverEvent(ctx, acme.ID, findings[699].ID, "", t0.Add(time.Minute))
	if err != nil || len(rd) != 1 || rd[0].EndpointID != every.ID || rd[0].EventType != engine.EventFindingCreated {
		t.Fatalf("RedeliverEvent: %+v, %v; want one delivery to the * endpoint", rd, err)
	}
	rd, err = s.RedeliverEvent(ctx, acme.ID, resources[0].ID, added.ID, t0.Add(time.Minute))
	if err != nil || len(rd) != 1 || rd[0].EventID != resources[0].ID {
		t.Fatalf("RedeliverEvent to an endpoint: %+v, %v", rd, err)
	}
	cs, err := s.ClaimDeliveries(ctx, "w1", t0.Add(2*time.Minute), 10, time.Minute)
	if err != nil || len(cs) != 2 {
		t.Fatalf("claiming the redeliveries: %d, %v", len(cs), err)
	}
	for _, c := range cs {
		e := byID[c.Event.ID]
		var got, want any
		_ = json.Unmarshal(c.Event.Data, &got)
		_ = json.Unmarshal(e.Data, &want)
		diff(t, "redelivered data", want, got)
	}
	// Another tenant's batched event cannot be redelivered.
	_, err = s.RedeliverEvent(ctx, quiet.ID, resources[0].ID, "", t0)
	wantCode(t, "redelivering another tenant's event", err, engine.CodeNotFound)

	// Recovery of failed deliveries of batched events.
	for _, c := range cs {
		if err := s.RecordDeliveryAttempt(ctx, engine.DeliveryAttemptRecord{DeliveryID: c.ID, Attempt: c.Attempt,
			StartedAt: t0.Add(2 * time.Minute), Outcome: engine.AttemptFailed, Status: engine.DeliveryFailed,
			Error: "gone", Now: t0.Add(2 * time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	n, err := s.RecoverFailedDeliveries(ctx, acme.ID, added.ID, t0, t0.Add(3*time.Minute))
	if err != nil || n != 1 {
		t.Fatalf("RecoverFailedDeliveries: %d, %v; want 1", n, err)
	}
	cs, err = s.ClaimDeliveries(ctx, "w1", t0.Add(4*time.Minute), 10, time.Minute)
	if err != nil || len(cs) != 1 || cs[0].Event.ID != resources[0].ID || len(cs[0].Event.Data) == 0 {
		t.Fatalf("claiming the recovered delivery: %+v, %v", cs, err)
	}
}

// A delivery refers to an event of its tenant that exists: the check that
// stands for the foreign key.
func TestEventBatchesDeliveryCheck(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	acme := mustTenant(t, s, "acme")
	other := mustTenant(t, s, "other")
	ep := mustEndpoint(t, s, acme.ID, 1, "*")
	evs := run(acme.ID, engine.EventResourceAdded, 100, 2000)
	theirs := run(other.ID, engine.EventResourceAdded, 100, 2000)
	for _, l := range [][]engine.Event{evs, theirs} {
		if err := s.AppendEvents(ctx, l); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ what, event, batch string }{
		{"an event past its batch", nextID(t, evs[999].ID), evs[0].ID},
		{"an event before its batch", evs[999].ID, evs[1000].ID},
		{"a batch that does not exist", evs[5].ID, evs[3].ID},
		{"another tenant's batch", theirs[5].ID, theirs[0].ID},
		{"a row that does not exist", evs[5].ID, ""},
	} {
		err := postgres.InsertDeliveryForTest(ctx, s, acme.ID, c.event, c.batch, ep.ID, t0)
		wantCode(t, c.what, err, engine.CodeValidationFailed)
	}
	if err := postgres.InsertDeliveryForTest(ctx, s, acme.ID, evs[1999].ID, evs[1000].ID, ep.ID, t0); err != nil {
		t.Errorf("a delivery of the batch's last event: %v", err)
	}
}

// Deleting a tenant deletes its batches and rows, and only its own.
func TestEventBatchesTenantDeletion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	acme := mustTenant(t, s, "acme")
	other := mustTenant(t, s, "other")
	mustEndpoint(t, s, acme.ID, 1, "*")
	mine := slices.Concat(run(acme.ID, engine.EventResourceAdded, 100, 2500), fresh(acme.ID, 5, 2))
	theirs := run(other.ID, engine.EventResourceAdded, 100, 2500)
	for _, l := range [][]engine.Event{mine, theirs, fresh(acme.ID, 9, 3)} {
		if err := s.AppendEvents(ctx, l); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.FanOutEvents(ctx, 1000, t0); err != nil {
		t.Fatal(err)
	}
	if err := postgres.DeleteTenantForTest(ctx, s, acme.ID); err != nil {
		t.Fatal(err)
	}
	if b, n := mustBatches(t, s, acme.ID); len(b) != 0 || n != 0 {
		t.Errorf("a deleted tenant keeps %d batches and %d rows", len(b), n)
	}
	diff(t, "the other tenant's events", eventKeys(byIDDesc(theirs)), eventKeys(listAll(t, s, other.ID, "", 1000)))
	if _, err := s.GetEvent(ctx, other.ID, theirs[1234].ID); err != nil {
		t.Error(err)
	}
}

// Data that jsonb refuses fails a large append as it fails a small one:
// nothing is stored.
func TestEventBatchesRefuseBadData(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	for i, bad := range []string{`{"a": 1}, {"b": 2}`, `{"a": "\u0000"}`, `{"a": "\udc00"}`, `[1e1000000]`, `nope`} {
		acme := mustTenant(t, s, fmt.Sprint("t", i))
		evs := run(acme.ID, engine.EventResourceAdded, 100, 2500)
		evs[1700].Data = json.RawMessage(bad)
		err := s.AppendEvents(ctx, evs)
		wantCode(t, "a large append with "+bad, err, engine.CodeValidationFailed)
		a := queued(acme.ID, 1)
		a.Status, a.StartedAt = engine.AuditRunning, at(0)
		mustCreateAudit(t, s, a)
		done := a
		done.Status, done.CompletedAt = engine.AuditCompleted, at(time.Minute)
		err = s.CompleteAudit(ctx, seq(evs, nil), func() engine.Audit { return done })
		wantCode(t, "an audit's events with "+bad, err, engine.CodeValidationFailed)
		if got := len(mustEvents(t, s, acme.ID)); got != 0 {
			t.Fatalf("%d events stored", got)
		}
	}
}
