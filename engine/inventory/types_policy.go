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
	if ss, ok := plainStrings(b); ok {
		*l = ss
		return nil
	}
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
	// One pass over the document keeps its statements raw; they are read
	// next, as an array or as a single statement written as an object.
	var doc struct {
		Version   string        `json:"Version"`
		ID        string        `json:"Id"`
		Statement rawStatements `json:"Statement"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return err
	}
	st := bytes.TrimSpace(doc.Statement.last)
	if doc.Statement.n > 1 {
		// A document naming its statements more than once is decoded as
		// it always was (the kind of the last decides, the first may
		// fail): rare, and not worth a second way.
		return d.unmarshalByKind(b, len(st) > 0 && st[0] == '{')
	}
	out := PolicyDocument{Version: doc.Version, ID: doc.ID}
	switch {
	case len(st) > 0 && st[0] == '{':
		var one PolicyStatement
		if err := json.Unmarshal(st, &one); err != nil {
			return err
		}
		out.Statement = []PolicyStatement{one}
	case len(st) > 0:
		if err := json.Unmarshal(st, &out.Statement); err != nil {
			return err
		}
	}
	*d = out
	return nil
}

// rawStatements is a document's Statement kept raw, with how many times
// the document names it.
type rawStatements struct {
	last []byte
	n    int
}

// UnmarshalJSON keeps b (encoding/json calls it once per key naming the
// statements, with a slice of the document it decodes).
func (r *rawStatements) UnmarshalJSON(b []byte) error {
	r.last, r.n = b, r.n+1
	return nil
}

// unmarshalByKind decodes the whole document b with its statements as one
// object (single) or as an array.
func (d *PolicyDocument) unmarshalByKind(b []byte, single bool) error {
	if single {
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
	type plain PolicyDocument
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*d = PolicyDocument(p)
	return nil
}
