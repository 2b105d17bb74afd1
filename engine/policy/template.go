package policy

import (
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// A template is a policy's title or remediation: text with placeholders such
// as {{resource.name}} or {{ resource.tags.owner }}. The syntax is kept this
// small on purpose: it cannot loop, call functions or fail when rendered,
// and an unknown placeholder is a validation error when the policy is
// written, not a surprise in a finding.
type template struct {
	parts []part
}

// part is literal text or one placeholder.
type part struct {
	text string
	// get renders a placeholder; nil for literal text.
	get func(r *engine.Resource) string
}

// tagPrefix introduces a tag placeholder: {{resource.tags.<key>}}.
const tagPrefix = "resource.tags."

// placeholders maps the fixed placeholders to their values.
var placeholders = map[string]func(r *engine.Resource) string{
	"resource.id":        func(r *engine.Resource) string { return r.ID },
	"resource.name":      func(r *engine.Resource) string { return r.Name },
	"resource.type":      func(r *engine.Resource) string { return r.Type },
	"resource.provider":  func(r *engine.Resource) string { return r.Provider },
	"resource.account":   func(r *engine.Resource) string { return r.Account },
	"resource.region":    func(r *engine.Resource) string { return r.Region },
	"resource.native_id": func(r *engine.Resource) string { return r.NativeID },
}

const knownPlaceholders = "resource.id, resource.name, resource.type, resource.provider, resource.account, resource.region, resource.native_id, resource.tags.<key>"

// parseTemplate parses s; field names the policy field for errors, which
// are validation_failed.
func parseTemplate(field, s string) (template, error) {
	var t template
	rest := s
	for {
		i := strings.Index(rest, "{{")
		if i < 0 {
			if rest != "" {
				t.parts = append(t.parts, part{text: rest})
			}
			return t, nil
		}
		if i > 0 {
			t.parts = append(t.parts, part{text: rest[:i]})
		}
		offset := len(s) - len(rest) + i
		j := strings.Index(rest[i+2:], "}}")
		if j < 0 {
			return template{}, engine.FieldErrorf(field, "%s: unclosed {{ at offset %d", field, offset)
		}
		name := strings.TrimSpace(rest[i+2 : i+2+j])
		get, ok := placeholderFunc(name)
		if !ok {
			return template{}, engine.FieldErrorf(field, "%s: unknown placeholder {{%s}} at offset %d; known: %s", field, name, offset, knownPlaceholders)
		}
		t.parts = append(t.parts, part{get: get})
		rest = rest[i+2+j+2:]
	}
}

func placeholderFunc(name string) (func(r *engine.Resource) string, bool) {
	if get, ok := placeholders[name]; ok {
		return get, true
	}
	key, ok := strings.CutPrefix(name, tagPrefix)
	if !ok || key == "" || strings.ContainsAny(key, " \t\r\n{}") {
		return nil, false
	}
	return func(r *engine.Resource) string { return r.Tags.Value(key) }, true
}

// render fills the template for r; a missing tag renders as "".
func (t template) render(r *engine.Resource) string {
	if len(t.parts) == 1 && t.parts[0].get == nil {
		return t.parts[0].text
	}
	var b strings.Builder
	for _, p := range t.parts {
		if p.get != nil {
			b.WriteString(p.get(r))
		} else {
			b.WriteString(p.text)
		}
	}
	return b.String()
}
