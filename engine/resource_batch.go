package engine

import (
	"bytes"
	"slices"
	"sync"
)

// ResourceBatch is one batch of a bulk resource write once its rows are
// stored, as the inventory store hands it back to engine/ingest (in batch
// order): the ids it found new to the tenant and what announcing them
// (resource.added) needs, so that engine builds and publishes the events
// without reading the resources back.
type ResourceBatch struct {
	// NewIDs are the batch's ids new to the tenant, in the order the write
	// first observed them; an id met in several batches is new once.
	NewIDs []string
	// Added holds the data of their resource.added events, in NewIDs'
	// order. The receiver owns it and gives its memory back with Release.
	Added AddedResources
}

// AddedResources is the data of the resource.added events of some new
// resources, packed end to end in one pointer-free buffer (~350 bytes a
// resource): a bulk write packs a batch's as soon as it knows which of its
// resources are new and lets go of the decoded resources, holding only
// this until their rows are stored.
type AddedResources struct {
	buf    *[]byte // pooled; buf's bytes are the payloads
	ends   []int   // where each payload ends in *buf
	strict bool
}

// addedBuffers holds the buffers of released AddedResources: a first
// import of 1M resources made 320 MB of payload buffers, one a batch.
var addedBuffers = sync.Pool{New: func() any { return new([]byte) }}

// PackAddedResources packs the resource.added data of rs (which it does
// not keep) into a buffer taken from a pool.
func PackAddedResources(rs []Resource) AddedResources {
	if len(rs) == 0 {
		return AddedResources{}
	}
	size := 0
	for i := range rs {
		size += resourceAddedSize(&rs[i])
	}
	pooled := addedBuffers.Get().(*[]byte)
	buf := slices.Grow((*pooled)[:0], size)
	ends := make([]int, len(rs))
	for i := range rs {
		buf = AppendResourceAdded(buf, &rs[i])
		ends[i] = len(buf)
	}
	*pooled = buf
	// AppendResourceAdded writes strict JSON but for a NUL byte, escaped
	// as \u0000: a payload holding one (or the text \u0000, escaped as
	// \\u0000) leaves the check to the store.
	return AddedResources{buf: pooled, ends: ends, strict: !bytes.Contains(buf, []byte(`\u0000`))}
}

// Len is the number of resources packed.
func (a AddedResources) Len() int { return len(a.ends) }

// Data is the i-th resource's resource.added data, valid until Release.
func (a AddedResources) Data(i int) []byte {
	start := 0
	if i > 0 {
		start = a.ends[i-1]
	}
	return (*a.buf)[start:a.ends[i]:a.ends[i]]
}

// Strict says that every payload passes jsonvalid.Strict (Event.Strict).
func (a AddedResources) Strict() bool { return a.strict }

// Release gives the buffer back for later packs: no Data may be used
// after it. Copies of an AddedResources share its buffer: only one of
// them is released, once (releasing it again, or the zero value, does
// nothing).
func (a *AddedResources) Release() {
	if a.buf == nil {
		return
	}
	*a.buf = (*a.buf)[:0]
	addedBuffers.Put(a.buf)
	a.buf, a.ends = nil, nil
}

// resourceAddedSize is what AppendResourceAdded usually needs for r (more
// only when strings need escaping).
func resourceAddedSize(r *Resource) int {
	n := 110 + len(r.ID) + len(r.Provider) + len(r.Account) + len(r.Region) + len(r.Type) + len(r.NativeID) + len(r.Name)
	for _, t := range r.Tags {
		n += 6 + len(t.Key) + len(t.Value)
	}
	return n
}

// AppendResourceAdded appends the data of resource.added for r:
// {"resource":{id, provider, account, region, type, native_id, name,
// tags}}, byte for byte what encoding/json gives for that summary (tags
// sorted by key, HTML-safe escapes), at a fraction of its cost: a first
// import builds one per resource, and reflection took a tenth of its CPU.
func AppendResourceAdded(b []byte, r *Resource) []byte {
	b = append(b, `{"resource":{"id":`...)
	b = AppendJSONString(b, r.ID)
	b = append(b, `,"provider":`...)
	b = AppendJSONString(b, r.Provider)
	b = append(b, `,"account":`...)
	b = AppendJSONString(b, r.Account)
	b = append(b, `,"region":`...)
	b = AppendJSONString(b, r.Region)
	b = append(b, `,"type":`...)
	b = AppendJSONString(b, r.Type)
	b = append(b, `,"native_id":`...)
	b = AppendJSONString(b, r.NativeID)
	b = append(b, `,"name":`...)
	b = AppendJSONString(b, r.Name)
	b = append(b, `,"tags":`...)
	b = r.Tags.AppendJSON(b)
	return append(b, "}}"...)
}
