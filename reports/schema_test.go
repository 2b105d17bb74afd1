package reports

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
)

// schemaOf returns the OpenAPI 3.1 schema of t, adding the schemas of named
// struct types to components and referring to them.
func schemaOf(t reflect.Type, components map[string]any) map[string]any {
	switch {
	case t == reflect.TypeOf(json.RawMessage{}):
		return map[string]any{"type": "object"}
	case t == reflect.TypeOf(time.Time{}):
		return map[string]any{"type": "string", "format": "date-time"}
	case t.Kind() == reflect.Pointer:
		s := schemaOf(t.Elem(), components)
		return map[string]any{"oneOf": []any{s, map[string]any{"type": "null"}}}
	case t.Kind() == reflect.Slice:
		return map[string]any{"type": "array", "items": schemaOf(t.Elem(), components)}
	case t.Kind() == reflect.String:
		s := map[string]any{"type": "string"}
		switch t {
		case reflect.TypeOf(engine.Severity("")):
			s["enum"] = engine.Severities
		case reflect.TypeOf(engine.Dimension("")):
			s["enum"] = engine.Dimensions
		case reflect.TypeOf(engine.ReportKind("")):
			s["enum"] = engine.ReportKinds
		case reflect.TypeOf(engine.ControlStatus("")):
			s["enum"] = engine.ControlStatuses
		}
		return s
	case t.Kind() == reflect.Bool:
		return map[string]any{"type": "boolean"}
	case t.Kind() == reflect.Int || t.Kind() == reflect.Int64:
		return map[string]any{"type": "integer"}
	case t.Kind() == reflect.Float64:
		return map[string]any{"type": "number"}
	case t.Kind() == reflect.Struct:
		name := "Report" + strings.TrimPrefix(t.Name(), "Report")
		if _, ok := components[name]; !ok {
			components[name] = nil // breaks cycles
			props, req := map[string]any{}, []string{}
			for i := range t.NumField() {
				f := t.Field(i)
				tag := f.Tag.Get("json")
				key, opts, _ := strings.Cut(tag, ",")
				if key == "-" || !f.IsExported() {
					continue
				}
				props[key] = schemaOf(f.Type, components)
				if !strings.Contains(opts, "omitempty") {
					req = append(req, key)
				}
			}
			components[name] = map[string]any{"type": "object", "properties": props, "required": req}
		}
		return map[string]any{"$ref": "#/components/schemas/" + name}
	}
	panic("schemaOf: unsupported type " + t.String())
}

// TestSchemaJSON keeps reports/schema.json, the OpenAPI component schemas
// of the report document, in step with the Go types (-update rewrites it).
func TestSchemaJSON(t *testing.T) {
	components := map[string]any{}
	schemaOf(reflect.TypeOf(engine.ReportDocument{}), components)
	doc := map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{"title": "fourd report document", "version": engine.ReportSchemaVersion,
			"description": "Component schemas of the JSON report document (GET /v1/reports/{id}/download?format=json); " +
				"header.kind says which one of executive_summary, remediation_plan and compliance_evidence is present."},
		"components": map[string]any{"schemas": components},
	}
	got, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if *update {
		if err := os.WriteFile("schema.json", got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("schema.json is stale; run go test ./reports -run TestSchemaJSON -update (-want +got):\n%s", diff)
	}
}
