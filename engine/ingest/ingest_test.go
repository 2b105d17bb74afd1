package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"

	"github.com/google/go-cmp/cmp"
)

func items(rs ...engine.IngestItem) func(func(engine.IngestItem) bool) {
	return func(yield func(engine.IngestItem) bool) {
		for i, it := range rs {
			it.Index = i
			if !yield(it) {
				return
			}
		}
	}
}

func TestIngestResources(t *testing.T) {
	env := newTestEnv(t)
	ctx := context.Background()
	writer := engine.Principal{TenantID: "ten_a", Scopes: []engine.Scope{engine.ScopeResourcesWrite}}
	bucket := engine.Resource{Provider: "aws", Type: "aws_s3_bucket", NativeID: "arn:aws:s3:::données", Account: "123456789012",
		Region: "eu-west-1", Name: "données", Attributes: json.RawMessage(`{"acl":"private"}`)}
	bad := []engine.IngestItem{
		{Resource: engine.Resource{Provider: "AWS", Type: "aws_s3_bucket", NativeID: "x"}},
		{Resource: engine.Resource{Provider: "aws", Type: "S3 Bucket", NativeID: "x"}},
		{Resource: engine.Resource{Provider: "aws", Type: "aws_s3_bucket"}},
		{Resource: engine.Resource{Provider: "aws", Type: "aws_s3_bucket", NativeID: "x", Attributes: json.RawMessage(`[1]`)}},
		{Resource: engine.Resource{Provider: "aws", Type: "aws_s3_bucket", NativeID: "x", Tags: engine.Tags{{Key: "", Value: "v"}}}},
		{Err: engine.FieldErrorf("line", "line 7: invalid JSON")},
	}
	res, err := env.svc.IngestResources(ctx, writer, items(append([]engine.IngestItem{{Resource: bucket}}, bad...)...))
	if err != nil {
		t.Fatal(err)
	}
	if res.Accepted != 1 || res.New != 1 || res.Rejected != int64(len(bad)) || len(res.Errors) != len(bad) {
		t.Fatalf("result = %+v", res)
	}
	wantFields := []string{"provider", "type", "native_id", "attributes", "tags", "line"}
	for i, e := range res.Errors {
		if e.Index != i+1 || e.Code != engine.CodeValidationFailed || e.Field != wantFields[i] {
			t.Errorf("error %d = %+v, want index %d field %s", i, e, i+1, wantFields[i])
		}
	}
	if len(env.events.Events) != 1 || env.events.Events[0].Type != engine.EventResourceAdded ||
		!strings.Contains(string(env.events.Events[0].Data), engine.ResourceID("ten_a", "aws", bucket.NativeID)) {
		t.Fatalf("events = %+v", env.events.Events)
	}
	// Idempotent on the native id: the same resource again is not new.
	res, err = env.svc.IngestResources(ctx, writer, items(engine.IngestItem{Resource: bucket}))
	if err != nil || res.New != 0 || res.Accepted != 1 || len(env.events.Events) != 1 {
		t.Fatalf("second ingest: %+v, %v, %d events", res, err, len(env.events.Events))
	}
	got, err := env.resources.GetResource(ctx, "ten_a", engine.ResourceID("ten_a", "aws", bucket.NativeID))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(engine.Tags{}, got.Tags); diff != "" {
		t.Errorf("tags (-want +got):\n%s", diff)
	}
	if _, err := env.resources.GetResource(ctx, "ten_b", got.ID); !engine.IsNotFound(err) {
		t.Errorf("another tenant read the resource: %v", err)
	}
	if _, err := env.svc.IngestResources(ctx, engine.Principal{TenantID: "ten_a", Scopes: []engine.Scope{engine.ScopeResourcesRead}}, items()); engine.ErrorCode(err) != engine.CodeInsufficientScope {
		t.Errorf("read-only token ingested: %v", err)
	}
	broken := errors.New("connection reset")
	if _, err := env.svc.IngestResources(ctx, writer, items(engine.IngestItem{Err: broken})); !errors.Is(err, broken) {
		t.Errorf("a broken stream was not reported: %v", err)
	}
	// A stream that ends early with a client error (a body cut off or over
	// its limit) is that error, never a success, and it accounts for the
	// items before it; those accepted are stored (issue 28).
	second := bucket
	second.NativeID = "arn:aws:s3:::second"
	for _, end := range []*engine.Error{engine.Errorf(engine.CodeInvalidRequest, "the request body could not be read to its end"),
		engine.Errorf(engine.CodePayloadTooLarge, "the request body exceeds 100 bytes")} {
		_, err := env.svc.IngestResources(ctx, writer, items(engine.IngestItem{Resource: second}, bad[0], engine.IngestItem{Err: end, Ends: true},
			engine.IngestItem{Resource: bucket}))
		if engine.ErrorCode(err) != end.Code || !strings.Contains(engine.ErrorMessage(err), end.Message+"; the 2 items before it were processed (1 accepted and stored, 1 rejected) and nothing after it was read") {
			t.Errorf("stream ended by %v: %v", end, err)
		}
	}
	if _, err := env.resources.GetResource(ctx, "ten_a", engine.ResourceID("ten_a", "aws", second.NativeID)); err != nil {
		t.Errorf("the accepted item before the end was not stored: %v", err)
	}
}

// TestNormalizeResourcePrechecked checks that skipping the UTF-8 and JSON
// checks changes nothing for what a prechecked item may hold: the same
// resource or the same error as NormalizeResource, rule by rule.
func TestNormalizeResourcePrechecked(t *testing.T) {
	env := newTestEnv(t)
	ok := engine.Resource{Provider: "aws", Type: "aws_s3_bucket", NativeID: "arn:aws:s3:::données", Account: "123456789012",
		Region: "eu-west-1", Name: "données ☃", Tags: engine.Tags{{Key: "Owner", Value: "été"}}, Attributes: json.RawMessage(`{"acl":"private","n":[1,2.5e3,null]}`)}
	with := func(f func(*engine.Resource)) engine.Resource {
		r := ok
		r.Tags = engine.Tags{{Key: "Owner", Value: "été"}}
		f(&r)
		return r
	}
	tests := []struct {
		name string
		r    engine.Resource
	}{
		{"valid", ok},
		{"no tags, no attributes", with(func(r *engine.Resource) { r.Tags, r.Attributes = nil, nil })},
		{"null attributes", with(func(r *engine.Resource) { r.Attributes = json.RawMessage(`null`) })},
		{"empty object", with(func(r *engine.Resource) { r.Attributes = json.RawMessage(`{}`) })},
		{"attributes an array", with(func(r *engine.Resource) { r.Attributes = json.RawMessage(`[1]`) })},
		{"attributes a string", with(func(r *engine.Resource) { r.Attributes = json.RawMessage(`"{"`) })},
		{"attributes too large", with(func(r *engine.Resource) {
			r.Attributes = json.RawMessage(`{"a":"` + strings.Repeat("x", engine.MaxAttributesBytes) + `"}`)
		})},
		{"bad provider", with(func(r *engine.Resource) { r.Provider = "AWS" })},
		{"bad type", with(func(r *engine.Resource) { r.Type = "S3" })},
		{"no native id", with(func(r *engine.Resource) { r.NativeID = "" })},
		{"long name", with(func(r *engine.Resource) { r.Name = strings.Repeat("é", 600) })},
		{"empty tag key", with(func(r *engine.Resource) { r.Tags = append(r.Tags, engine.Tag{Key: "", Value: "v"}) })},
		{"long tag value", with(func(r *engine.Resource) {
			r.Tags = append(r.Tags, engine.Tag{Key: "k", Value: strings.Repeat("v", 257)})
		})},
		{"too many tags", with(func(r *engine.Resource) {
			for i := range engine.MaxTags + 1 {
				r.Tags = append(r.Tags, engine.Tag{Key: strings.Repeat("k", i+1), Value: "v"})
			}
		})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, wantErr := env.svc.NormalizeResource("ten_a", tt.r)
			got, gotErr := env.svc.normalizeResource("ten_a", tt.r, true)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("resource (-NormalizeResource +prechecked):\n%s", diff)
			}
			if diff := cmp.Diff(fmt.Sprint(wantErr), fmt.Sprint(gotErr)); diff != "" {
				t.Errorf("error (-NormalizeResource +prechecked):\n%s", diff)
			}
		})
	}
}

func TestValidName(t *testing.T) {
	provider := regexp.MustCompile(`^[a-z][a-z0-9]{0,31}$`)
	typ := regexp.MustCompile(`^[a-z][a-z0-9_]{0,99}$`)
	cases := []string{"", "a", "aws", "gcp2", "Aws", "1aws", "_a", "a_b", "aws_s3_bucket", "a-b", "a b", "é",
		"a\x00", strings.Repeat("a", 32), strings.Repeat("a", 33), strings.Repeat("a", 100), strings.Repeat("a", 101),
		"a" + strings.Repeat("_", 99), "a" + strings.Repeat("_", 100), "z9", "a{", "a`", "a/", "a:"}
	for _, c := range cases {
		if got, want := validName(c, 32, false), provider.MatchString(c); got != want {
			t.Errorf("provider %q: validName = %v, regexp %v", c, got, want)
		}
		if got, want := validName(c, 100, true), typ.MatchString(c); got != want {
			t.Errorf("type %q: validName = %v, regexp %v", c, got, want)
		}
	}
}
