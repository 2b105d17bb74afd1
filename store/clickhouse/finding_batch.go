package clickhouse

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"math/bits"
	"slices"
	"time"

	"github.com/go-faster/city"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/jsonvalid"
)

// A snapshot batch is held column by column (findingBatch): sending it
// gathers each column in the batch's sorted order from one small array,
// where rows held as structs made every column a pass over the whole batch
// (one cache miss per row and column, the largest client cost of a
// snapshot write; issue 2 in `git show 77779a1^:docs/benchmarks.md`). The few-valued columns are
// numbered by the snapshot's dictionaries, which also make the per-snapshot
// counts group by integers.

// The dictionary-coded columns of a findingBatch.
const (
	dictRule = iota
	dictResourceType
	dictProvider
	dictAccount
	dictRegion
	dictResolution
	numDicts
)

// stringDict numbers the distinct values of one column of a snapshot. A
// value equal to the previous one costs no hashing: a finding's resource
// fields repeat over the findings of that resource. Other values are first
// looked for in a few slots found by a cheap hash (recent), which spares
// the map's hashing of the whole string in either order findings come in
// (session 11 in `git show 77779a1^:docs/benchmarks.md`).
type stringDict struct {
	codes    map[string]uint32
	values   []string
	last     string
	lastCode uint32
	recent   [dictSlots]dictSlot
}

const (
	dictSlotBits = 6
	dictSlots    = 1 << dictSlotBits
)

// dictSlot is a value and its code + 1 (0: the slot is empty).
type dictSlot struct {
	value string
	code1 uint32
}

// dictSlotOf picks a value's slot from its length and its first and last
// eight bytes (the parts that tell accounts, regions and types apart).
func dictSlotOf(s string) int {
	return int((outerBits(s) * 0x9e3779b97f4a7c15) >> (64 - dictSlotBits))
}

// outerBits mixes s's length with its first and last eight bytes.
func outerBits(s string) uint64 {
	n := len(s)
	h := uint64(n)
	if n >= 8 {
		h ^= le64(s) ^ le64(s[n-8:])*0xff51afd7ed558ccd
	} else {
		for i := 0; i < n; i++ {
			h = h<<8 | uint64(s[i])
		}
	}
	return h
}

// le64 reads the first 8 bytes of s (len(s) >= 8) as one load.
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func (d *stringDict) code(s string) uint32 {
	if len(d.values) > 0 && s == d.last {
		return d.lastCode
	}
	slot := &d.recent[dictSlotOf(s)]
	c := slot.code1 - 1
	if slot.code1 == 0 || slot.value != s {
		var ok bool
		if c, ok = d.codes[s]; !ok {
			if d.codes == nil {
				d.codes = map[string]uint32{}
			}
			c = uint32(len(d.values))
			d.values = append(d.values, s)
			d.codes[s] = c
		}
		*slot = dictSlot{d.values[c], c + 1}
	}
	d.last, d.lastCode = s, c
	return c
}

// snapshotDicts are a snapshot's dictionaries, filled by the one goroutine
// that validates its findings. A batch handed to a sender carries the
// values as they were at hand-off: later codes only append.
type snapshotDicts [numDicts]stringDict

// secondsCache remembers the last time converted for one DateTime column:
// a snapshot's findings mostly share their times.
type secondsCache struct {
	t  time.Time
	s  int64
	ok bool
}

func (c *secondsCache) seconds(field string, t time.Time) (int64, error) {
	if c.ok && t == c.t {
		return c.s, nil
	}
	ct, err := toCHTime(field, t)
	if err != nil {
		return 0, err
	}
	c.t, c.s, c.ok = t, ct.Unix(), true
	return c.s, nil
}

// countCodes is a group of the snapshot's counts in dictionary codes.
type countCodes struct {
	severity, dimension, status         int8
	rule, resourceType, account, region uint32
}

// findingBatch is a batch of a snapshot's findings, checked and converted
// for the findings table, one slice per column.
type findingBatch struct {
	id                            [][idBytesLen]byte // stored ids (idkey.go)
	resourceID, evidence          byteColumn
	textID                        []uint64
	codes                         [numDicts][]uint32
	dict                          [numDicts][]string // set at hand-off
	firstSeen, lastSeen, resolved []uint32           // DateTime seconds
	sevOrder                      []uint8
	// The Enum8 values of severity, dimension and status, as the findings
	// table declares them.
	severity, dimension, status []int8
	// bytes estimates the batch's size.
	bytes int
}

func (b *findingBatch) len() int { return len(b.id) }

// reset empties the batch for reuse, keeping its capacity.
func (b *findingBatch) reset() {
	b.id = b.id[:0]
	b.resourceID.reset()
	b.evidence.reset()
	b.textID = b.textID[:0]
	for i := range b.codes {
		b.codes[i] = b.codes[i][:0]
		b.dict[i] = nil
	}
	b.firstSeen, b.lastSeen, b.resolved = b.firstSeen[:0], b.lastSeen[:0], b.resolved[:0]
	b.sevOrder = b.sevOrder[:0]
	b.severity, b.dimension, b.status = b.severity[:0], b.dimension[:0], b.status[:0]
	b.bytes = 0
}

// findingRun is a run of a snapshot on its way to one INSERT: its buckets
// hold the findings whose keys (sortKey) lie in consecutive ranges,
// split at splitters (bucket i holds keys below splitters[i] and from
// splitters[i-1] on).
type findingRun struct {
	buckets   []*findingBatch
	splitters []uint64
	// texts are the rule texts first used by the run's findings, to be
	// written before them.
	texts []textRow
}

// newFindingRun returns an empty run of len(splitters)+1 buckets from get.
func newFindingRun(splitters []uint64, get func() (*findingBatch, error)) (*findingRun, error) {
	r := &findingRun{splitters: splitters, buckets: make([]*findingBatch, len(splitters)+1)}
	for i := range r.buckets {
		b, err := get()
		if err != nil {
			return nil, err
		}
		r.buckets[i] = b
	}
	return r, nil
}

// newBucket is a newFindingRun's get that makes new buckets.
func newBucket() (*findingBatch, error) { return new(findingBatch), nil }

// giveBack empties buckets i to j-1 of the run (those it still holds) and
// gives them to free (dropping those it has no room for).
func (r *findingRun) giveBack(i, j int, free chan<- *findingBatch) {
	for ; i < j; i++ {
		b := r.buckets[i]
		if b == nil {
			continue
		}
		r.buckets[i] = nil
		b.reset()
		select {
		case free <- b:
		default:
		}
	}
}

// bucket returns the bucket of a finding key.
func (r *findingRun) bucket(key uint64) *findingBatch {
	i := 0
	for i < len(r.splitters) && key >= r.splitters[i] {
		i++
	}
	return r.buckets[i]
}

func (r *findingRun) len() int {
	n := 0
	for _, b := range r.buckets {
		n += b.len()
	}
	return n
}

// learnSplitters returns the keys that split the findings of this run into
// runBuckets ranges of about as many findings each: the first run of a
// snapshot goes in one bucket, and its keys set the ranges of the next
// ones. (The keys are the severity and the first bytes of a hash, so the
// ranges hold for the whole snapshot; a skewed one only makes a bucket
// fill first, and its run go sooner.) Nil when the run is too small to say
// (a snapshot of fewer findings): the next run goes whole and tries again.
func (r *findingRun) learnSplitters() []uint64 {
	if len(r.buckets) != 1 || r.buckets[0].len() < 16*runBuckets {
		return nil
	}
	b := r.buckets[0]
	keys := make([]uint64, b.len())
	for i := range keys {
		keys[i] = b.key(i)
	}
	slices.Sort(keys)
	var splitters []uint64
	for i := 1; i < runBuckets; i++ {
		k := keys[i*len(keys)/runBuckets]
		if len(splitters) == 0 || k > splitters[len(splitters)-1] {
			splitters = append(splitters, k)
		}
	}
	return splitters
}

// batchAppender validates findings into batches, with the snapshot's
// dictionaries and time caches.
type batchAppender struct {
	dicts                      *snapshotDicts
	texts                      textInterner
	first, last, resolvedCache secondsCache
	// lastEvidence is a copy of the last evidence found valid: a rule's
	// findings often carry the same.
	lastEvidence []byte
}

// maxKeptEvidence bounds the evidence validEvidence keeps a copy of.
const maxKeptEvidence = 256

// validEvidence reports whether e is empty or valid JSON.
func (a *batchAppender) validEvidence(e []byte) bool {
	if len(e) == 0 || (a.lastEvidence != nil && bytes.Equal(e, a.lastEvidence)) {
		return true
	}
	if !jsonvalid.Valid(e) {
		return false
	}
	if len(e) <= maxKeptEvidence {
		a.lastEvidence = append(a.lastEvidence[:0], e...)
	}
	return true
}

// add validates f and appends it to its bucket of r, which it returns. A
// finding that the table cannot hold faithfully is validation_failed, never
// a panic or a silently altered row; r is unchanged then.
func (a *batchAppender) add(r *findingRun, f *engine.Finding) (*findingBatch, countCodes, error) {
	id, ok := engine.ParseID(engine.PrefixFinding, f.ID)
	if !ok {
		return nil, countCodes{}, engine.FieldErrorf("id", "finding id must be a finding id (fnd_…); got %q", f.ID)
	}
	rank, dim := f.Severity.Rank(), f.Dimension.Number()
	if rank == 0 {
		return nil, countCodes{}, engine.FieldErrorf("severity", "finding %s: severity must be one of info, low, medium, high, critical; got %q", f.ID, f.Severity)
	}
	if dim == 0 {
		return nil, countCodes{}, engine.FieldErrorf("dimension", "finding %s: unknown dimension %q", f.ID, f.Dimension)
	}
	if !f.Status.Valid() {
		return nil, countCodes{}, engine.FieldErrorf("status", "finding %s: status must be open or resolved; got %q", f.ID, f.Status)
	}
	switch f.Resolution {
	case engine.ResolutionNone, engine.ResolutionFixed, engine.ResolutionAcceptedRisk, engine.ResolutionFalsePositive:
	default:
		return nil, countCodes{}, engine.FieldErrorf("resolution", "finding %s: unknown resolution %q", f.ID, f.Resolution)
	}
	if !a.validEvidence(f.Evidence) {
		return nil, countCodes{}, engine.FieldErrorf("evidence", "finding %s: evidence is not valid JSON", f.ID)
	}
	first, err := a.first.seconds("first_seen_at", f.FirstSeenAt)
	if err != nil {
		return nil, countCodes{}, err
	}
	last, err := a.last.seconds("last_seen_at", f.LastSeenAt)
	if err != nil {
		return nil, countCodes{}, err
	}
	var resolvedAt time.Time
	if f.ResolvedAt != nil {
		resolvedAt = *f.ResolvedAt
	}
	resolved, err := a.resolvedCache.seconds("resolved_at", resolvedAt)
	if err != nil {
		return nil, countCodes{}, err
	}
	d := a.dicts
	cc := countCodes{
		severity:     int8(rank),
		dimension:    int8(dim),
		status:       1,
		rule:         d[dictRule].code(f.RuleID),
		resourceType: d[dictResourceType].code(f.ResourceType),
		account:      d[dictAccount].code(f.Account),
		region:       d[dictRegion].code(f.Region),
	}
	if f.Status == engine.StatusResolved {
		cc.status = 2
	}
	so := uint8(len(engine.Severities) - rank) // sevOrder
	b := r.bucket(sortKey(so, &id))
	b.codes[dictRule] = append(b.codes[dictRule], cc.rule)
	b.codes[dictResourceType] = append(b.codes[dictResourceType], cc.resourceType)
	b.codes[dictAccount] = append(b.codes[dictAccount], cc.account)
	b.codes[dictRegion] = append(b.codes[dictRegion], cc.region)
	b.codes[dictProvider] = append(b.codes[dictProvider], d[dictProvider].code(f.Provider))
	b.codes[dictResolution] = append(b.codes[dictResolution], d[dictResolution].code(string(f.Resolution)))

	b.id = append(b.id, id)
	b.resourceID.add(f.ResourceID)
	b.evidence.addBytes(f.Evidence)
	b.textID = append(b.textID, a.texts.id(f))
	// toCHTime keeps times within DateTime's range, which is a uint32's.
	b.firstSeen = append(b.firstSeen, uint32(first))
	b.lastSeen = append(b.lastSeen, uint32(last))
	b.resolved = append(b.resolved, uint32(resolved))
	b.sevOrder = append(b.sevOrder, so)
	b.severity = append(b.severity, cc.severity)
	b.dimension = append(b.dimension, cc.dimension)
	b.status = append(b.status, cc.status)

	b.bytes += 72 + idBytesLen + len(f.ResourceID) + len(f.Evidence)
	return b, cc, nil
}

// byteColumn holds one string column of a batch back to back in a single
// array: adding a value allocates nothing, the garbage collector has no
// pointers to trace through the batch, and the sorted gather at send time
// reads one dense array instead of values scattered over the heap (the
// loadgen's CPU profile showed those cache misses and the collector's work
// as a fifth of the client's time).
type byteColumn struct {
	data []byte
	end  []uint32 // value i is data[end[i-1]:end[i]]
}

func (c *byteColumn) add(v string) {
	c.data = append(c.data, v...)
	c.end = append(c.end, uint32(len(c.data)))
}

func (c *byteColumn) addBytes(v []byte) {
	c.data = append(c.data, v...)
	c.end = append(c.end, uint32(len(c.data)))
}

// at returns value i; it aliases the column until the next reset.
func (c *byteColumn) at(i int) []byte {
	start := uint32(0)
	if i > 0 {
		start = c.end[i-1]
	}
	return c.data[start:c.end[i]:c.end[i]]
}

func (c *byteColumn) reset() {
	c.data, c.end = c.data[:0], c.end[:0]
}

// sortEntry is a row of a batch by its packed sort key: sorting these
// compares integers and looks at the rows only on equal keys.
type sortEntry struct {
	key uint64
	row int32
}

// radixSlackBits is how many bits beyond log2 of a batch's length
// radixSort orders by: enough that few distinct keys of a batch of hashed
// keys fall together (about n²/2^(bits.Len(n)+radixSlackBits+1) pairs, one
// in a 100k-row bucket), few enough that a bucket's sort takes four passes
// instead of eight (BenchmarkSortBy).
const radixSlackBits = 14

// radixSort sorts a by key, stably, using tmp (as long as a) as scratch,
// and returns the sorted slice, which is a or tmp. It orders by the keys'
// distance from the smallest, cut to its top bits.Len(len(a)) +
// radixSlackBits bits, and leaves that cut key in each entry: entries whose
// keys differ only below the cut keep their order and share a key, for
// sortBy to order by their rows.
func radixSort(a, tmp []sortEntry) []sortEntry {
	if len(a) < 2 {
		return a
	}
	lo, hi := a[0].key, a[0].key
	for _, e := range a[1:] {
		lo, hi = min(lo, e.key), max(hi, e.key)
	}
	width := bits.Len64(hi - lo)
	keep := min(width, bits.Len(uint(len(a)))+radixSlackBits)
	cut, passes := width-keep, (keep+7)/8
	var counts [8][256]int
	for i := range a {
		k := (a[i].key - lo) >> cut
		a[i].key = k
		for p := range passes {
			counts[p][byte(k>>(8*p))]++
		}
	}
	for p := range passes {
		c := &counts[p]
		if c[byte(a[0].key>>(8*p))] == len(a) {
			continue // every key has the same byte here
		}
		sum := 0
		for i, n := range c {
			c[i] = sum
			sum += n
		}
		shift := 8 * p
		for _, e := range a {
			d := byte(e.key >> shift)
			tmp[c[d]] = e
			c[d]++
		}
		a, tmp = tmp, a
	}
	return a
}

// sortBy sorts order by key, then by cmp of the rows where keys are equal
// (and so the rows' strings decide); the entries' keys are radixSort's cut
// keys afterwards. Equal keys are rare for the finding order; for the
// resource order they are mostly the findings of one resource, already in
// finding order, which is what cmp asks for as well.
func sortBy(order, tmp []sortEntry, cmp func(a, b int32) int) []sortEntry {
	order = radixSort(order, tmp)
	for i := 0; i < len(order); {
		j := i + 1
		for j < len(order) && order[j].key == order[i].key {
			j++
		}
		if run := order[i:j]; len(run) > 1 {
			sorted := true
			for k := 1; k < len(run) && sorted; k++ {
				sorted = cmp(run[k-1].row, run[k].row) <= 0
			}
			if !sorted {
				slices.SortStableFunc(run, func(a, b sortEntry) int { return cmp(a.row, b.row) })
			}
		}
		i = j
	}
	return order
}

// sortKey packs a finding's sev_order and the first 7 bytes of its stored
// id: sorting by it orders almost every pair without comparing ids.
func sortKey(sevOrder uint8, id *[idBytesLen]byte) uint64 {
	return uint64(sevOrder)<<56 | binary.BigEndian.Uint64(id[:8])>>8
}

// key is the sortKey of row i. (Computed when sorting rather than kept:
// a snapshot write holds up to 1.5M rows, and every byte of a row counts
// against the loadgen's and the audit's memory.)
func (b *findingBatch) key(i int) uint64 {
	return sortKey(b.sevOrder[i], &b.id[i])
}

// compareFindings orders rows as the findings table does inside one
// snapshot: by sev_order, then id.
func (b *findingBatch) compareFindings(x, y int32) int {
	if c := cmp.Compare(b.sevOrder[x], b.sevOrder[y]); c != 0 {
		return c
	}
	return bytes.Compare(b.id[x][:], b.id[y][:])
}

// compareResources returns the order of snapshot_finding_index inside one
// snapshot, by the rows' resource hashes (resourceHash), then as
// compareFindings.
func (b *findingBatch) compareResources(hashes []uint64) func(x, y int32) int {
	return func(x, y int32) int {
		if c := cmp.Compare(hashes[x], hashes[y]); c != 0 {
			return c
		}
		return b.compareFindings(x, y)
	}
}

// resourceHash is the resource index's key of a resource id: ClickHouse's
// cityHash64, so that the server computes the same (CarryForward, reads).
func resourceHash(resourceID string) uint64 {
	var stack [128]byte // ids are short: hashed without an allocation
	return city.CH64(append(stack[:0], resourceID...))
}

// snapshotKey is the key of a snapshot in snapshot_findings and the resource
// index: ClickHouse's cityHash64(concat(tenant_id, '\0', audit_id)). An
// audit id holds no NUL (checkSnapshotIDs), so distinct snapshots hash
// distinct strings, and no snapshot is written under a key that another
// has (checkSnapshotKey). A variable, so that a test can make two share one.
var snapshotKey = func(tenantID, auditID string) uint64 {
	var stack [128]byte
	b := append(append(append(stack[:0], tenantID...), 0), auditID...)
	return city.CH64(b)
}
