package exports

import "github.com/fourd-dev/fourd/engine"

// FindingCSVColumns are the columns of a findings CSV export, in order. The
// evidence object is left out (it is in the NDJSON export); compliance
// control ids are joined with ";"; times are RFC 3339 UTC, resolved_at empty
// while open. The workflow columns come last (so that the first nineteen
// keep their places): workflow_status, assignee (a user id, empty for
// nobody), open_age_seconds and mute_rule_id (empty unless muted).
var FindingCSVColumns = []string{"id", "audit_id", "resource_id", "rule_id", "dimension", "severity", "status",
	"resolution", "title", "description", "remediation", "compliance", "resource_type", "provider", "account",
	"region", "first_seen_at", "last_seen_at", "resolved_at", "workflow_status", "assignee", "open_age_seconds",
	"mute_rule_id"}

// parseFormat validates the format of an export among allowed.
func parseFormat(v string, allowed ...engine.ExportFormat) (engine.ExportFormat, error) {
	return engine.OneOf("format", v, allowed)
}

// ResourceCSVColumns are the columns of a resources CSV export, in order:
// tags as a JSON object; the attributes are left out (they are in the
// NDJSON export); times RFC 3339 UTC, captured_at empty when the source
// did not say.
var ResourceCSVColumns = []string{"id", "provider", "account", "region", "type", "native_id", "name", "tags",
	"first_seen_at", "last_seen_at", "captured_at"}
