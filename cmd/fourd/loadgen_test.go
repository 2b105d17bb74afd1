package main

import (
	"testing"
	"time"
)

// TestLoadgenOwners: --owners gives resource i the tag owner=owner-<i mod
// owners>, in key order between env and team, so each owner tags
// resources/owners resources; without it a resource keeps env and team only.
func TestLoadgenOwners(t *testing.T) {
	g := &synth{tenant: "t", resources: 1000, accounts: 3, owners: 100, seed: 1, now: time.Unix(0, 0).UTC()}
	per := map[string]int{}
	for i := range g.resources {
		r := g.resource(i)
		if !r.Tags.InOrder() {
			t.Fatalf("resource %d: tags %v not in key order", i, r.Tags)
		}
		v, ok := r.Tags.Get("owner")
		if !ok {
			t.Fatalf("resource %d: no owner tag: %v", i, r.Tags)
		}
		per[v]++
	}
	if len(per) != 100 || per["owner-0"] != 10 || per["owner-99"] != 10 {
		t.Fatalf("owners: %d values, owner-0 on %d, owner-99 on %d; want 100 values on 10 each", len(per), per["owner-0"], per["owner-99"])
	}
	g.owners = 0
	if r := g.resource(7); len(r.Tags) != 2 {
		t.Fatalf("without owners: tags %v, want env and team", r.Tags)
	}
}
