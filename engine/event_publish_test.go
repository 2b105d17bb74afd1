package engine

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestAppendResourceAdded(t *testing.T) {
	odd := []string{"", "plain", `quote " backslash \ slash /`, "<script>&amp;</script>", "\x00\x01\x1f\x7f", "\b\f\n\r\t",
		"café ☃ 𝄞", "bad \xff utf8 \xc3", "\u2028 and \u2029", "tail \xe2\x80", "é"}
	var rs []Resource
	for i, s := range odd {
		rs = append(rs, Resource{ID: "res_" + s, Provider: "aws", Account: s, Region: "eu-west-1", Type: "aws_s3_bucket",
			NativeID: "arn:" + s, Name: s, Tags: map[string]string{s: s, "b" + s: "x", "a": odd[(i+1)%len(odd)]}})
	}
	rs = append(rs, Resource{ID: "res_1"}, Resource{ID: "res_2", Tags: map[string]string{}})
	many := map[string]string{}
	for i := range 40 { // more tags than the stack buffer
		many[string(rune('a'+i%26))+strings.Repeat("k", i)] = strings.Repeat("v", i)
	}
	rs = append(rs, Resource{ID: "res_3", Tags: many})
	for _, r := range rs {
		want, err := json.Marshal(resourceAdded{summarize(r)})
		if err != nil {
			t.Fatal(err)
		}
		got := appendResourceAdded([]byte("prefix"), &r)
		if string(got) != "prefix"+string(want) {
			t.Errorf("appendResourceAdded(%+v)\n got %s\nwant %s", r, got[6:], want)
		}
	}
}
