package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func items(rs ...IngestItem) func(func(IngestItem) bool) {
	return func(yield func(IngestItem) bool) {
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
	writer := Principal{TenantID: "ten_a", Scopes: []Scope{ScopeResourcesWrite}}
	bucket := Resource{Provider: "aws", Type: "aws_s3_bucket", NativeID: "arn:aws:s3:::données", Account: "123456789012",
		Region: "eu-west-1", Name: "données", Attributes: json.RawMessage(`{"acl":"private"}`)}
	bad := []IngestItem{
		{Resource: Resource{Provider: "AWS", Type: "aws_s3_bucket", NativeID: "x"}},
		{Resource: Resource{Provider: "aws", Type: "S3 Bucket", NativeID: "x"}},
		{Resource: Resource{Provider: "aws", Type: "aws_s3_bucket"}},
		{Resource: Resource{Provider: "aws", Type: "aws_s3_bucket", NativeID: "x", Attributes: json.RawMessage(`[1]`)}},
		{Resource: Resource{Provider: "aws", Type: "aws_s3_bucket", NativeID: "x", Tags: Tags{{Key: "", Value: "v"}}}},
		{Err: FieldErrorf("line", "line 7: invalid JSON")},
	}
	res, err := env.svc.IngestResources(ctx, writer, items(append([]IngestItem{{Resource: bucket}}, bad...)...))
	if err != nil {
		t.Fatal(err)
	}
	if res.Accepted != 1 || res.New != 1 || res.Rejected != int64(len(bad)) || len(res.Errors) != len(bad) {
		t.Fatalf("result = %+v", res)
	}
	wantFields := []string{"provider", "type", "native_id", "attributes", "tags", "line"}
	for i, e := range res.Errors {
		if e.Index != i+1 || e.Code != CodeValidationFailed || e.Field != wantFields[i] {
			t.Errorf("error %d = %+v, want index %d field %s", i, e, i+1, wantFields[i])
		}
	}
	if len(env.events.events) != 1 || env.events.events[0].Type != EventResourceAdded ||
		!strings.Contains(string(env.events.events[0].Data), ResourceID("ten_a", "aws", bucket.NativeID)) {
		t.Fatalf("events = %+v", env.events.events)
	}
	// Idempotent on the native id: the same resource again is not new.
	res, err = env.svc.IngestResources(ctx, writer, items(IngestItem{Resource: bucket}))
	if err != nil || res.New != 0 || res.Accepted != 1 || len(env.events.events) != 1 {
		t.Fatalf("second ingest: %+v, %v, %d events", res, err, len(env.events.events))
	}
	got, err := env.svc.GetResource(ctx, Principal{TenantID: "ten_a", Scopes: []Scope{ScopeResourcesRead}}, ResourceID("ten_a", "aws", bucket.NativeID))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Tags{}, got.Tags); diff != "" {
		t.Errorf("tags (-want +got):\n%s", diff)
	}
	if _, err := env.svc.GetResource(ctx, Principal{TenantID: "ten_b", Scopes: []Scope{ScopeResourcesRead}}, got.ID); !IsNotFound(err) {
		t.Errorf("another tenant read the resource: %v", err)
	}
	if _, err := env.svc.IngestResources(ctx, Principal{TenantID: "ten_a", Scopes: []Scope{ScopeResourcesRead}}, items()); ErrorCode(err) != CodeInsufficientScope {
		t.Errorf("read-only token ingested: %v", err)
	}
	broken := errors.New("connection reset")
	if _, err := env.svc.IngestResources(ctx, writer, items(IngestItem{Err: broken})); !errors.Is(err, broken) {
		t.Errorf("a broken stream was not reported: %v", err)
	}
	// A stream that ends early with a client error (a body cut off or over
	// its limit) is that error, never a success, and it accounts for the
	// items before it; those accepted are stored (issue 28).
	second := bucket
	second.NativeID = "arn:aws:s3:::second"
	for _, end := range []*Error{Errorf(CodeInvalidRequest, "the request body could not be read to its end"),
		Errorf(CodePayloadTooLarge, "the request body exceeds 100 bytes")} {
		_, err := env.svc.IngestResources(ctx, writer, items(IngestItem{Resource: second}, bad[0], IngestItem{Err: end, Ends: true},
			IngestItem{Resource: bucket}))
		if ErrorCode(err) != end.Code || !strings.Contains(ErrorMessage(err), end.Message+"; the 2 items before it were processed (1 accepted and stored, 1 rejected) and nothing after it was read") {
			t.Errorf("stream ended by %v: %v", end, err)
		}
	}
	if _, err := env.svc.GetResource(ctx, Principal{TenantID: "ten_a", Scopes: []Scope{ScopeResourcesRead}}, ResourceID("ten_a", "aws", second.NativeID)); err != nil {
		t.Errorf("the accepted item before the end was not stored: %v", err)
	}
}

// TestNormalizeResourcePrechecked checks that skipping the UTF-8 and JSON
// checks changes nothing for what a prechecked item may hold: the same
// resource or the same error as NormalizeResource, rule by rule.
func TestNormalizeResourcePrechecked(t *testing.T) {
	env := newTestEnv(t)
	ok := Resource{Provider: "aws", Type: "aws_s3_bucket", NativeID: "arn:aws:s3:::données", Account: "123456789012",
		Region: "eu-west-1", Name: "données ☃", Tags: Tags{{Key: "Owner", Value: "été"}}, Attributes: json.RawMessage(`{"acl":"private","n":[1,2.5e3,null]}`)}
	with := func(f func(*Resource)) Resource {
		r := ok
		r.Tags = Tags{{Key: "Owner", Value: "été"}}
		f(&r)
		return r
	}
	tests := []struct {
		name string
		r    Resource
	}{
		{"valid", ok},
		{"no tags, no attributes", with(func(r *Resource) { r.Tags, r.Attributes = nil, nil })},
		{"null attributes", with(func(r *Resource) { r.Attributes = json.RawMessage(`null`) })},
		{"empty object", with(func(r *Resource) { r.Attributes = json.RawMessage(`{}`) })},
		{"attributes an array", with(func(r *Resource) { r.Attributes = json.RawMessage(`[1]`) })},
		{"attributes a string", with(func(r *Resource) { r.Attributes = json.RawMessage(`"{"`) })},
		{"attributes too large", with(func(r *Resource) {
			r.Attributes = json.RawMessage(`{"a":"` + strings.Repeat("x", MaxAttributesBytes) + `"}`)
		})},
		{"bad provider", with(func(r *Resource) { r.Provider = "AWS" })},
		{"bad type", with(func(r *Resource) { r.Type = "S3" })},
		{"no native id", with(func(r *Resource) { r.NativeID = "" })},
		{"long name", with(func(r *Resource) { r.Name = strings.Repeat("é", 600) })},
		{"empty tag key", with(func(r *Resource) { r.Tags = append(r.Tags, Tag{Key: "", Value: "v"}) })},
		{"long tag value", with(func(r *Resource) { r.Tags = append(r.Tags, Tag{Key: "k", Value: strings.Repeat("v", 257)}) })},
		{"too many tags", with(func(r *Resource) {
			for i := range MaxTags + 1 {
				r.Tags = append(r.Tags, Tag{Key: strings.Repeat("k", i+1), Value: "v"})
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
