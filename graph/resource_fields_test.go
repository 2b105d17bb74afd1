package graph_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
)

// TestResourceFieldsFollowSelection asserts that a finding's resource is
// read without its tags and attributes unless the selection shows them
// (on a page, through fragments and aliases, or on a single finding), in
// one store read, and that a selection showing them gets them.
func TestResourceFieldsFollowSelection(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 40})
	seeded := map[string]engine.Resource{}
	for _, r := range e.a.Resources {
		seeded[r.ID] = r
	}
	type resourceJSON struct {
		ID, Name, Type string
		Tags           []struct{ Key, Value string }
		Attributes     json.RawMessage
		LastSeenAt     *time.Time
	}
	type nodeJSON struct {
		ResourceID string
		Resource   *resourceJSON
		Other      *resourceJSON
	}
	type answer struct {
		Findings struct {
			Edges []struct{ Node nodeJSON }
			Nodes []nodeJSON
		}
		Finding *nodeJSON
	}
	name := func(t *testing.T, got *resourceJSON, want engine.Resource) {
		if got.ID != want.ID || got.Name != want.Name || got.Type != want.Type {
			t.Errorf("resource %+v, want id %s name %q type %q", got, want.ID, want.Name, want.Type)
		}
	}
	attributes := func(t *testing.T, got *resourceJSON, want engine.Resource) {
		var a, b bytes.Buffer
		if err := json.Compact(&a, got.Attributes); err != nil {
			t.Fatalf("resource %s: attributes %s: %v", want.ID, got.Attributes, err)
		}
		_ = json.Compact(&b, want.Attributes)
		if a.String() != b.String() {
			t.Errorf("resource %s: attributes %s, want %s", want.ID, a.String(), b.String())
		}
	}
	tags := func(t *testing.T, got *resourceJSON, want engine.Resource) {
		var wantTags []string
		for _, tg := range want.Tags {
			wantTags = append(wantTags, tg.Key+"="+tg.Value)
		}
		var gotTags []string
		for _, tg := range got.Tags {
			gotTags = append(gotTags, tg.Key+"="+tg.Value)
		}
		if diff := cmp.Diff(wantTags, gotTags); diff != "" {
			t.Errorf("resource %s: tags (-want +got):\n%s", want.ID, diff)
		}
	}
	page := func(node string) string {
		return `{ findings(first: 20) { edges { node { ` + node + ` } } } }`
	}
	one := `{ finding(id: "` + e.a.Findings[0].ID + `") { resourceId resource { id name type } other: resource { id attributes } } }`
	for _, tc := range []struct {
		name, query string
		wantRead    string // the one resource read's fields
		check       func(t *testing.T, n nodeJSON, want engine.Resource)
	}{
		{"narrow fields only", page(`resourceId resource { id name type }`), "{Tags:false Attributes:false LastSeen:false CapturedAt:false}",
			func(t *testing.T, n nodeJSON, r engine.Resource) { name(t, n.Resource, r) }},
		{"attributes", page(`resourceId resource { id name type attributes }`), "{Tags:false Attributes:true LastSeen:false CapturedAt:false}",
			func(t *testing.T, n nodeJSON, r engine.Resource) {
				name(t, n.Resource, r)
				attributes(t, n.Resource, r)
			}},
		{"tags", page(`resourceId resource { id tags { key value } }`), "{Tags:true Attributes:false LastSeen:false CapturedAt:false}",
			func(t *testing.T, n nodeJSON, r engine.Resource) { tags(t, n.Resource, r) }},
		{"fragment spread", page(`resourceId resource { id ...R }`) + ` fragment R on Resource { name type attributes tags { key value } }`,
			"{Tags:true Attributes:true LastSeen:false CapturedAt:false}",
			func(t *testing.T, n nodeJSON, r engine.Resource) {
				name(t, n.Resource, r)
				attributes(t, n.Resource, r)
				tags(t, n.Resource, r)
			}},
		{"inline fragments", page(`resourceId resource { ... on Node { id } ... on Resource { name type attributes } }`),
			"{Tags:false Attributes:true LastSeen:false CapturedAt:false}",
			func(t *testing.T, n nodeJSON, r engine.Resource) {
				name(t, n.Resource, r)
				attributes(t, n.Resource, r)
			}},
		{"aliases with different selections read once", page(`resourceId resource { id name type } other: resource { id tags { key value } }`),
			"{Tags:true Attributes:false LastSeen:false CapturedAt:false}",
			func(t *testing.T, n nodeJSON, r engine.Resource) { name(t, n.Resource, r); tags(t, n.Other, r) }},
		{"skipped attributes", `query($a: Boolean!) { findings(first: 20) { nodes { resourceId resource { id name type attributes @include(if: $a) } } } }`,
			"{Tags:false Attributes:false LastSeen:false CapturedAt:false}",
			func(t *testing.T, n nodeJSON, r engine.Resource) {
				name(t, n.Resource, r)
				if n.Resource.Attributes != nil {
					t.Errorf("attributes %s were not asked for", n.Resource.Attributes)
				}
			}},
		// The last sighting is read only for a selection that shows it.
		{"last seen", page(`resourceId resource { id name type lastSeenAt }`), "{Tags:false Attributes:false LastSeen:true CapturedAt:false}",
			func(t *testing.T, n nodeJSON, r engine.Resource) {
				name(t, n.Resource, r)
				if n.Resource.LastSeenAt == nil || !n.Resource.LastSeenAt.Equal(r.LastSeenAt) {
					t.Errorf("resource %s: lastSeenAt %v, want %v", r.ID, n.Resource.LastSeenAt, r.LastSeenAt)
				}
			}},
		// A single finding goes through the dataloader, one batch per set of
		// fields: here two.
		{"single finding", one, "{Tags:false Attributes:false LastSeen:false CapturedAt:false}|{Tags:false Attributes:true LastSeen:false CapturedAt:false}",
			func(t *testing.T, n nodeJSON, r engine.Resource) { name(t, n.Resource, r); attributes(t, n.Other, r) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.calls.reset()
			got := data[answer](t, e.gql(t, e.tokA, tc.query, map[string]any{"a": false}))
			reads := map[string]int{}
			for k, n := range e.calls.reset() {
				if strings.HasPrefix(k, "GetResource") {
					reads[k] = n
				}
			}
			want := map[string]int{}
			for _, f := range strings.Split(tc.wantRead, "|") {
				want["GetResourcesPartial"+f] = 1
			}
			if diff := cmp.Diff(want, reads); diff != "" {
				t.Errorf("resource reads (-want +got):\n%s", diff)
			}
			nodes := got.Findings.Nodes
			for _, ed := range got.Findings.Edges {
				nodes = append(nodes, ed.Node)
			}
			if got.Finding != nil {
				nodes = append(nodes, *got.Finding)
			}
			if len(nodes) == 0 {
				t.Fatal("no findings in the answer")
			}
			for _, n := range nodes {
				r, ok := seeded[n.ResourceID]
				if !ok || n.Resource == nil {
					t.Fatalf("finding on %s: resource %+v (seeded: %v)", n.ResourceID, n.Resource, ok)
				}
				tc.check(t, n, r)
			}
		})
	}
}
