package pgtest

import (
	"context"
	"testing"
)

// BenchmarkDatabaseLifecycle measures what each test pays: copy the
// migrated template into a new database, then drop it.
func BenchmarkDatabaseLifecycle(b *testing.B) {
	ctx := context.Background()
	server := ServerURL()
	admin := connect(b, ctx, server)
	defer admin.Close(ctx)
	if _, err := ensureTemplate(ctx, admin, server); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		name, err := create(ctx, admin, server)
		if err != nil {
			b.Fatal(err)
		}
		if err := drop(ctx, server, name); err != nil {
			b.Fatal(err)
		}
	}
}
