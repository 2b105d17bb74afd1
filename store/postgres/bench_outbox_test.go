package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// BenchmarkAppendEventsLarge commits 20,000 resource.added (about 330
// bytes of data each, as an import's) per operation, as a bulk import does:
// with random ids, and as runs of consecutive ids sharing a creation time
// (what the engine makes of a large append; batches since migration 00080).
func BenchmarkAppendEventsLarge(b *testing.B) {
	for _, runs := range []bool{false, true} {
		b.Run(fmt.Sprintf("runs=%v", runs), func(b *testing.B) {
			ctx := context.Background()
			s, ten, _ := benchTenant(b)
			n := 0
			for b.Loop() {
				b.StopTimer() // the events are made outside the timing
				evs := largeAppend(ten.ID, n, runs)
				n += len(evs)
				b.StartTimer()
				if err := s.AppendEvents(ctx, evs); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/event")
		})
	}
}

func largeAppend(tenantID string, first int, runs bool) []engine.Event {
	evs := make([]engine.Event, 20_000)
	at := t0.Add(time.Duration(first) * time.Millisecond)
	id := engine.NewID(engine.PrefixEvent, at)
	for i := range evs {
		if !runs {
			id = engine.NewID(engine.PrefixEvent, at)
		} else if i%1000 == 0 && i > 0 {
			id = engine.NewID(engine.PrefixEvent, at)
		} else if i > 0 {
			id = nextEventID(id)
		}
		k := first + i
		data := fmt.Sprintf(`{"resource":{"id":%q,"provider":"aws","account":"123456789012","region":"eu-west-1",`+
			`"type":"aws_s3_bucket","native_id":"arn:aws:s3:::fourd-sample-bucket-%d#%d","name":"fourd-sample-bucket-%d",`+
			`"tags":{"cost-center":"cc-%d","env":"prod","owner":"platform-team"}}}`,
			engine.ResourceID(tenantID, "aws", fmt.Sprint(k)), k%997, k, k%997, k%31)
		evs[i] = engine.Event{ID: id, TenantID: tenantID, Type: engine.EventResourceAdded, CreatedAt: at, Data: json.RawMessage(data)}
	}
	return evs
}

// nextEventID is id plus one (in base32, carrying), without engine's id
// arithmetic so that this benchmark also runs on older trees.
func nextEventID(id string) string {
	const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"
	b := []byte(id)
	for i := len(b) - 1; i > len("evt_"); i-- {
		d := strings.IndexByte(alphabet, b[i])
		if d < 31 {
			b[i] = alphabet[d+1]
			return string(b)
		}
		b[i] = '0'
	}
	return string(b)
}
