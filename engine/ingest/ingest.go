package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"
	"time"
	"unicode/utf8"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/jsonvalid"
)

// Limits of a batch's report and of what it keeps to announce new
// resources without reading them back.
const (
	maxItemErrors    = 1000
	maxKeptSummaries = 100_000
)

// validName reports whether s is a lowercase letter followed by at most
// max-1 lowercase letters, digits or (with underscore) '_': providers are
// ^[a-z][a-z0-9]{0,31}$ and types ^[a-z][a-z0-9_]{0,99}$. A loop, not a
// regexp: it runs twice for every inventory item.
func validName(s string, max int, underscore bool) bool {
	if len(s) == 0 || len(s) > max || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || underscore && c == '_') {
			return false
		}
	}
	return true
}

// NormalizeResource validates r as sent by a producer and fills what fourd
// derives: the id (from tenant, provider and native id, so ingestion is
// idempotent) and the observation time.
func (s *Service) NormalizeResource(tenantID string, r engine.Resource) (engine.Resource, error) {
	return s.normalizeResource(tenantID, r, false)
}

// normalizeResource is NormalizeResource; prechecked skips the UTF-8 and
// JSON checks (see IngestItem.Prechecked), which cannot fail then.
func (s *Service) normalizeResource(tenantID string, r engine.Resource, prechecked bool) (engine.Resource, error) {
	switch {
	case !validName(r.Provider, 32, false):
		return r, engine.FieldErrorf("provider", "provider must be a lowercase name like aws; got %s", engine.Quote(r.Provider))
	case !validName(r.Type, 100, true):
		return r, engine.FieldErrorf("type", "type must be a lowercase identifier like aws_s3_bucket; got %s", engine.Quote(r.Type))
	case r.NativeID == "" || len(r.NativeID) > 2048:
		return r, engine.FieldErrorf("native_id", "native_id is required (at most 2048 bytes)")
	case len(r.Account) > 128 || len(r.Region) > 64 || len(r.Name) > 1024:
		return r, engine.FieldErrorf("account", "account (128), region (64) or name (1024 bytes) is too long")
	case len(r.Tags) > engine.MaxTags:
		return r, engine.FieldErrorf("tags", "at most %d tags; got %d", engine.MaxTags, len(r.Tags))
	case len(r.Attributes) > engine.MaxAttributesBytes:
		return r, engine.FieldErrorf("attributes", "attributes exceed %d KiB", engine.MaxAttributesBytes>>10)
	}
	if !prechecked {
		for _, s := range []string{r.NativeID, r.Account, r.Region, r.Name} {
			if !utf8.ValidString(s) {
				return r, engine.FieldErrorf("native_id", "text fields must be valid UTF-8")
			}
		}
	}
	for _, t := range r.Tags {
		if t.Key == "" || len(t.Key) > 128 || len(t.Value) > 256 || !prechecked && (!utf8.ValidString(t.Key) || !utf8.ValidString(t.Value)) {
			return r, engine.FieldErrorf("tags", "tag %s: keys are 1–128 bytes, values up to 256, UTF-8", engine.Quote(t.Key))
		}
	}
	attrs := bytes.TrimSpace(r.Attributes)
	if len(attrs) == 0 || bytes.Equal(attrs, []byte("null")) {
		attrs = []byte("{}")
	}
	if attrs[0] != '{' || !prechecked && !jsonvalid.Valid(attrs) {
		return r, engine.FieldErrorf("attributes", "attributes must be a JSON object")
	}
	if r.Tags == nil {
		r.Tags = engine.Tags{}
	}
	r.Tags = r.Tags.Sorted() // a copy when out of order: the caller's stays
	now := s.now().UTC()
	r.Attributes = attrs
	r.TenantID = tenantID
	r.ID = engine.ResourceID(tenantID, r.Provider, r.NativeID)
	r.FirstSeenAt, r.LastSeenAt = now, now
	return r, nil
}

// IngestResources validates and stores a stream of inventory items. Invalid
// items are reported by index without rejecting the valid ones; resources
// seen for the first time raise resource.added. A nil Service answers
// unavailable.
func (s *Service) IngestResources(ctx context.Context, p engine.Principal, items iter.Seq[engine.IngestItem]) (engine.IngestResult, error) {
	if err := p.Require(engine.ScopeResourcesWrite); err != nil {
		return engine.IngestResult{}, err
	}
	if s == nil {
		return engine.IngestResult{}, engine.Errorf(engine.CodeUnavailable, "inventory intake is not configured on this server")
	}
	res := engine.IngestResult{Errors: []engine.ItemError{}}
	reject := func(index int, err error) {
		res.Rejected++
		if len(res.Errors) >= maxItemErrors {
			res.ErrorsTruncated = true
			return
		}
		e := engine.ItemError{Index: index, Code: engine.ErrorCode(err), Message: engine.ErrorMessage(err)}
		if ee, ok := err.(*engine.Error); ok {
			e.Field = ee.Field
		}
		res.Errors = append(res.Errors, e)
	}
	var stopErr error // a non-item error (e.g. the request body broke) ends the batch
	// What resource.added will say of each resource, kept for the first
	// maxKeptSummaries accepted items so that announcing new ones needs no
	// read back; past that, the rest are read back from the store.
	kept := map[string]resourceSummary{}
	var last time.Time // the previous accepted item's observation time
	valid := func(yield func(engine.Resource, error) bool) {
		for it := range items {
			if it.Err != nil {
				if it.Index < 0 || it.Ends || engine.ErrorCode(it.Err) == engine.CodeInternal || engine.ErrorCode(it.Err) == engine.CodePayloadTooLarge {
					stopErr = it.Err
					return
				}
				reject(it.Index, it.Err)
				continue
			}
			r, err := s.normalizeResource(p.TenantID, it.Resource, it.Prechecked)
			if err != nil {
				reject(it.Index, err)
				continue
			}
			// Observations of one batch are ordered as read: when the input
			// holds a resource twice (configuration history), the later
			// one is the resource's latest, even on a clock that repeats.
			if !r.LastSeenAt.After(last) {
				r.FirstSeenAt, r.LastSeenAt = last.Add(time.Nanosecond), last.Add(time.Nanosecond)
			}
			last = r.LastSeenAt
			res.Accepted++
			if kept != nil && len(kept) < maxKeptSummaries {
				kept[r.ID] = summarize(r)
			}
			if !yield(r, nil) {
				return
			}
		}
	}
	if w, ok := s.cfg.Resources.(BatchWriter); ok && s.cfg.Events != nil {
		// Announce each batch's new resources once it is stored.
		kept = nil
		newIDs, err := s.writeAnnounced(ctx, p.TenantID, w, valid)
		if err != nil {
			return engine.IngestResult{}, err
		}
		if stopErr != nil {
			return engine.IngestResult{}, partialIngest(stopErr, res)
		}
		res.New = newIDs
		return res, nil
	}
	written, err := s.cfg.Resources.WriteResources(ctx, p.TenantID, valid)
	if err != nil {
		return engine.IngestResult{}, err
	}
	if stopErr != nil {
		if err := s.publishResourceAdded(ctx, p.TenantID, written.NewIDs, kept); err != nil {
			return engine.IngestResult{}, fmt.Errorf("publishing resource.added: %w", err)
		}
		return engine.IngestResult{}, partialIngest(stopErr, res)
	}
	res.New = int64(len(written.NewIDs))
	if err := s.publishResourceAdded(ctx, p.TenantID, written.NewIDs, kept); err != nil {
		return engine.IngestResult{}, fmt.Errorf("publishing resource.added: %w", err)
	}
	return res, nil
}

// partialIngest is the error of a batch whose stream ended early (err):
// the items before it were processed — the accepted ones are stored — and
// nothing after it was read, so that every item is accounted for. An
// error without a code (internal) stays as it is.
func partialIngest(err error, res engine.IngestResult) error {
	var e *engine.Error
	if !errors.As(err, &e) {
		return err
	}
	return &engine.Error{Code: e.Code, Field: e.Field, Message: fmt.Sprintf("%s; the %d items before it were processed "+
		"(%d accepted and stored, %d rejected) and nothing after it was read", e.Message, res.Accepted+res.Rejected,
		res.Accepted, res.Rejected)}
}
