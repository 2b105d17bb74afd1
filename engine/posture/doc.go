// Package posture is fourd's compliance judge: it judges every control of
// the frameworks in engine/compliance's catalog against a completed audit
// (passed, failed, insufficient data, not applicable, not assessed,
// manual), answers the compliance posture endpoints and records each
// audit's posture for the trend. Reports judge with the same Facts
// (engine/reporting). It reads open findings through the read path's
// counts (Reads, given by engine/findings), so a posture agrees with the
// findings API. New also returns the Operator, which records an audit's
// posture (engine/audit's PostureRecorder) and which only cmd/fourd holds.
package posture
