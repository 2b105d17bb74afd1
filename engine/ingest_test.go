package engine

import (
	"context"
	"encoding/json"
	"errors"
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
		{Resource: Resource{Provider: "aws", Type: "aws_s3_bucket", NativeID: "x", Tags: map[string]string{"": "v"}}},
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
	if diff := cmp.Diff(map[string]string{}, got.Tags); diff != "" {
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
}
