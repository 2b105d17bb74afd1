package inventory

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/fourd-dev/fourd/engine/rules/iampolicy"
)

// refStringList and refPolicyDocument are StringList's and
// PolicyDocument's decoders as they were before plainStrings and the
// single pass over a document: the references the fuzz tests hold the
// faster ones to.
type refStringList []string

func (l *refStringList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*l = refStringList{s}
		return nil
	}
	var ss []string
	if err := json.Unmarshal(b, &ss); err != nil {
		return err
	}
	*l = ss
	return nil
}

type refPolicyDocument PolicyDocument

func (d *refPolicyDocument) UnmarshalJSON(b []byte) error {
	b, err := iampolicy.Unwrap(b)
	if err != nil {
		return err
	}
	if b == nil {
		*d = refPolicyDocument{}
		return nil
	}
	type plain PolicyDocument
	var p plain
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
		*d = refPolicyDocument{Version: one.Version, ID: one.ID, Statement: []PolicyStatement{one.Statement}}
		return nil
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*d = refPolicyDocument(p)
	return nil
}

var stringListSeeds = []string{`"s3:GetObject"`, ` "a" `, `["a","b"]`, `[ "a" , "b" ]`, `[]`, ` [ ] `, `null`, `""`, `[""]`,
	`"\u0041"`, `["a\"b"]`, `["caf\u00e9","x"]`, `"é"`, "\"\xff\"", "[\"\xc3\"]", `[1]`, `["a",]`, `["a" "b"]`, `[null]`,
	`"a"x`, `["a"]]`, `[`, `"`, ``, `{}`, "\"a\tb\"", "\u00a0\"a\"", `["*"]`, `"arn:aws:s3:::b/*"`}

// FuzzStringListMatchesEncodingJSON: StringList decodes every input as
// the encoding/json decoder before it did — the same list (nil or not) or
// an error for the same inputs.
func FuzzStringListMatchesEncodingJSON(f *testing.F) {
	for _, s := range stringListSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var got StringList
		var want refStringList
		gotErr, wantErr := got.UnmarshalJSON(b), want.UnmarshalJSON(b)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%q: error %v, before %v", b, gotErr, wantErr)
		}
		if (got == nil) != (want == nil) || !reflect.DeepEqual([]string(got), []string(want)) && len(got)+len(want) > 0 {
			t.Fatalf("%q: %#v, before %#v", b, got, want)
		}
	})
}

var policySeeds = []string{
	`{"Version":"2012-10-17","Statement":[{"Sid":"DenyInsecureTransport","Effect":"Deny","Principal":"*","Action":["s3:*"],"Resource":["arn:aws:s3:::b","arn:aws:s3:::b/*"],"Condition":{"Bool":{"aws:SecureTransport":"false"}}}]}`,
	`{"Version":"2012-10-17","Statement":{"Effect":"Allow","Principal":{"AWS":["arn:aws:iam::1:root"]},"Action":"s3:GetObject","Resource":"*"}}`,
	`{"Statement":null}`, `{}`, `null`, `"{\"Statement\":[]}"`, `{"statement":[{"effect":"Allow"}]}`, `{"Statement":"x"}`,
	`{"Version":1,"Statement":[]}`, `{"Statement":[{"Action":1}]}`, `{"Statement":[],"Statement":{"Effect":"Deny"}}`,
	`%7B%22Statement%22%3A%5B%5D%7D`, `{"Id":"x","NotStatement":[]}`, `{"Statement":[{"NotAction":["a"],"NotResource":"b","NotPrincipal":"*"}]}`,
	`{"Statement": [ ] }`, `[]`, `{"Statement":[{}]`, `{"Statement":{"Condition":null}}`,
}

// FuzzPolicyDocumentMatchesEncodingJSON: PolicyDocument decodes every
// input as it did with a probe pass before the document's: the same
// document, or an error for the same inputs.
func FuzzPolicyDocumentMatchesEncodingJSON(f *testing.F) {
	for _, s := range policySeeds {
		f.Add([]byte(s))
	}
	for _, s := range stringListSeeds {
		f.Add([]byte(`{"Statement":[{"Action":` + s + `}]}`))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var got PolicyDocument
		var want refPolicyDocument
		gotErr, wantErr := got.UnmarshalJSON(b), want.UnmarshalJSON(b)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%q: error %v, before %v", b, gotErr, wantErr)
		}
		if gotErr == nil && !reflect.DeepEqual(got, PolicyDocument(want)) {
			t.Fatalf("%q: %#v, before %#v", b, got, want)
		}
	})
}
