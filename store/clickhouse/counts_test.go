package clickhouse_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// fieldOf is the value of a group-by field of a finding.
func fieldOf(f engine.Finding, g engine.GroupBy) string {
	switch g {
	case engine.GroupBySeverity:
		return string(f.Severity)
	case engine.GroupByDimension:
		return string(f.Dimension)
	case engine.GroupByStatus:
		return string(f.Status)
	case engine.GroupByResourceType:
		return f.ResourceType
	case engine.GroupByAccount:
		return f.Account
	case engine.GroupByRegion:
		return f.Region
	case engine.GroupByRule:
		return f.RuleID
	case engine.GroupByAge: // the store measures to now when not told
		name, age := "", time.Since(f.FirstSeenAt)
		for _, b := range engine.AgeBuckets {
			if age >= b.Min {
				name = b.Name
			}
		}
		return name
	}
	panic("unknown group by " + g)
}

// wantCounts counts in Go what CountFindings should return.
func wantCounts(fs []engine.Finding, flt engine.FindingFilter, groupBy []engine.GroupBy) []engine.FindingCount {
	counts := map[string]*engine.FindingCount{}
	var order []string
	for _, f := range fs {
		if !matches(f, flt) {
			continue
		}
		key := map[engine.GroupBy]string{}
		var parts []string
		for _, g := range groupBy {
			key[g] = fieldOf(f, g)
			parts = append(parts, key[g])
		}
		k := strings.Join(parts, "\x00")
		if counts[k] == nil {
			counts[k] = &engine.FindingCount{Key: key}
			order = append(order, k)
		}
		counts[k].Count++
	}
	out := []engine.FindingCount{}
	for _, k := range order {
		out = append(out, *counts[k])
	}
	if len(groupBy) == 0 && len(out) == 0 {
		out = append(out, engine.FindingCount{Key: map[engine.GroupBy]string{}})
	}
	slices.SortFunc(out, func(a, b engine.FindingCount) int {
		for _, g := range groupBy {
			if g == engine.GroupBySeverity {
				if c := cmp.Compare(engine.Severity(b.Key[g]).Rank(), engine.Severity(a.Key[g]).Rank()); c != 0 {
					return c
				}
			} else if g == engine.GroupByAge {
				if c := cmp.Compare(engine.AgeBucketRank(a.Key[g]), engine.AgeBucketRank(b.Key[g])); c != 0 {
					return c
				}
			} else if c := strings.Compare(a.Key[g], b.Key[g]); c != 0 {
				return c
			}
		}
		return 0
	})
	return out
}

// subsets yields every subset of the group-by fields, in GroupBys order,
// and each also reversed.
func subsets() iter.Seq[[]engine.GroupBy] {
	return func(yield func([]engine.GroupBy) bool) {
		for mask := range 1 << len(engine.GroupBys) {
			var gs []engine.GroupBy
			for i, g := range engine.GroupBys {
				if mask&(1<<i) != 0 {
					gs = append(gs, g)
				}
			}
			if !yield(gs) {
				return
			}
			if len(gs) > 1 {
				r := slices.Clone(gs)
				slices.Reverse(r)
				if !yield(r) {
					return
				}
			}
		}
	}
}

func TestCountFindingsEveryGrouping(t *testing.T) {
	s := chtest.New(t)
	aud := engine.NewID(engine.PrefixAudit, testNow)
	a := mustWriteSnapshot(t, s, "ten_a", aud, 3000)
	mustWriteSnapshot(t, s, "ten_b", aud, 500)
	filters := []engine.FindingFilter{
		{},
		{Account: "acct-4"},
		{Region: "region-2", Status: engine.StatusOpen},
		{ResourceType: "aws_s3_bucket", Severity: engine.SeverityHigh},
		{ResourceID: a.findings[42].ResourceID}, // counted from the rows
		{ResourceID: a.findings[42].ResourceID, Dimension: a.findings[42].Dimension},
		{Account: "acct-404"},
	}
	for _, f := range filters {
		for gs := range subsets() {
			// Every grouping without a filter; with one, those of up to two
			// fields and all seven (the SQL does not depend on the rest).
			if (f != engine.FindingFilter{}) && len(gs) > 2 && len(gs) < len(engine.GroupBys) {
				continue
			}
			t.Run(fmt.Sprintf("%+v/%v", f, gs), func(t *testing.T) {
				want := wantCounts(a.findings, f, gs)
				f.AuditID = aud
				got, err := s.CountFindings(context.Background(), engine.FindingCountQuery{TenantID: "ten_a", Filter: f, GroupBy: gs})
				if err != nil {
					t.Fatal(err)
				}
				if diff := gocmp.Diff(want, got); diff != "" {
					t.Errorf("counts (-want +got):\n%s", diff)
				}
			})
		}
	}
}

func TestCountFindingsBadInput(t *testing.T) {
	s := chtest.New(t)
	aud := engine.NewID(engine.PrefixAudit, testNow)
	tests := []struct {
		name string
		q    engine.FindingCountQuery
		code string
	}{
		{"unknown group", engine.FindingCountQuery{TenantID: "t", Filter: engine.FindingFilter{AuditID: aud}, GroupBy: []engine.GroupBy{"color"}}, engine.CodeValidationFailed},
		{"repeated group", engine.FindingCountQuery{TenantID: "t", Filter: engine.FindingFilter{AuditID: aud}, GroupBy: []engine.GroupBy{"region", "region"}}, engine.CodeValidationFailed},
		{"bad severity", engine.FindingCountQuery{TenantID: "t", Filter: engine.FindingFilter{AuditID: aud, Severity: "bad"}}, engine.CodeInvalidSeverityFilter},
		{"no audit", engine.FindingCountQuery{TenantID: "t"}, engine.CodeValidationFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.CountFindings(context.Background(), tt.q)
			if got := engine.ErrorCode(err); got != tt.code {
				t.Errorf("code = %q (%v), want %q", got, err, tt.code)
			}
		})
	}
}

func TestWriteSnapshotRejectsAndCleansUp(t *testing.T) {
	badSeverity := func(i int) engine.Finding {
		f := genFinding("ten_a", i, testNow)
		f.Severity = "urgent"
		return f
	}
	badEvidence := func(i int) engine.Finding {
		f := genFinding("ten_a", i, testNow)
		f.Evidence = []byte("{not json")
		return f
	}
	badTime := func(i int) engine.Finding {
		f := genFinding("ten_a", i, testNow)
		f.FirstSeenAt = f.FirstSeenAt.AddDate(-100, 0, 0)
		return f
	}
	boom := errors.New("inventory went away")
	tests := []struct {
		name    string
		badAt   int
		bad     func(int) engine.Finding
		iterErr error
		code    string
	}{
		{"invalid severity first", 0, badSeverity, nil, engine.CodeValidationFailed},
		{"invalid severity after a batch", 2500, badSeverity, nil, engine.CodeValidationFailed},
		{"evidence not JSON", 10, badEvidence, nil, engine.CodeValidationFailed},
		{"time before 1970", 10, badTime, nil, engine.CodeValidationFailed},
		{"iterator error", 2500, nil, boom, engine.CodeInternal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := chtest.NewWithConfig(t, clickhouse.Config{BatchSize: 1000})
			aud := engine.NewID(engine.PrefixAudit, testNow)
			seq := func(yield func(engine.Finding, error) bool) {
				for i := range 3000 {
					switch {
					case i == tt.badAt && tt.iterErr != nil:
						yield(engine.Finding{}, tt.iterErr)
						return
					case i == tt.badAt:
						if !yield(tt.bad(i), nil) {
							return
						}
					default:
						if !yield(genFinding("ten_a", i, testNow), nil) {
							return
						}
					}
				}
			}
			_, err := s.WriteSnapshot(context.Background(), "ten_a", aud, seq)
			if got := engine.ErrorCode(err); got != tt.code {
				t.Fatalf("code = %q (%v), want %q", got, err, tt.code)
			}
			if tt.iterErr != nil && !errors.Is(err, tt.iterErr) {
				t.Errorf("err = %v, want the iterator's error", err)
			}
			// A retry writes the whole snapshot, with no trace of the failed one.
			a := mustWriteSnapshot(t, s, "ten_a", aud, 3000)
			got := pageAll(t, s, "ten_a", engine.FindingFilter{AuditID: aud}, 200)
			if diff := gocmp.Diff(a.findings, got); diff != "" {
				t.Errorf("after retry (-want +got):\n%s", diff)
			}
			// Written once, a snapshot is immutable.
			_, err = s.WriteSnapshot(context.Background(), "ten_a", aud, genFindings("ten_a", 3, testNow))
			if code := engine.ErrorCode(err); code != engine.CodeConflict {
				t.Errorf("rewrite: code = %q (%v), want conflict", code, err)
			}
		})
	}
}

func TestWriteSnapshotBadIDs(t *testing.T) {
	s := chtest.New(t)
	aud := engine.NewID(engine.PrefixAudit, testNow)
	f := genFinding("ten_a", 1, testNow)
	f.ID = "fnd_1"
	tests := []struct {
		name, tenant, audit string
		fs                  []engine.Finding
	}{
		{"no tenant", "", aud, nil},
		{"bad audit id", "ten_a", "aud_1", nil},
		{"bad finding id", "ten_a", aud, []engine.Finding{f}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.WriteSnapshot(context.Background(), tt.tenant, tt.audit, sliceSeq(tt.fs))
			if code := engine.ErrorCode(err); code != engine.CodeValidationFailed {
				t.Errorf("code = %q (%v), want validation_failed", code, err)
			}
		})
	}
}

func TestEmptySnapshot(t *testing.T) {
	s := chtest.New(t)
	aud := engine.NewID(engine.PrefixAudit, testNow)
	n, err := s.WriteSnapshot(context.Background(), "ten_a", aud, sliceSeq[engine.Finding](nil))
	if err != nil || n != 0 {
		t.Fatalf("WriteSnapshot = %d, %v", n, err)
	}
	got := pageAll(t, s, "ten_a", engine.FindingFilter{AuditID: aud}, 10)
	if len(got) != 0 {
		t.Errorf("listed %d findings of an empty snapshot", len(got))
	}
	counts, err := s.CountFindings(context.Background(), engine.FindingCountQuery{TenantID: "ten_a", Filter: engine.FindingFilter{AuditID: aud}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff([]engine.FindingCount{{Key: map[engine.GroupBy]string{}}}, counts); diff != "" {
		t.Errorf("total (-want +got):\n%s", diff)
	}
	_, err = s.WriteSnapshot(context.Background(), "ten_a", aud, sliceSeq[engine.Finding](nil))
	if code := engine.ErrorCode(err); code != engine.CodeConflict {
		t.Errorf("rewrite: code = %q, want conflict", code)
	}
}
