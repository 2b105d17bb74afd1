// Package exports streams a tenant's findings (CSV, NDJSON, OCSF 1.3.0)
// and inventory (CSV, NDJSON) as files (GET /v1/findings/export,
// /v1/resources/export). A prepared Export has passed authorization and
// validation; its rows are read when it is written, a store page at a
// time. The findings come through the read path (Reads, given by
// engine/findings), so that an export shows what the list shows: the
// decisions people made applied and muted findings marked.
package exports
