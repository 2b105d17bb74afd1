// Package triage is what people do with findings (PATCH
// /v1/findings/{id}, POST /v1/findings/bulk_update, GET
// /v1/findings/{id}/activity; GraphQL updateFinding, reopenFinding,
// bulkUpdateFindings, Finding.activity): status changes (in progress,
// accepted risk, false positive, reopened), assignment and notes, on one
// finding or up to MaxBulkFindings, each written with its activity entry;
// and a finding's activity, people's changes merged with what audits saw.
// It reads findings through the read path (Reads, given by
// engine/findings), so that a decision applies to a finding as the API
// shows it, and tells the read path's caches of each decision.
package triage
