package policy

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/go-cmp/cmp"
)

// inventory yields rs, then err if not nil.
func inventory(err error, rs ...engine.Resource) iter.Seq2[engine.Resource, error] {
	return func(yield func(engine.Resource, error) bool) {
		for _, r := range rs {
			if !yield(r, nil) {
				return
			}
		}
		if err != nil {
			yield(engine.Resource{}, err)
		}
	}
}

func TestDryRun(t *testing.T) {
	all := []engine.Resource{prodBucket, devBucket, encryptedBucket, untaggedBucket, openSSHGroup, closedGroup, instance}
	badJSON := resource("aws_s3_bucket", "broken", map[string]string{"env": "prod"}, `[1]`)
	m := func(r engine.Resource) DryRunMatch { return DryRunMatch{ResourceID: r.ID, Name: r.Name, Type: r.Type} }
	tests := []struct {
		name  string
		expr  string
		types []string
		rs    []engine.Resource
		limit int
		want  DryRunResult
	}{
		{
			name: "unencrypted buckets, limit 1", expr: `!resource.attributes.encryption.enabled`, types: []string{"aws_s3_bucket"},
			rs: all, limit: 1,
			want: DryRunResult{Matches: []DryRunMatch{m(prodBucket)}, Matched: 3, Scanned: 7, OutOfScope: 3, ErrorSamples: []DryRunEvalFail{}},
		},
		{
			name: "missing tag is counted as an error", expr: `resource.tags["env"] == "prod"`,
			rs: all, limit: 10,
			want: DryRunResult{
				Matches: []DryRunMatch{m(prodBucket), m(encryptedBucket), m(openSSHGroup), m(closedGroup), m(instance)},
				Matched: 5, Scanned: 7, Errors: 1,
				ErrorSamples: []DryRunEvalFail{{ResourceID: untaggedBucket.ID, Reason: ReasonRuntime, Message: "no such key: env"}},
			},
		},
		{
			name: "counts only", expr: `true`, rs: all, limit: 0,
			want: DryRunResult{Matches: []DryRunMatch{}, Matched: 7, Scanned: 7, ErrorSamples: []DryRunEvalFail{}},
		},
		{
			name: "unparseable attributes", expr: `true`, rs: []engine.Resource{badJSON, instance}, limit: 5,
			want: DryRunResult{Matches: []DryRunMatch{m(instance)}, Matched: 1, Scanned: 2, Errors: 1,
				ErrorSamples: []DryRunEvalFail{{ResourceID: badJSON.ID, Reason: ReasonRuntime, Message: "attributes must be a JSON object"}}},
		},
		{
			name: "empty inventory", expr: `true`, limit: 5,
			want: DryRunResult{Matches: []DryRunMatch{}, ErrorSamples: []DryRunEvalFail{}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := raisePolicy(tt.expr)
			p.ResourceTypes = tt.types
			got, err := DryRun(context.Background(), p, inventory(nil, tt.rs...), tt.limit)
			if err != nil {
				t.Fatalf("DryRun: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("DryRun (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDryRunErrors(t *testing.T) {
	storeErr := errors.New("clickhouse: connection reset")
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name     string
		ctx      context.Context
		policy   engine.Policy
		rs       iter.Seq2[engine.Resource, error]
		limit    int
		wantCode string
		wantErr  error
	}{
		{"invalid expression", context.Background(), raisePolicy(`resource.nope`), inventory(nil), 10, engine.CodeValidationFailed, nil},
		{"severity policy", context.Background(), severityPolicy(engine.PolicySeverityAtLeast, engine.SeverityHigh, `true`), inventory(nil), 10, engine.CodeValidationFailed, nil},
		{"negative limit", context.Background(), raisePolicy(`true`), inventory(nil), -1, engine.CodeInvalidLimit, nil},
		{"limit too high", context.Background(), raisePolicy(`true`), inventory(nil), MaxDryRunLimit + 1, engine.CodeInvalidLimit, nil},
		{"iterator error", context.Background(), raisePolicy(`true`), inventory(storeErr, instance), 10, engine.CodeInternal, storeErr},
		{"canceled", canceled, raisePolicy(`true`), inventory(nil, instance), 10, engine.CodeInternal, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DryRun(tt.ctx, tt.policy, tt.rs, tt.limit)
			if got := engine.ErrorCode(err); got != tt.wantCode {
				t.Errorf("code = %q (%v), want %q", got, err, tt.wantCode)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("error = %v, want %v", err, tt.wantErr)
			}
		})
	}
}

func TestDryRunStopsReadingOnError(t *testing.T) {
	read := 0
	rs := func(yield func(engine.Resource, error) bool) {
		for {
			read++
			if read == 3 {
				if !yield(engine.Resource{}, errors.New("boom")) {
					return
				}
				continue
			}
			if !yield(instance, nil) {
				return
			}
		}
	}
	res, err := DryRun(context.Background(), raisePolicy(`true`), rs, 10)
	if err == nil || read != 3 || res.Scanned != 2 {
		t.Errorf("DryRun = %+v, %v after %d reads; want an error after 3 reads and 2 scanned", res, err, read)
	}
	if _, err := json.Marshal(res); err != nil {
		t.Errorf("result does not marshal: %v", err)
	}
}
