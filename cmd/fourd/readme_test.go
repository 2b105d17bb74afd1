package main

import (
	"os"
	"strings"
	"testing"
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
