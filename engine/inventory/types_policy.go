package inventory

import (
	"bytes"
	"encoding/json"

	"github.com/fourd-dev/fourd/engine/rules/iampolicy"
)

// PolicyDocument is an IAM policy document (identity, trust or resource
// policy) kept in AWS's own JSON form; engine/rules/iampolicy evaluates it.
type PolicyDocument struct {
	Version   string            `json:"Version,omitempty"`
	ID        string            `json:"Id,omitempty"`
	Statement []PolicyStatement `json:"Statement"`
}

// PolicyStatement is one statement of a policy document. Principal,
// NotPrincipal and Condition keep their raw JSON ("*" or an object such as
// {"AWS": [...]}).
type PolicyStatement struct {
	Sid          string          `json:"Sid,omitempty"`
	Effect       string          `json:"Effect"`
	Principal    json.RawMessage `json:"Principal,omitempty"`
	NotPrincipal json.RawMessage `json:"NotPrincipal,omitempty"`
	Action       StringList      `json:"Action,omitempty"`
	NotAction    StringList      `json:"NotAction,omitempty"`
	Resource     StringList      `json:"Resource,omitempty"`
	NotResource  StringList      `json:"NotResource,omitempty"`
	Condition    json.RawMessage `json:"Condition,omitempty"`
}

// NamedPolicy is an inline policy of an IAM user, group or role.
type NamedPolicy struct {
	Name     string          `json:"name"`
	Document *PolicyDocument `json:"document"`
}

// StringList is a JSON string or array of strings, as IAM policies write
// actions and resources.
type StringList []string

// UnmarshalJSON accepts a string or an array of strings.
func (l *StringList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*l = StringList{s}
		return nil
	}
	var ss []string
	if err := json.Unmarshal(b, &ss); err != nil {
		return err
	}
	*l = ss
	return nil
}

// UnmarshalJSON accepts a policy document as an object or in the
// encodings Terraform and AWS Config store it in: a JSON string holding
// the object (once or twice encoded) or URL-encoded JSON (AWS Config's IAM
// documents).
func (d *PolicyDocument) UnmarshalJSON(b []byte) error {
	b, err := iampolicy.Unwrap(b)
	if err != nil {
		return err
	}
	if b == nil {
		*d = PolicyDocument{}
		return nil
	}
	type plain PolicyDocument
	var p plain
	// A single statement may be an object instead of an array.
	var probe struct {
		Statement json.RawMessage `json:"Statement"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return err
	}
	if st := bytes.TrimSpace(probe.Statement); len(st) > 0 && st[0] == '{' {
		var one struct {
			Version   string          `json:"Version"`
			ID        string          `json:"Id"`
			Statement PolicyStatement `json:"Statement"`
		}
		if err := json.Unmarshal(b, &one); err != nil {
			return err
		}
		*d = PolicyDocument{Version: one.Version, ID: one.ID, Statement: []PolicyStatement{one.Statement}}
		return nil
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*d = PolicyDocument(p)
	return nil
}
