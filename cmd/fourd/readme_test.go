package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine/rules"
)

// TestREADMEListsEveryVariable keeps the README's configuration table true:
// every variable fourd reads is in it.
func TestREADMEListsEveryVariable(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range append(append([]envVar{}, envVars...), webhookEnvVars...) {
		if !strings.Contains(string(b), "| `"+v.Name+"` |") {
			t.Errorf("README.md's configuration table lacks %s", v.Name)
		}
	}
}

// TestREADMERulePackSize keeps README's first paragraph true: the number
// of built-in checks and of the resource types they judge.
func TestREADMERulePackSize(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`rule pack of (\d+) AWS checks over (\d+) resource types`).FindStringSubmatch(string(b))
	if m == nil {
		t.Fatal("README.md does not say how many checks the rule pack holds")
	}
	types := map[string]bool{}
	for _, r := range rules.All() {
		for _, typ := range r.ResourceTypes {
			types[typ] = true
		}
	}
	if want := fmt.Sprintf("%d %d", len(rules.All()), len(types)); m[1]+" "+m[2] != want {
		t.Errorf("README says %s checks over %s resource types; the pack has %d over %d", m[1], m[2], len(rules.All()), len(types))
	}
}
