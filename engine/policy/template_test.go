package policy

import (
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/go-cmp/cmp"
)

func TestTemplateRender(t *testing.T) {
	tests := []struct {
		name, tmpl, want string
	}{
		{"empty", "", ""},
		{"literal", "Encrypt the bucket", "Encrypt the bucket"},
		{"fields", "{{resource.name}} ({{resource.type}}) in {{resource.account}}/{{resource.region}}",
			"billing-exports (aws_s3_bucket) in 123456789012/eu-west-1"},
		{"spaces inside braces", "{{ resource.native_id }}", "arn:billing-exports"},
		{"provider and id", "{{resource.provider}}:{{resource.id}}", "aws:" + prodBucket.ID},
		{"tag", "owner: {{resource.tags.owner}}", "owner: finance"},
		{"missing tag renders empty", "team: {{resource.tags.team}}.", "team: ."},
		{"stray closing braces are text", "a }} b", "a }} b"},
		{"adjacent placeholders", "{{resource.name}}{{resource.region}}", "billing-exportseu-west-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmpl, err := parseTemplate("title", tt.tmpl)
			if err != nil {
				t.Fatalf("parseTemplate(%q): %v", tt.tmpl, err)
			}
			if diff := cmp.Diff(tt.want, tmpl.render(&prodBucket)); diff != "" {
				t.Errorf("render (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTemplateErrors(t *testing.T) {
	tests := []struct {
		name, tmpl, want string
	}{
		{"unknown field", "{{resource.arn}}", "title: unknown placeholder {{resource.arn}} at offset 0; known: " + knownPlaceholders},
		{"attributes are not placeholders", "x {{resource.attributes.size}}", "title: unknown placeholder {{resource.attributes.size}} at offset 2; known: " + knownPlaceholders},
		{"empty tag key", "{{resource.tags.}}", "title: unknown placeholder {{resource.tags.}} at offset 0; known: " + knownPlaceholders},
		{"empty placeholder", "{{}}", "title: unknown placeholder {{}} at offset 0; known: " + knownPlaceholders},
		{"template syntax is not Go's", "{{.Name}}", "title: unknown placeholder {{.Name}} at offset 0; known: " + knownPlaceholders},
		{"unclosed", "abc {{resource.name", "title: unclosed {{ at offset 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseTemplate("title", tt.tmpl)
			want := &engine.Error{Code: engine.CodeValidationFailed, Field: "title", Message: tt.want}
			if diff := cmp.Diff(want, err); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}
