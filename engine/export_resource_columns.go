package engine

// ResourceCSVColumns are the columns of a resources CSV export, in order:
// tags as a JSON object; the attributes are left out (they are in the
// NDJSON export); times RFC 3339 UTC, captured_at empty when the source
// did not say.
var ResourceCSVColumns = []string{"id", "provider", "account", "region", "type", "native_id", "name", "tags",
	"first_seen_at", "last_seen_at", "captured_at"}
