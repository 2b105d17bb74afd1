package inventory

import (
	"bytes"
	"unicode/utf8"

	"github.com/fourd-dev/fourd/engine"
)

// Limits on one resource; a record beyond them is rejected, not truncated.
const (
	MaxLineBytes       = 1 << 20 // one NDJSON line, attributes included
	MaxAttributesBytes = 512 << 10
	MaxNativeIDBytes   = 2048
	MaxNameBytes       = 1024
	MaxTags            = 128
	MaxTagKeyBytes     = 128
	MaxTagValueBytes   = 256
	maxTypeBytes       = 128
	maxProviderBytes   = 32
	maxRegionBytes     = 64
	maxAccountBytes    = 128
)

// Validate checks a resource before it enters the inventory: provider,
// account, type and native id are required; an AWS account is 12 digits;
// sizes are within the limits above; attributes, when present, are a JSON
// object. It returns a validation_failed *engine.Error naming the field.
func Validate(r *engine.Resource) error { return validate(r, false) }

// validate is Validate; textValid says the caller knows r's text fields to
// be valid UTF-8 (the NDJSON decoder checks them as it reads them), so that
// they are not checked again.
func validate(r *engine.Resource, textValid bool) error {
	switch {
	case r.Provider == "":
		return engine.FieldErrorf("provider", "provider is required")
	case !isLowerIdent(r.Provider, maxProviderBytes):
		return engine.FieldErrorf("provider", "provider must be lowercase letters and digits (at most %d); got %q", maxProviderBytes, clip(r.Provider))
	case r.Type == "":
		return engine.FieldErrorf("type", "type is required")
	case !isLowerIdent(r.Type, maxTypeBytes):
		return engine.FieldErrorf("type", "type must be lowercase letters, digits and underscores starting with a letter (at most %d); got %q", maxTypeBytes, clip(r.Type))
	case r.NativeID == "":
		return engine.FieldErrorf("native_id", "native_id is required")
	case len(r.NativeID) > MaxNativeIDBytes:
		return engine.FieldErrorf("native_id", "native_id is longer than %d bytes", MaxNativeIDBytes)
	case r.Account == "":
		return engine.FieldErrorf("account", "account is required")
	case r.Provider == ProviderAWS && !isAWSAccount(r.Account):
		return engine.FieldErrorf("account", "account must be a 12-digit AWS account id; got %q", clip(r.Account))
	case len(r.Account) > maxAccountBytes:
		return engine.FieldErrorf("account", "account is longer than %d bytes", maxAccountBytes)
	case len(r.Region) > maxRegionBytes:
		return engine.FieldErrorf("region", "region is longer than %d bytes", maxRegionBytes)
	case len(r.Name) > MaxNameBytes:
		return engine.FieldErrorf("name", "name is longer than %d bytes", MaxNameBytes)
	case len(r.Tags) > MaxTags:
		return engine.FieldErrorf("tags", "a resource has at most %d tags; got %d", MaxTags, len(r.Tags))
	case len(r.Attributes) > MaxAttributesBytes:
		return engine.FieldErrorf("attributes", "attributes are larger than %d bytes", MaxAttributesBytes)
	}
	if !textValid {
		for _, s := range [...]string{r.Provider, r.Account, r.Region, r.Type, r.NativeID, r.Name} {
			if !utf8.ValidString(s) {
				return engine.FieldErrorf("", "fields must be valid UTF-8")
			}
		}
	}
	for _, t := range r.Tags {
		k, v := t.Key, t.Value
		switch {
		case k == "":
			return engine.FieldErrorf("tags", "tag keys must not be empty")
		case len(k) > MaxTagKeyBytes:
			return engine.FieldErrorf("tags", "tag key %q is longer than %d bytes", clip(k), MaxTagKeyBytes)
		case len(v) > MaxTagValueBytes:
			return engine.FieldErrorf("tags", "the value of tag %q is longer than %d bytes", clip(k), MaxTagValueBytes)
		}
	}
	if a := bytes.TrimSpace(r.Attributes); len(a) > 0 && a[0] != '{' {
		return engine.FieldErrorf("attributes", "attributes must be a JSON object")
	}
	return nil
}

// WithID returns r with its id derived from the tenant, provider and native
// id (engine.ResourceID) and its tenant set; callers set the times.
func WithID(r engine.Resource, tenantID string) engine.Resource {
	r.TenantID = tenantID
	r.ID = engine.ResourceID(tenantID, r.Provider, r.NativeID)
	return r
}

func isLowerIdent(s string, max int) bool {
	if len(s) == 0 || len(s) > max || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

func isAWSAccount(s string) bool {
	if len(s) != 12 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// clip shortens a value quoted in an error message.
func clip(s string) string {
	if len(s) <= 64 {
		return s
	}
	cut := 64
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
