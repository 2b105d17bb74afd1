package rest

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// FindingRankings is the answer of GET /v1/findings/rankings: a
// dashboard's rankings of one snapshot, the same as GraphQL's topRules,
// topResources, topAccounts and meanTimeToResolve.
type FindingRankings struct {
	TopRules          []engine.RuleRank       `json:"top_rules"`
	TopResources      []engine.ResourceRank   `json:"top_resources"`
	TopAccounts       []engine.AccountRank    `json:"top_accounts"`
	MeanTimeToResolve []engine.ResolutionTime `json:"mean_time_to_resolve"`
}

// rankFindings serves GET /v1/findings/rankings?audit_id&dimension&limit.
func (a *api) rankFindings(w http.ResponseWriter, r *http.Request) error {
	q, err := parseQuery(r, "audit_id", "dimension", "limit")
	if err != nil {
		return err
	}
	f, err := engine.FindingFilterInput{AuditID: q["audit_id"], Dimension: q["dimension"]}.Parse()
	if err != nil {
		return err
	}
	dq := engine.DashboardQuery{AuditID: f.AuditID, Dimension: f.Dimension}
	if s, ok := q["limit"]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n > engine.MaxDashboardLimit {
			return &engine.Error{Code: engine.CodeInvalidLimit, Field: "limit",
				Message: "limit must be an integer from 1 to 100; got " + quote(s)}
		}
		dq.Limit = n
	}
	ctx, p := r.Context(), principal(r)
	var out FindingRankings
	if out.TopRules, err = a.dashboard.TopRules(ctx, p, dq); err != nil {
		return err
	}
	if out.TopResources, err = a.dashboard.TopResources(ctx, p, dq); err != nil {
		return err
	}
	if out.TopAccounts, err = a.dashboard.RankAccounts(ctx, p, dq); err != nil {
		return err
	}
	if out.MeanTimeToResolve, err = a.dashboard.MeanTimeToResolve(ctx, p, dq); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
