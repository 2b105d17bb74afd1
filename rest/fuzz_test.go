package rest

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// FuzzListQuery sends arbitrary query strings (limit, cursor, filters) to
// the list and summary endpoints: no answer may be a 5xx, every answer must
// match the OpenAPI document, and a panic would fail the suite as a 500.
//
//	go test ./rest -run '^$' -fuzz FuzzListQuery -fuzztime 60s
func FuzzListQuery(f *testing.F) {
	e := newEnv(f, envOptions{findingsA: 40, findingsB: 5})
	first := getJSON[listBody[map[string]any]](f, e, "/v1/findings?limit=3", e.tokA)
	cursor := url.QueryEscape(*first.NextCursor)
	paths := []string{"/v1/findings", "/v1/findings/summary", "/v1/resources", "/v1/audits", "/v1/policies", "/v1/reports"}
	for i, q := range []string{
		"", "limit=1", "limit=200", "limit=201", "limit=0", "limit=-5", "limit=abc", "limit=%00", "limit=1e3",
		"limit=9223372036854775808", "cursor=", "cursor=abc", "cursor=" + cursor, "cursor=" + cursor + "x",
		"cursor=" + strings.Repeat("A", 5000), "cursor=e30.AAAA", "limit=3&cursor=" + cursor, "severity=high",
		"severity=HIGH", "severity=", "severity=high&severity=low", "dimension=cost", "dimension=x", "status=resolved",
		"status=x", "resource_id=res_x", "audit_id=aud_00000000000000000000000000", "audit_id=%ff", "region=%E2%82%AC",
		"group_by=severity,dimension", "group_by=,", "group_by=severity,,", "type=a&provider=b&account=c&region=d",
		"a=1", "&&&", "=", "limit", "limit=1;cursor=2", "%zz", "severity=critical&dimension=security&status=open&limit=2",
	} {
		f.Add(uint8(i), q)
	}
	f.Fuzz(func(t *testing.T, which uint8, raw string) {
		path := paths[int(which)%len(paths)]
		u := e.url + path + "?" + raw
		if _, err := url.Parse(u); err != nil || strings.ContainsAny(raw, "#\x00\r\n ") {
			t.Skip("not a request line a client can send")
		}
		r := do(t, e.client, http.MethodGet, u, e.tokA, nil, nil)
		if r.status >= 500 {
			t.Errorf("GET %s?%s: %d %s", path, raw, r.status, r.body)
		}
	})
}
