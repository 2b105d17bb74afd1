package rest

import (
	"context"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// The policy store's write methods, timed like its reads.

func (w policyStore) CreatePolicy(ctx context.Context, p engine.Policy) (err error) {
	defer func(start time.Time) { w.m.observe("policies", "CreatePolicy", start, err) }(time.Now())
	return w.s.CreatePolicy(ctx, p)
}

func (w policyStore) UpdatePolicy(ctx context.Context, p engine.Policy) (out engine.Policy, err error) {
	defer func(start time.Time) { w.m.observe("policies", "UpdatePolicy", start, err) }(time.Now())
	return w.s.UpdatePolicy(ctx, p)
}

func (w policyStore) DeletePolicy(ctx context.Context, tenantID, id string, at time.Time) (err error) {
	defer func(start time.Time) { w.m.observe("policies", "DeletePolicy", start, err) }(time.Now())
	return w.s.DeletePolicy(ctx, tenantID, id, at)
}
