package rules

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// deferredSet holds the resources Auditor.Record deferred until Finish,
// each packed into a few hundred bytes of a large arena chunk instead of an
// engine.Resource with its dozen separate strings, tag slice and
// attributes: a 1M-resource audit defers ~230k (buckets, queues, users,
// snapshots) and held them as ~140 MB of live heap, which the collector
// scanned at every cycle and the process doubled in RSS (issue 29/30). The
// strings every resource repeats (tenant, provider, account, region, type,
// tag keys) are stored once in dict. Not safe for concurrent use: add is
// called from one goroutine, get from many once adding is over.
type deferredSet struct {
	chunks [][]byte      // full chunks and, last, the one being filled
	refs   []deferredRef // each resource's place, in the order added
	dict   []string
	index  map[string]uint32 // dict position by string
}

// deferredRef is where one resource lies: chunks[chunk][off:off+n].
type deferredRef struct{ chunk, off, n uint32 }

// deferredChunkBytes is the size of an arena chunk once the first ones,
// from deferredFirstChunk, doubled up to it; a resource larger than its
// chunk would be gets a chunk of its own.
const (
	deferredFirstChunk = 4 << 10
	deferredChunkBytes = 1 << 20
)

// len is how many resources were added.
func (d *deferredSet) len() int { return len(d.refs) }

// intern is s's position in the dictionary, adding it when new.
func (d *deferredSet) intern(s string) uint32 {
	if i, ok := d.index[s]; ok {
		return i
	}
	if d.index == nil {
		d.index = map[string]uint32{}
	}
	i := uint32(len(d.dict))
	d.dict = append(d.dict, s)
	d.index[s] = i
	return i
}

// add packs r at the end of the set. The layout: the dictionary positions
// of the tenant, provider, account, region and type; the lengths of the id,
// native id and name; the tags (count+1, 0 for nil; each key's position and
// value's length); the attributes' length+1 (0 for nil); the three times;
// then the id, native id, name and tag values as one text; then the
// attributes.
func (d *deferredSet) add(r *engine.Resource) {
	var buf [256]byte
	b := buf[:0]
	for _, s := range [...]string{r.TenantID, r.Provider, r.Account, r.Region, r.Type} {
		b = binary.AppendUvarint(b, uint64(d.intern(s)))
	}
	b = binary.AppendUvarint(b, uint64(len(r.ID)))
	b = binary.AppendUvarint(b, uint64(len(r.NativeID)))
	b = binary.AppendUvarint(b, uint64(len(r.Name)))
	if r.Tags == nil {
		b = append(b, 0)
	} else {
		b = binary.AppendUvarint(b, uint64(len(r.Tags))+1)
		for _, t := range r.Tags {
			b = binary.AppendUvarint(b, uint64(d.intern(t.Key)))
			b = binary.AppendUvarint(b, uint64(len(t.Value)))
		}
	}
	if r.Attributes == nil {
		b = append(b, 0)
	} else {
		b = binary.AppendUvarint(b, uint64(len(r.Attributes))+1)
	}
	b = appendTime(b, r.FirstSeenAt)
	b = appendTime(b, r.LastSeenAt)
	if r.CapturedAt == nil {
		b = append(b, 0)
	} else {
		b = append(b, 1)
		b = appendTime(b, *r.CapturedAt)
	}
	n := len(b) + len(r.ID) + len(r.NativeID) + len(r.Name) + len(r.Attributes)
	for _, t := range r.Tags {
		n += len(t.Value)
	}
	chunk := d.room(n)
	off := len(*chunk)
	c := append(*chunk, b...)
	c = append(c, r.ID...)
	c = append(c, r.NativeID...)
	c = append(c, r.Name...)
	for _, t := range r.Tags {
		c = append(c, t.Value...)
	}
	c = append(c, r.Attributes...)
	*chunk = c
	d.refs = append(d.refs, deferredRef{chunk: uint32(len(d.chunks) - 1), off: uint32(off), n: uint32(n)})
}

// room is the chunk to append n bytes to without growing it: the last one,
// or a new one when the last is too full.
func (d *deferredSet) room(n int) *[]byte {
	if k := len(d.chunks); k > 0 && cap(d.chunks[k-1])-len(d.chunks[k-1]) >= n {
		return &d.chunks[k-1]
	}
	// The first chunks small, so that a small audit does not hold 1 MiB.
	size := deferredFirstChunk
	if k := len(d.chunks); k > 0 {
		size = min(2*cap(d.chunks[k-1]), deferredChunkBytes)
	}
	d.chunks = append(d.chunks, make([]byte, 0, max(n, size)))
	return &d.chunks[len(d.chunks)-1]
}

// appendTime appends t's binary form after its length.
func appendTime(b []byte, t time.Time) []byte {
	at := len(b)
	b = append(b, 0)
	out, err := t.AppendBinary(b)
	if err != nil { // a zone offset time cannot encode: keep the instant
		out, _ = t.UTC().AppendBinary(b)
	}
	out[at] = byte(len(out) - at - 1)
	return out
}

// get unpacks the i-th resource added. Its strings are new (one
// allocation for the id, native id, name and tag values) or the
// dictionary's; its attributes are the arena's bytes, capped, which no
// check writes to. On an error (a defect: the set reads only what it
// wrote) the resource holds what was read before it, its type among them.
// Safe for concurrent use once adding is over.
func (d *deferredSet) get(i int) (engine.Resource, error) {
	ref := d.refs[i]
	b := d.chunks[ref.chunk][ref.off : ref.off+ref.n : ref.off+ref.n]
	r := deferredReader{b: b, dict: d.dict}
	var res engine.Resource
	res.TenantID, res.Provider, res.Account, res.Region, res.Type = r.word(), r.word(), r.word(), r.word(), r.word()
	nID, nNative, nName := r.uvarint(), r.uvarint(), r.uvarint()
	text := nID + nNative + nName
	var valueLens []int
	if nt := r.uvarint(); nt > 0 {
		res.Tags = make(engine.Tags, nt-1)
		valueLens = make([]int, nt-1)
		for j := range res.Tags {
			res.Tags[j].Key = r.word()
			valueLens[j] = r.uvarint()
			text += valueLens[j]
		}
	}
	nAttrs := r.uvarint()
	res.FirstSeenAt, res.LastSeenAt = r.time(), r.time()
	if r.byte() == 1 {
		t := r.time()
		res.CapturedAt = &t
	}
	s := r.text(text)
	res.ID, s = s[:nID], s[nID:]
	res.NativeID, s = s[:nNative], s[nNative:]
	res.Name, s = s[:nName], s[nName:]
	for j, n := range valueLens {
		res.Tags[j].Value, s = s[:n], s[n:]
	}
	if nAttrs > 0 {
		res.Attributes = r.bytes(nAttrs - 1)
	}
	if r.err != nil || r.i != len(r.b) {
		return res, fmt.Errorf("deferred resource %d: packed form unreadable (%v, %d of %d bytes read)", i, r.err, r.i, len(r.b))
	}
	return res, nil
}

// deferredReader reads what deferredSet.add packed; the first misread
// sets err and zeroes every read after it.
type deferredReader struct {
	b    []byte
	i    int
	dict []string
	err  error
}

func (r *deferredReader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("bad %s at byte %d", what, r.i)
	}
	r.i = len(r.b)
}

func (r *deferredReader) uvarint() int {
	v, n := binary.Uvarint(r.b[r.i:])
	if n <= 0 || v > uint64(len(r.b)) {
		r.fail("length")
		return 0
	}
	r.i += n
	return int(v)
}

func (r *deferredReader) word() string {
	v, n := binary.Uvarint(r.b[r.i:])
	if n <= 0 || v >= uint64(len(r.dict)) {
		r.fail("dictionary position")
		return ""
	}
	r.i += n
	return r.dict[v]
}

func (r *deferredReader) byte() byte {
	if r.i >= len(r.b) {
		r.fail("byte")
		return 0
	}
	r.i++
	return r.b[r.i-1]
}

func (r *deferredReader) bytes(n int) []byte {
	if n > len(r.b)-r.i {
		r.fail("bytes")
		return nil
	}
	r.i += n
	return r.b[r.i-n : r.i : r.i]
}

func (r *deferredReader) text(n int) string { return string(r.bytes(n)) }

func (r *deferredReader) time() time.Time {
	var t time.Time
	if err := t.UnmarshalBinary(r.bytes(int(r.byte()))); err != nil {
		r.fail("time")
	}
	return t
}
