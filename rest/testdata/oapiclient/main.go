// Command oapiclient pages /v1/findings with a severity filter through the
// Go client oapi-codegen generates from /v1/openapi.json. The generated
// client (client.go, package main) is not committed: TestOapiCodegenClient
// generates it from the served document and builds this program with it
// through -overlay, so the document is kept generating a compiling client.
//
// It prints one JSON object: the pages read and each finding's id and
// severity.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
)

func main() {
	base := flag.String("url", "", "the API's base URL")
	token := flag.String("token", "", "a bearer token")
	severity := flag.String("severity", "critical", "the severity filter")
	limit := flag.Int("limit", 2, "the page size")
	flag.Parse()
	if err := run(*base, *token, *severity, *limit); err != nil {
		fmt.Fprintln(os.Stderr, "oapiclient:", err)
		os.Exit(1)
	}
}

// result is what the program prints.
type result struct {
	Pages    int      `json:"pages"`
	IDs      []string `json:"ids"`
	Severity []string `json:"severities"`
}

func run(base, token, severity string, limit int) error {
	auth := func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+token)
		return nil
	}
	c, err := NewClientWithResponses(base, WithRequestEditorFn(auth))
	if err != nil {
		return err
	}
	sev := SeverityFilter(severity)
	lim := Limit(limit)
	params := &ListFindingsParams{Severity: &sev, Limit: &lim}
	var out result
	for {
		res, err := c.ListFindingsWithResponse(context.Background(), params)
		if err != nil {
			return err
		}
		if res.JSON200 == nil {
			return fmt.Errorf("GET /v1/findings: %d %s", res.StatusCode(), res.Body)
		}
		out.Pages++
		for _, f := range res.JSON200.Data {
			out.IDs = append(out.IDs, f.Id)
			out.Severity = append(out.Severity, string(f.Severity))
		}
		if !res.JSON200.HasMore || res.JSON200.NextCursor == nil {
			break
		}
		cur := Cursor(*res.JSON200.NextCursor)
		params.Cursor = &cur
	}
	return json.NewEncoder(os.Stdout).Encode(out)
}
