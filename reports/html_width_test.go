package reports

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/rest/cdptest"
)

// longIDs are resources as real tenants name them: ARNs of 90–130
// characters and long type names, which a table cell that never breaks an
// id widened past the window (issue 34).
var longIDs = []engine.AffectedResource{
	{ResourceID: "res_01lb", NativeID: "arn:aws:elasticloadbalancing:eu-central-1:111111111111:loadbalancer/app/internal-payments-api-production/50dc6c495c0c9188",
		Name: "internal-payments-api-production", Type: "aws_elasticloadbalancingv2_load_balancer", Account: fxAccounts[0], Region: "eu-central-1",
		Severity: engine.SeverityHigh, Prod: true, Environment: "production"},
	{ResourceID: "res_02role", NativeID: "arn:aws:iam::222222222222:role/service-role/AWSGlueServiceRole-data-platform-nightly-export-crawler",
		Name: "AWSGlueServiceRole-data-platform-nightly-export-crawler", Type: "aws_iam_role", Account: fxAccounts[1], Region: "global",
		Severity: engine.SeverityCritical, Environment: "data-platform-staging-eu"},
	{ResourceID: "res_03logs", NativeID: "arn:aws:logs:ap-northeast-1:333333333333:log-group:/aws/lambda/customer-notifications-dispatcher-production:*",
		Name: "東京-logs", Type: "aws_cloudwatch_log_group", Account: fxAccounts[2], Region: "ap-northeast-1", Severity: engine.SeverityMedium},
	{ResourceID: "res_04snap", NativeID: "arn:aws:rds:us-east-1:111111111111:cluster-snapshot:rds:analytics-warehouse-aurora-postgresql-2026-11-02-03-10",
		Type: "aws_rds_cluster_snapshot", Account: fxAccounts[0], Region: "us-east-1", Severity: engine.SeverityLow},
}

// withLongIDs puts longIDs in every resource table of the three fixtures.
func withLongIDs() []engine.ReportDocument {
	plan := fxRemediation()
	// The last group keeps its short ids: its table must still line up
	// with the others.
	for gi := range plan.RemediationPlan.Groups[:len(plan.RemediationPlan.Groups)-1] {
		g := &plan.RemediationPlan.Groups[gi]
		for i := range g.Resources {
			r := longIDs[i%len(longIDs)]
			r.FindingID = g.Resources[i].FindingID
			g.Resources[i] = r
		}
	}
	comp := fxCompliance()
	at := fxCompleted.Add(-3 * time.Hour)
	for ci := range comp.ComplianceEvidence.Checks {
		c := &comp.ComplianceEvidence.Checks[ci]
		c.FailingResources = nil
		for _, r := range longIDs {
			r.Evidence = json.RawMessage(`{"listener_protocols":["HTTP"],"ssl_policy":null,"deletion_protection":false,"access_logs_bucket":"central-access-logs-111111111111-eu-central-1"}`)
			r.CapturedAt = &at
			c.FailingResources = append(c.FailingResources, r)
		}
	}
	for fi := range comp.ComplianceEvidence.Frameworks {
		for ci := range comp.ComplianceEvidence.Frameworks[fi].Controls {
			ctl := &comp.ComplianceEvidence.Frameworks[fi].Controls[ci]
			for pi := range ctl.PassingResources {
				p := &ctl.PassingResources[pi]
				p.NativeID, p.Type, p.CapturedAt = longIDs[1].NativeID, longIDs[1].Type, &at
			}
		}
	}
	exec := fxExecutive()
	for i := range exec.ExecutiveSummary.TopResources {
		r := &exec.ExecutiveSummary.TopResources[i]
		r.Type = longIDs[i%len(longIDs)].Type
	}
	return []engine.ReportDocument{plan, comp, exec}
}

// TestRenderHTMLFitsTheWindow opens each report with long ARNs in headless
// Chromium at 1200 and 1440 px: nothing is wider than the window (the
// remediation table scrolled sideways because its ARN column never
// wrapped), and an id that wraps does so only after one of its separators
// (":" or "/"), never inside a segment.
func TestRenderHTMLFitsTheWindow(t *testing.T) {
	bin := cdptest.ChromiumOrSkip(t)
	dir := t.TempDir()
	for _, doc := range withLongIDs() {
		path := filepath.Join(dir, string(doc.Header.Kind)+".html")
		if err := os.WriteFile(path, []byte(renderHTML(t, doc)), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, width := range []int{1200, 1440} {
			t.Run(fmt.Sprintf("%s_%dpx", doc.Header.Kind, width), func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				p := cdptest.Start(t, ctx, bin, "about:blank")
				p.Call(t, ctx, "Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": false}, nil)
				p.Call(t, ctx, "Page.navigate", map[string]any{"url": "file://" + path}, nil)
				p.WaitFor(t, ctx, `document.readyState === "complete" && !!document.querySelector("main")`)
				// Everything a reader may unfold is measured unfolded.
				p.Eval(t, ctx, `document.querySelectorAll("details").forEach(function (d) { d.open = true; }); true`)
				var wide struct{ Page, Window int }
				if err := json.Unmarshal(p.Eval(t, ctx, `({Page: document.documentElement.scrollWidth, Window: document.documentElement.clientWidth})`), &wide); err != nil {
					t.Fatal(err)
				}
				if wide.Page > wide.Window {
					t.Errorf("at %d px the page is %d px wide, wider than its %d px window", width, wide.Page, wide.Window)
				}
				var tables []string
				if err := json.Unmarshal(p.Eval(t, ctx, overflowingTables), &tables); err != nil {
					t.Fatal(err)
				}
				for _, tb := range tables {
					t.Errorf("at %d px a table overflows its block: %s", width, tb)
				}
				// The remediation groups' tables line up: one column grid
				// for every group, whatever its resources' ids.
				var lefts []int
				if err := json.Unmarshal(p.Eval(t, ctx, `Array.from(document.querySelectorAll("#groups table thead th:nth-child(2)")).map(function (th) { return Math.round(th.getBoundingClientRect().left); })`), &lefts); err != nil {
					t.Fatal(err)
				}
				if len(lefts) > 1 && slices.Min(lefts) != slices.Max(lefts) {
					t.Errorf("at %d px the groups' second columns start at %v px: their tables do not line up", width, lefts)
				}
				var breaks []string
				if err := json.Unmarshal(p.Eval(t, ctx, brokenIDs), &breaks); err != nil {
					t.Fatal(err)
				}
				for _, b := range breaks {
					t.Errorf("at %d px an id wraps inside a segment: %s", width, b)
				}
			})
		}
	}
}

// overflowingTables lists the tables wider than the element holding them.
const overflowingTables = `Array.from(document.querySelectorAll("table")).filter(function (t) {
  return t.getBoundingClientRect().right > t.parentElement.getBoundingClientRect().right + 1;
}).map(function (t) { return (t.querySelector("th") || t).textContent + " … " + Math.round(t.getBoundingClientRect().width) + " px"; })`

// brokenIDs finds, in every code element of a table cell, each place its
// text continues on a new line, and lists those not right after a ":" or
// a "/" (with the line's last characters).
const brokenIDs = `(function () {
  var out = [];
  document.querySelectorAll("td code:not(.evidence)").forEach(function (el) {
    var text = el.textContent, walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT), node, prevTop = null, prev = "", seen = "";
    while ((node = walker.nextNode())) {
      for (var i = 0; i < node.data.length; i++) {
        var r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
        var rects = r.getClientRects(); if (!rects.length) continue;
        var top = Math.round(rects[0].top);
        if (prevTop !== null && top > prevTop + 2 && prev !== ":" && prev !== "/") out.push(text + " after " + JSON.stringify(seen.slice(-12)));
        prevTop = top; prev = node.data[i]; seen += node.data[i];
      }
    }
  });
  return out;
})()`
