package clickhouse_test

import (
	"encoding/json"
	"fmt"
	"iter"
	"strconv"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// genRule is a rule of the synthetic rule pack findings are generated from.
type genRule struct {
	id, resourceType, title, description, remediation string
	dimension                                         engine.Dimension
	severity                                          engine.Severity
	compliance                                        []string
}

const (
	genRules     = 150
	genAccounts  = 20
	genRegions   = 10
	genPerResrc  = 5 // findings per resource
	genRuleStep  = 31
	genProviders = 3
)

var genRulePack = func() []genRule {
	types := []string{"aws_s3_bucket", "aws_instance", "aws_iam_role", "aws_security_group", "aws_rds_instance",
		"gcp_bucket", "gcp_instance", "azure_vm", "azure_storage_account", "aws_lambda_function"}
	// A realistic skew: few critical, many medium and low.
	sevs := []engine.Severity{"critical", "high", "high", "medium", "medium", "medium", "low", "low", "low", "info"}
	out := make([]genRule, genRules)
	for i := range out {
		out[i] = genRule{
			id:           fmt.Sprintf("rule_%03d", i),
			resourceType: types[i%len(types)],
			dimension:    engine.Dimensions[i%len(engine.Dimensions)],
			severity:     sevs[(i*7)%len(sevs)],
			title:        fmt.Sprintf("Rule %d: a configuration that should not be like this", i),
			description:  "The resource is configured in a way that exposes it to risk or cost; this text is shared by every finding of the rule and is about a hundred and fifty characters long.",
			remediation:  "Change the configuration of the resource as the documentation of the rule describes, then run the audit again.",
			compliance:   []string{fmt.Sprintf("CIS-AWS-4.0.1:%d.%d", i%5, i%9)},
		}
	}
	return out
}()

// genFinding returns the i-th finding of a synthetic snapshot of a tenant:
// resource i/genPerResrc, each with genPerResrc distinct rules.
func genFinding(tenantID string, i int, seen time.Time) engine.Finding {
	res := i / genPerResrc
	rule := genRulePack[(res*7+(i%genPerResrc)*genRuleStep)%genRules]
	resID := engine.ResourceID(tenantID, "aws", "arn:"+strconv.Itoa(res))
	f := engine.Finding{
		ID: engine.FindingID(tenantID, rule.id, resID), TenantID: tenantID,
		ResourceID: resID, RuleID: rule.id, Dimension: rule.dimension, Severity: rule.severity,
		Status: engine.StatusOpen, Title: rule.title, Description: rule.description, Remediation: rule.remediation,
		Evidence:     json.RawMessage(`{"resource":"` + resID + `","observed":` + strconv.Itoa(i%1000) + `}`),
		Compliance:   rule.compliance,
		ResourceType: rule.resourceType,
		Provider:     []string{"aws", "gcp", "azure"}[res%genProviders],
		Account:      "acct-" + strconv.Itoa(res%genAccounts),
		Region:       "region-" + strconv.Itoa((res/genAccounts)%genRegions),
		FirstSeenAt:  seen.Add(-time.Duration(i%72) * time.Hour),
		LastSeenAt:   seen,
	}
	if i%7 == 3 {
		f.Status, f.Resolution = engine.StatusResolved, engine.ResolutionFixed
		at := seen.Add(-time.Hour)
		f.ResolvedAt = &at
	}
	return f
}

// genFindings yields n synthetic findings.
func genFindings(tenantID string, n int, seen time.Time) iter.Seq2[engine.Finding, error] {
	return func(yield func(engine.Finding, error) bool) {
		for i := range n {
			if !yield(genFinding(tenantID, i, seen), nil) {
				return
			}
		}
	}
}

// sliceSeq yields the elements of a slice.
func sliceSeq[T any](xs []T) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for _, x := range xs {
			if !yield(x, nil) {
				return
			}
		}
	}
}
