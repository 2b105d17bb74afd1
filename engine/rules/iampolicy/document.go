// Package iampolicy reads and evaluates AWS IAM policy documents: identity
// policies, trust policies and resource policies (S3, KMS, SQS, SNS,
// Lambda, ECR, Secrets Manager). It is fourd's one policy evaluator: every
// rule that reads a policy document goes through it, so Action/NotAction,
// Resource/NotResource, Principal/NotPrincipal, wildcards, conditions and
// "an explicit Deny overrides any Allow" mean the same thing everywhere.
//
// The evaluation follows AWS's documented logic for one policy
// (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html):
// a request is denied by default, allowed when a statement whose action,
// resource, principal and condition all match allows it, and denied
// whenever a matching Deny statement exists. It depends on the standard
// library only.
package iampolicy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Document is a parsed policy document.
type Document struct {
	Version    string
	ID         string
	Statements []Statement
}

// Statement is one statement. Fields AWS writes as a string or an array of
// strings are always slices here; a Not* field set means its positive twin
// is absent (AWS rejects a statement that has both).
type Statement struct {
	Sid    string
	Effect Effect
	// Action and NotAction; exactly one is set in a valid statement.
	Action, NotAction []string
	// Resource and NotResource; both are nil in trust policies and in
	// resource policies that leave the resource implicit.
	Resource, NotResource []string
	// Principal and NotPrincipal are nil in identity policies.
	Principal, NotPrincipal *Principal
	// Condition maps an operator (StringEquals, ForAnyValue:StringLike,
	// ArnLikeIfExists, …) to its keys and their values. Keys keep the
	// policy's spelling; they are compared case-insensitively.
	Condition map[string]map[string][]string
}

// Effect is Allow or Deny.
type Effect string

// The two effects.
const (
	Allow Effect = "Allow"
	Deny  Effect = "Deny"
)

// Principal is a statement's Principal or NotPrincipal. "*" alone is
// written as AWS: ["*"] with Wildcard set.
type Principal struct {
	// Wildcard is true for the bare "*" form (everyone, anonymous included).
	Wildcard      bool
	AWS           []string // account ids, account/user/role ARNs or "*"
	Service       []string // e.g. ec2.amazonaws.com
	Federated     []string
	CanonicalUser []string
}

// Parse reads a policy document in any of the encodings AWS uses: a JSON
// object, a JSON string holding the object (once or twice encoded, as AWS
// Config history items carry them), or URL-encoded JSON (AWS Config's IAM
// documents). A single statement may be an object instead of an array.
func Parse(b []byte) (*Document, error) {
	b, err := Unwrap(b)
	if err != nil {
		return nil, err
	}
	if b == nil {
		return nil, errors.New("empty policy document")
	}
	var raw struct {
		Version   string          `json:"Version"`
		ID        string          `json:"Id"`
		Statement json.RawMessage `json:"Statement"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("policy document: %w", err)
	}
	d := &Document{Version: raw.Version, ID: raw.ID}
	st := bytes.TrimSpace(raw.Statement)
	var items []json.RawMessage
	switch {
	case len(st) == 0 || bytes.Equal(st, []byte("null")):
	case st[0] == '{':
		items = []json.RawMessage{st}
	default:
		if err := json.Unmarshal(st, &items); err != nil {
			return nil, fmt.Errorf("policy document: Statement: %w", err)
		}
	}
	for i, it := range items {
		s, err := parseStatement(it)
		if err != nil {
			return nil, fmt.Errorf("policy document: statement %d: %w", i, err)
		}
		d.Statements = append(d.Statements, s)
	}
	return d, nil
}

// Unwrap returns the JSON object a policy value holds: it strips JSON
// string encoding (repeatedly) and URL encoding. Null, empty and "" give
// nil, nil.
func Unwrap(b []byte) ([]byte, error) {
	for range 4 {
		b = bytes.TrimSpace(b)
		switch {
		case len(b) == 0 || bytes.Equal(b, []byte("null")):
			return nil, nil
		case b[0] == '{':
			return b, nil
		case b[0] == '"':
			var s string
			if err := json.Unmarshal(b, &s); err != nil {
				return nil, fmt.Errorf("policy document: %w", err)
			}
			b = []byte(s)
		case b[0] == '%':
			s, err := url.QueryUnescape(string(b))
			if err != nil {
				return nil, fmt.Errorf("policy document: URL encoding: %w", err)
			}
			b = []byte(s)
		default:
			return nil, errors.New("policy document is not a JSON object")
		}
	}
	return nil, errors.New("policy document is encoded too many times")
}

func parseStatement(b json.RawMessage) (Statement, error) {
	var raw struct {
		RawStatement
		Action      stringList `json:"Action"`
		NotAction   stringList `json:"NotAction"`
		Resource    stringList `json:"Resource"`
		NotResource stringList `json:"NotResource"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return Statement{}, err
	}
	r := raw.RawStatement
	r.Action, r.NotAction, r.Resource, r.NotResource = raw.Action, raw.NotAction, raw.Resource, raw.NotResource
	return r.Statement()
}

// RawStatement is a statement whose string-or-array fields are already
// lists and whose Principal, NotPrincipal and Condition are still JSON: the
// form a caller holding a decoded document (engine/inventory's
// PolicyDocument) converts from without encoding it again.
type RawStatement struct {
	Sid                   string          `json:"Sid"`
	Effect                string          `json:"Effect"`
	Action, NotAction     []string        `json:"-"`
	Resource, NotResource []string        `json:"-"`
	Principal             json.RawMessage `json:"Principal"`
	NotPrincipal          json.RawMessage `json:"NotPrincipal"`
	Condition             json.RawMessage `json:"Condition"`
}

// Statement validates and converts the raw statement.
func (raw *RawStatement) Statement() (Statement, error) {
	s := Statement{Sid: raw.Sid, Action: raw.Action, NotAction: raw.NotAction,
		Resource: raw.Resource, NotResource: raw.NotResource}
	switch {
	case strings.EqualFold(raw.Effect, "Allow"):
		s.Effect = Allow
	case strings.EqualFold(raw.Effect, "Deny"):
		s.Effect = Deny
	default:
		return Statement{}, fmt.Errorf("Effect %q is neither Allow nor Deny", raw.Effect)
	}
	var err error
	if s.Principal, err = parsePrincipal(raw.Principal); err != nil {
		return Statement{}, fmt.Errorf("Principal: %w", err)
	}
	if s.NotPrincipal, err = parsePrincipal(raw.NotPrincipal); err != nil {
		return Statement{}, fmt.Errorf("NotPrincipal: %w", err)
	}
	if c := bytes.TrimSpace(raw.Condition); len(c) > 0 && !bytes.Equal(c, []byte("null")) {
		var cond map[string]map[string]stringList
		if err := json.Unmarshal(c, &cond); err != nil {
			return Statement{}, fmt.Errorf("Condition: %w", err)
		}
		s.Condition = make(map[string]map[string][]string, len(cond))
		for op, kv := range cond {
			m := make(map[string][]string, len(kv))
			for k, v := range kv {
				m[k] = v
			}
			s.Condition[op] = m
		}
	}
	return s, nil
}

func parsePrincipal(b json.RawMessage) (*Principal, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || bytes.Equal(b, []byte("null")) {
		return nil, nil
	}
	if b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, err
		}
		if s != "*" {
			return nil, fmt.Errorf("a principal string must be \"*\", got %q", s)
		}
		return &Principal{Wildcard: true, AWS: []string{"*"}}, nil
	}
	var m map[string]stringList
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	p := &Principal{}
	for k, v := range m {
		switch strings.ToLower(k) {
		case "aws":
			p.AWS = v
		case "service":
			p.Service = v
		case "federated":
			p.Federated = v
		case "canonicaluser":
			p.CanonicalUser = v
		default:
			return nil, fmt.Errorf("unknown principal type %q", k)
		}
	}
	return p, nil
}

// stringList is a JSON string or array of strings.
type stringList []string

func (l *stringList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*l = nil
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*l = stringList{s}
		return nil
	case len(b) > 0 && b[0] == '[':
		var raw []json.RawMessage
		if err := json.Unmarshal(b, &raw); err != nil {
			return err
		}
		out := make(stringList, 0, len(raw))
		for _, r := range raw {
			out = append(out, scalar(r))
		}
		*l = out
		return nil
	}
	// Condition values may be bare booleans or numbers.
	*l = stringList{scalar(b)}
	return nil
}

// scalar renders a JSON string, boolean or number as its text.
func scalar(b json.RawMessage) string {
	var s string
	if json.Unmarshal(b, &s) == nil {
		return s
	}
	return string(bytes.TrimSpace(b))
}
