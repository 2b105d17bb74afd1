// Package reporting is fourd's reports: listing them, queueing their
// generation, building their documents (executive summary, remediation
// plan, compliance evidence, judged with engine/posture's Facts), storing
// and serving them (JSON, PDF, HTML rendered on download). It reads open
// findings through the read path's counts (Reads, given by
// engine/findings), so a report agrees with the findings API. New returns
// the Service, which the API adapters and `fourd report` take (each method
// checks the caller's Principal), and the Operator, the report workers
// that claim queued reports and generate them, which only cmd/fourd holds.
package reporting
