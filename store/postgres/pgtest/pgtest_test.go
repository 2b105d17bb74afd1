package pgtest_test

import (
	"context"
	"testing"

	"github.com/fourd-dev/fourd/store/postgres/pgtest"
)

func TestNewGivesAMigratedPrivateDatabase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a, b := pgtest.New(t), pgtest.New(t)
	if _, err := a.EnsureTenant(ctx, "acme", "Acme"); err != nil {
		t.Fatalf("the schema is not there: %v", err)
	}
	if _, err := b.GetTenantBySlug(ctx, "acme"); err == nil {
		t.Fatal("two test databases share their data")
	}
}
