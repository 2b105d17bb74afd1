package rules

import (
	"reflect"
	"testing"

	"github.com/fourd-dev/fourd/engine/inventory"
)

// TestPolicyDocumentFast: a policy document written as a plain object is
// read by the fast decoder into what PolicyDocument.UnmarshalJSON gives;
// the other forms are refused by it and still decode, through
// UnmarshalJSON, to the same.
func TestPolicyDocumentFast(t *testing.T) {
	for _, c := range []struct {
		doc  string
		fast bool
	}{
		{`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":["arn:aws:s3:::b/*"],"Principal":"*"}]}`, true},
		{`{"Statement":{"Sid":"one","Effect":"Deny","NotAction":["iam:*","kms:*"],"NotResource":"*","Condition":{"Bool":{"aws:SecureTransport":"false"}}}}`, true},
		{`{ "Id" : "p\u00e9" , "Statement" : [ ] }`, true},
		{`{"Statement":[{}],"Version":"2012-10-17"}`, true},
		{`{"Statement":[{"Effect":"Allow","Principal":null,"NotPrincipal":{"AWS":["arn:aws:iam::1:root"]},"Action":[]}]}`, true},
		{`{"Statement":[{"Effect":"Allow","Action":["a\"b","c\\/d"]}]}`, true},
		{`{"Version":"2012-10-17"}`, true},
		{`{}`, false},
		{`{"version":"2012-10-17","Statement":[]}`, false},
		{`{"Statement":[],"Statement":[{"Effect":"Allow"}]}`, false},
		{`{"Statement":[{"Effect":"Allow","effect":"Deny"}]}`, false},
		{`{"Statement":null}`, false},
		{`{"Statement":[null]}`, false},
		{`{"Statement":[{"Action":null}]}`, false},
		{`{"Statement":[{"Action":["a",null]}]}`, false},
		{`{"Version":null,"Statement":[]}`, false},
		{`{"Statement":[],"Other":1}`, false},
		{`"{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\"}]}"`, false},
	} {
		var want inventory.PolicyDocument
		wantErr := want.UnmarshalJSON([]byte(c.doc)) != nil
		var fast inventory.PolicyDocument
		d := attrDecoder{b: []byte(c.doc)}
		gotFast := d.policyDocument(&fast) && d.i == len(d.b)
		if gotFast != c.fast {
			t.Errorf("%s: read by the fast decoder %v, want %v", c.doc, gotFast, c.fast)
		}
		if gotFast && (wantErr || !reflect.DeepEqual(fast, want)) {
			t.Errorf("%s: fast %+v, UnmarshalJSON %+v (error %v)", c.doc, fast, want, wantErr)
		}
		var got inventory.PolicyDocument
		d = attrDecoder{b: []byte(c.doc)}
		ok := unmarshal(&d, &got) && d.i == len(d.b)
		if ok == wantErr || ok && !reflect.DeepEqual(got, want) {
			t.Errorf("%s: unmarshal %v %+v, UnmarshalJSON %+v (error %v)", c.doc, ok, got, want, wantErr)
		}
	}
}
