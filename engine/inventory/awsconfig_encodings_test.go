package inventory

import (
	"bytes"
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// historyEncoding rewrites a configuration item from the snapshot/event
// encoding to the one get-resource-config-history, batch-get-resource-config
// and aggregators use: lower-case envelope keys (arn, accountId, version),
// configuration and every supplementary value a JSON string.
func historyEncoding(t *testing.T, item map[string]json.RawMessage) []byte {
	t.Helper()
	out := map[string]any{}
	for k, v := range item {
		switch k {
		case "ARN":
			out["arn"] = v
		case "awsAccountId":
			out["accountId"] = v
		case "configurationItemVersion":
			out["version"] = v
		case "configuration":
			out[k] = string(v)
		case "supplementaryConfiguration":
			var supp map[string]json.RawMessage
			if err := json.Unmarshal(v, &supp); err != nil {
				t.Fatal(err)
			}
			enc := map[string]string{}
			for sk, sv := range supp {
				enc[sk] = string(sv)
			}
			out[k] = enc
		default:
			out[k] = v
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAWSConfigEncodingsAgree decodes every item of the clean estate
// (testdata/estates/clean.aws-config.json: one item of each of 24 resource
// types, property names from awslabs/aws-config-resource-schema) in both
// encodings AWS Config delivers and requires the same canonical resource.
func TestAWSConfigEncodingsAgree(t *testing.T) {
	raw, err := os.ReadFile("../../testdata/estates/clean.aws-config.json")
	if err != nil {
		t.Fatal(err)
	}
	var snap struct {
		Items []map[string]json.RawMessage `json:"configurationItems"`
	}
	if err := json.Unmarshal(raw, &snap); err != nil {
		t.Fatal(err)
	}
	types := map[string]bool{}
	for i, item := range snap.Items {
		var typ string
		_ = json.Unmarshal(item["resourceType"], &typ)
		types[typ] = true
		t.Run(strconv.Itoa(i)+" "+typ, func(t *testing.T) {
			obj, _ := json.Marshal(item)
			a := decodeAll1(t, obj)
			b := decodeAll1(t, historyEncoding(t, item))
			if diff := cmp.Diff(a, b); diff != "" {
				t.Errorf("snapshot and history encodings differ (-snapshot +history)\n%s", diff)
			}
		})
	}
	if len(types) < 20 {
		t.Errorf("%d resource types: the estate should cover the decoders", len(types))
	}
}

// decodeAll1 decodes one item (VPCs and buckets come out at the end of the
// input) and returns it with its attributes re-indented for diffing.
func decodeAll1(t *testing.T, item []byte) resourceView {
	t.Helper()
	r := decodeOne(t, string(item))
	var buf bytes.Buffer
	if err := json.Indent(&buf, r.Attributes, "", " "); err != nil {
		t.Fatal(err)
	}
	r.Attributes = buf.Bytes()
	return r
}

// TestHasKey checks the scan presence relies on: a key counts at the top
// level only, whatever its value, matched ignoring case (hasKey, as
// encoding/json matches) or exactly (hasExactKey, Terraform's names), and
// not when it appears nested or inside a string.
func TestHasKey(t *testing.T) {
	for _, c := range []struct {
		json        string
		fold, exact bool
	}{
		{`{"KmsKeyId":null}`, true, false},
		{`{"kmsKeyId":"k"}`, true, true},
		{` { "a" : [1,{"kmsKeyId":true}], "kmsKeyId" : 0 } `, true, true},
		{`{"a":{"kmsKeyId":true}}`, false, false},
		{`{"a":"\"kmsKeyId\":1","b":[{"kmsKeyId":1}]}`, false, false},
		{`{"a":"x\\","kmsKeyId":0}`, true, true},
		{`{"kmsKey\u0049d":1}`, true, true},
		{`{"KMSKEYID":1}`, true, false},
		{`{"kmsKeyIdx":1}`, false, false},
		{`{}`, false, false},
		{`[{"kmsKeyId":1}]`, false, false},
		{``, false, false},
	} {
		if got := hasKey([]byte(c.json), "kmsKeyId"); got != c.fold {
			t.Errorf("hasKey(%s) = %v, want %v", c.json, got, c.fold)
		}
		if got := hasExactKey([]byte(c.json), "kmsKeyId"); got != c.exact {
			t.Errorf("hasExactKey(%s) = %v, want %v", c.json, got, c.exact)
		}
	}
}

// TestHasPath checks the nested sources of recordedOnly: each step must be
// there, through JSON-string objects and every element of an array.
func TestHasPath(t *testing.T) {
	for _, c := range []struct {
		json, path string
		want       bool
	}{
		{`{"Options":{"Enabled":false}}`, "Options.Enabled", true},
		{`{"options":"{\"enabled\":null}"}`, "Options.Enabled", true},
		{`{"Options":{"Other":1}}`, "Options.Enabled", false},
		{`{"Options":null}`, "Options.Enabled", false},
		{`{"Config":[{"Provider":1},{"Provider":{"k":2}}],"n":3}`, "Config.Provider", true},
		{`{"Config":[{"Provider":1},{"Resources":[]}]}`, "Config.Provider", false},
		{`{"Config":[],"n":3}`, "Config.Provider", true},
		{`{"a":1,"Options":{"Enabled":true}}`, "Options", true},
		{`{"a":{"Options":{"Enabled":true}}}`, "Options.Enabled", false},
		{`{"n":5,"Options":{"x":{"Enabled":1}}}`, "Options.Enabled", false},
	} {
		if got := hasPath([]byte(c.json), c.path); got != c.want {
			t.Errorf("hasPath(%s, %s) = %v, want %v", c.json, c.path, got, c.want)
		}
	}
}
