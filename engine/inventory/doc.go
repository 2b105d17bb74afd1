// Package inventory defines fourd's canonical AWS inventory model (resource
// type names and one attribute struct per type) and the streaming decoders
// that turn fourd's own NDJSON, AWS Config snapshots and configuration items,
// and Terraform state into engine.Resource values in that model.
//
// Every decoder implements Decoder: Next returns one resource at a time, a
// *LineError for a bad record that the stream can skip, io.EOF at the end,
// and any other error when the input cannot be read further. Open sniffs the
// format of an input and returns the matching decoder.
//
// The attribute structs are the contract between the importers, which
// marshal them into engine.Resource.Attributes, and the rule pack in
// engine/rules, which unmarshals them once per resource. docs/inventory.md
// documents them.
package inventory
