package ingest

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"

	"github.com/fourd-dev/fourd/internal/jsonvalid"
	"github.com/google/go-cmp/cmp"
)

func TestAppendResourceAdded(t *testing.T) {
	odd := []string{"", "plain", `quote " backslash \ slash /`, "<script>&amp;</script>", "\x00\x01\x1f\x7f", "\b\f\n\r\t",
		"café ☃ 𝄞", "bad \xff utf8 \xc3", "\u2028 and \u2029", "tail \xe2\x80", "é"}
	var rs []engine.Resource
	for i, s := range odd {
		rs = append(rs, engine.Resource{ID: "res_" + s, Provider: "aws", Account: s, Region: "eu-west-1", Type: "aws_s3_bucket",
			NativeID: "arn:" + s, Name: s, Tags: engine.TagsFromMap(map[string]string{s: s, "b" + s: "x", "a": odd[(i+1)%len(odd)]})})
	}
	rs = append(rs, engine.Resource{ID: "res_1"}, engine.Resource{ID: "res_2", Tags: engine.TagsFromMap(map[string]string{})})
	many := map[string]string{}
	for i := range 40 { // more tags than the stack buffer
		many[string(rune('a'+i%26))+strings.Repeat("k", i)] = strings.Repeat("v", i)
	}
	rs = append(rs, engine.Resource{ID: "res_3", Tags: engine.TagsFromMap(many)})
	for _, r := range rs {
		want, err := json.Marshal(resourceAdded{summarize(r)})
		if err != nil {
			t.Fatal(err)
		}
		got := engine.AppendResourceAdded([]byte("prefix"), &r)
		if string(got) != "prefix"+string(want) {
			t.Errorf("engine.AppendResourceAdded(%+v)\n got %s\nwant %s", r, got[6:], want)
		}
	}
}

// A bulk import's resource.added come in runs of EventRunMax: consecutive
// ids and one creation time each, so that the outbox can store a run as
// one row.
func TestPublishAddedInRuns(t *testing.T) {
	env := newTestEnv(t)
	rs := make([]engine.Resource, 2500)
	for i := range rs {
		rs[i] = engine.Resource{ID: engine.ResourceID("ten_a", "aws", fmt.Sprint(i)), Provider: "aws", Type: "aws_s3_bucket"}
	}
	if err := env.svc.publishAdded(context.Background(), "ten_a", engine.PackAddedResources(rs), nil); err != nil {
		t.Fatal(err)
	}
	evs := env.events.Events
	if len(evs) != len(rs) {
		t.Fatalf("%d events; want %d", len(evs), len(rs))
	}
	for i, e := range evs {
		if want := engine.AppendResourceAdded(nil, &rs[i]); string(e.Data) != string(want) || e.Type != engine.EventResourceAdded {
			t.Fatalf("event %d: %s %s; want resource.added %s", i, e.Type, e.Data, want)
		}
	}
	for i := 1; i < len(evs); i++ {
		a, _ := engine.ParseID(engine.PrefixEvent, evs[i-1].ID)
		b, ok := engine.ParseID(engine.PrefixEvent, evs[i].ID)
		follows := ok && binary.BigEndian.Uint64(b[8:]) == binary.BigEndian.Uint64(a[8:])+1 && evs[i].CreatedAt.Equal(evs[i-1].CreatedAt)
		if follows != (i%engine.EventRunMax != 0) {
			t.Fatalf("event %d follows the previous: %v", i, follows)
		}
	}
}

// Published batches give their payload buffers back for later packs:
// what was published stays as published (the stores keep copies).
func TestPublishAddedReusesBuffers(t *testing.T) {
	env := newTestEnv(t)
	batch := func(from, n int) []engine.Resource {
		rs := make([]engine.Resource, n)
		for i := range rs {
			rs[i] = engine.Resource{ID: engine.ResourceID("ten_a", "aws", fmt.Sprint(from+i)), Provider: "aws", Type: "aws_s3_bucket",
				Name: strings.Repeat("n", (from+i)%7), Tags: engine.TagsFromMap(map[string]string{"k": fmt.Sprint(from + i)})}
		}
		return rs
	}
	var want []string
	var packed []engine.AddedResources
	for b := range 4 {
		rs := batch(b*300, 300)
		for i := range rs {
			want = append(want, string(engine.AppendResourceAdded(nil, &rs[i])))
		}
		packed = append(packed, engine.PackAddedResources(rs))
		if b%2 == 1 { // publish two at a time: later packs reuse their buffers
			for _, a := range packed {
				if err := env.svc.publishAdded(context.Background(), "ten_a", a, nil); err != nil {
					t.Fatal(err)
				}
			}
			packed = nil
		}
	}
	var got []string
	for _, e := range env.events.Events {
		got = append(got, string(e.Data))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("published data (-want +got):\n%s", diff)
	}
}

// A commit runs once the resources are stored: it announces them even
// when the caller's context ended meanwhile.
func TestPublishAddedCommitOutlivesCaller(t *testing.T) {
	env := newTestEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	rs := []engine.Resource{{ID: engine.ResourceID("ten_a", "aws", "1"), Provider: "aws", Type: "aws_s3_bucket"}}
	commit := func() error { return env.svc.publishAdded(ctx, "ten_a", engine.PackAddedResources(rs), nil) }
	cancel()
	if err := commit(); err != nil {
		t.Fatal(err)
	}
	if n := len(env.events.Events); n != 1 {
		t.Fatalf("%d events published; want 1", n)
	}
}

// Prepared resource.added events say their data is strict JSON
// (jsonvalid.Strict) unless a NUL byte made it hold \u0000, which the
// outbox must then check itself.
func TestPublishAddedStrict(t *testing.T) {
	for _, tc := range []struct {
		tags   map[string]string
		strict bool
	}{
		{map[string]string{"env": "prod", "note": "café \u2028 <&> \"q\" \\ \x01"}, true},
		{map[string]string{"bad": "a\x00b"}, false},
		{map[string]string{"text": `\u0000`}, false}, // the text, escaped: checked by the store, which accepts it
	} {
		env := newTestEnv(t)
		rs := []engine.Resource{{ID: "res_1", Provider: "aws", Type: "aws_s3_bucket", Tags: engine.TagsFromMap(tc.tags)}, {ID: "res_2", Provider: "aws"}}
		if err := env.svc.publishAdded(context.Background(), "ten_a", engine.PackAddedResources(rs), nil); err != nil {
			t.Fatal(err)
		}
		for _, e := range env.events.Events {
			if e.Strict != tc.strict || e.Strict && !jsonvalid.Strict(e.Data) {
				t.Errorf("tags %q: event %s strict %v (valid strict %v); want %v", tc.tags, e.Data, e.Strict, jsonvalid.Strict(e.Data), tc.strict)
			}
		}
	}
}

// BenchmarkAppendResourceAdded is the data of one resource.added, as a
// first import builds it for each new resource: four tags, from the
// resource as the NDJSON decoder gives it.
func BenchmarkAppendResourceAdded(b *testing.B) {
	var r engine.Resource
	if err := json.Unmarshal([]byte(`{"id":"res_5gej05m6rnv9dz84bccyr8m95n","provider":"aws","account":"345678901234",
		"region":"eu-west-1","type":"aws_security_group","name":"web-alb",
		"native_id":"arn:aws:ec2:eu-west-1:345678901234:security-group/sg-00b338013354bf910",
		"tags":{"Environment":"staging","Name":"web-alb","Owner":"secops","cost-center":"cc-1000"}}`), &r); err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 1024)
	b.ReportAllocs()
	for b.Loop() {
		buf = engine.AppendResourceAdded(buf[:0], &r)
	}
	b.SetBytes(int64(len(buf)))
}
