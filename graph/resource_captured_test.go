package graph_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/testserver"
)

// TestResourceCapturedAt: Resource.capturedAt is when the source captured
// the configuration, as REST's captured_at, null when it did not say; on
// one resource, on the resources connection, and on a finding's resource,
// whose read then asks the store for it (and only then).
func TestResourceCapturedAt(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 8, findingsB: 4})
	captured := time.Date(2026, 11, 20, 9, 14, 5, 0, time.UTC)
	config, terraform := e.a.Resources[0], e.a.Resources[1]
	config.CapturedAt, config.LastSeenAt = &captured, config.LastSeenAt.Add(time.Minute)
	if _, err := e.ch.WriteResources(context.Background(), e.a.ID, testserver.SeqOf([]engine.Resource{config})); err != nil {
		t.Fatal(err)
	}
	type res struct {
		ID         string
		CapturedAt *string
	}
	want := func(where string, r *res) {
		t.Helper()
		switch {
		case r == nil:
			t.Errorf("%s: no resource", where)
		case r.ID == config.ID && (r.CapturedAt == nil || *r.CapturedAt != "2026-11-20T09:14:05Z"):
			t.Errorf("%s: the AWS Config resource's capturedAt is %v", where, r.CapturedAt)
		case r.ID != config.ID && r.CapturedAt != nil:
			t.Errorf("%s: %s has capturedAt %s; its source said nothing", where, r.ID, *r.CapturedAt)
		}
	}
	for _, r := range []engine.Resource{config, terraform} {
		got := data[struct{ Resource *res }](t, e.gql(t, e.tokA, `query($id: ID!) { resource(id: $id) { id capturedAt } }`, map[string]any{"id": r.ID}))
		want("resource "+r.Name, got.Resource)
		// The field is nullable: the raw answer says null, not "0001-01-01".
		raw := e.gql(t, e.tokA, `query($id: ID!) { resource(id: $id) { capturedAt } }`, map[string]any{"id": r.ID})
		if b, _ := json.Marshal(raw); r.ID == terraform.ID && !strings.Contains(string(b), `null`) {
			t.Errorf("resource %s: %s", r.Name, b)
		}
		if got := e.gql(t, e.tokB, `query($id: ID!) { resource(id: $id) { id capturedAt } }`, map[string]any{"id": r.ID}); got.code() != engine.CodeNotFound {
			t.Errorf("tenant B reads tenant A's %s: %+v", r.Name, got)
		}
	}
	page := data[struct {
		Resources struct{ Nodes []res }
	}](t, e.gql(t, e.tokA, `{ resources(first: 100) { nodes { id capturedAt } } }`, nil))
	found := 0
	for _, n := range page.Resources.Nodes {
		if n.ID == config.ID || n.ID == terraform.ID {
			found++
			want("resources", &n)
		}
	}
	if found != 2 {
		t.Errorf("the connection lists %d of the 2 resources", found)
	}

	e.calls.reset()
	findings := data[struct {
		Findings struct {
			Nodes []struct {
				ResourceID string
				Resource   *res
			}
		}
	}](t, e.gql(t, e.tokA, `{ findings(first: 50) { nodes { resourceId resource { id capturedAt } } } }`, nil))
	shown := 0
	for _, n := range findings.Findings.Nodes {
		if n.ResourceID == config.ID || n.ResourceID == terraform.ID {
			shown++
			want("finding's resource", n.Resource)
		}
	}
	if shown == 0 {
		t.Error("no finding on the two resources")
	}
	if reads := e.calls.reset(); reads["GetResourcesPartial{Tags:false Attributes:false LastSeen:false CapturedAt:true}"] != 1 {
		t.Errorf("store reads for the findings' resources: %v", reads)
	}
}
