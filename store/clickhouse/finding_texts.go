package clickhouse

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"slices"

	ch "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/cache"
)

// A finding's rule text is kept once per tenant in finding_texts, keyed by
// a hash of its content (migration 0005): writers send each text of a
// snapshot once, findings carry its 8-byte id, and readers fill the text in
// from a cache. A text never changes under its id, so the cache is never
// stale; it is bounded and shared by every tenant, keyed by tenant.

// findingText is the part of a finding that its rule (or policy version)
// decides.
type findingText struct {
	title, description, remediation string
	compliance                      []string
}

func textOf(f *engine.Finding) findingText {
	c := f.Compliance
	if c == nil {
		c = []string{}
	}
	return findingText{f.Title, f.Description, f.Remediation, c}
}

func (t findingText) applyTo(f *engine.Finding) {
	f.Title, f.Description, f.Remediation = t.title, t.description, t.remediation
	f.Compliance = slices.Clone(t.compliance) // callers may change their finding
	if f.Compliance == nil {
		f.Compliance = []string{}
	}
}

// textID is the stable id of a text: the first 8 bytes of the SHA-256 of
// its length-prefixed fields, never 0 (0 marks rows with their text
// inline).
func textID(t findingText) uint64 {
	h := sha256.New()
	var n [binary.MaxVarintLen64]byte
	put := func(s string) {
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
		h.Write([]byte(s))
	}
	put(t.title)
	put(t.description)
	put(t.remediation)
	h.Write(n[:binary.PutUvarint(n[:], uint64(len(t.compliance)))])
	for _, c := range t.compliance {
		put(c)
	}
	var sum [sha256.Size]byte
	id := binary.BigEndian.Uint64(h.Sum(sum[:0]))
	if id == 0 {
		id = 1
	}
	return id
}

// textKey is a text as a map key: compliance encoded unambiguously.
type textKey struct {
	title, description, remediation, compliance string
}

// complianceKey encodes a compliance list so that different lists never
// share a key.
func complianceKey(c []string) string {
	var b []byte
	for _, s := range c {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return string(b)
}

// textInterner gives a snapshot write's findings their text ids and
// collects the texts it has not sent yet. One goroutine uses it.
//
// A rule's findings share its strings and its compliance slice, so a text
// is first looked for among recent ones, in a slot chosen from the
// hash of its title and the length and outer bytes of its description
// (outerBits: a description can be long), and compared by value: Go's string comparison returns at once
// for two strings that share their bytes, so a hit on a rule's shared
// text costs a few compares. A miss hashes the whole text (byContent).
// Texts are compared by their contents only, never by where they are.
type textInterner struct {
	recent    [textSlots]textSlot
	byContent map[textKey]uint64
	pending   []textRow
}

const (
	textSlotBits = 12 // 4,096 slots: a tenant's few hundred rules seldom share one
	textSlots    = 1 << textSlotBits
)

// textSlot is a recent text and its id (0: the slot is empty; textID is
// never 0). Its compliance is the interner's own copy.
type textSlot struct {
	id   uint64
	text findingText
}

func textSlotOf(f *engine.Finding) int {
	h := maphash.String(textSlotSeed, f.Title) ^ outerBits(f.Description)*0xc4ceb9fe1a85ec53 ^
		uint64(len(f.Remediation))<<32 ^ uint64(len(f.Compliance))<<48
	return int((h * 0x9e3779b97f4a7c15) >> (64 - textSlotBits))
}

// textSlotSeed seeds the hash of a title in textSlotOf. The whole title is
// hashed (the runtime's string hash, a few ns for a title): titles made
// from one pattern ("Synthetic high cost finding on aws_lb" against
// "Synthetic info cost …") often share their length and both ends, and
// texts sharing a slot evict each other, each miss hashing a whole text
// into byContent (with the ends alone, the loadgen's 200 titles missed
// about a third of the time).
var textSlotSeed = maphash.MakeSeed()

// textRow is a text to insert.
type textRow struct {
	id   uint64
	text findingText
}

// sameText reports whether f's text is t (nil and empty compliance alike).
func sameText(t *findingText, f *engine.Finding) bool {
	return t.title == f.Title && t.description == f.Description && t.remediation == f.Remediation &&
		slices.Equal(t.compliance, f.Compliance)
}

func (in *textInterner) id(f *engine.Finding) uint64 {
	slot := &in.recent[textSlotOf(f)]
	if slot.id != 0 && sameText(&slot.text, f) {
		return slot.id
	}
	t := textOf(f)
	t.compliance = slices.Clone(t.compliance) // the caller may change its slice
	k := textKey{t.title, t.description, t.remediation, complianceKey(t.compliance)}
	id, ok := in.byContent[k]
	if !ok {
		if in.byContent == nil {
			in.byContent = map[textKey]uint64{}
		}
		id = textID(t)
		if len(in.byContent) < maxContentTexts {
			in.byContent[k] = id
		} // else sent again when seen again: the table folds repeats
		in.pending = append(in.pending, textRow{id, t})
	}
	*slot = textSlot{id, t}
	return id
}

// maxContentTexts bounds the texts one snapshot write remembers (a
// tenant's rules and policies have hundreds).
const maxContentTexts = 100_000

// takePending returns the texts not handed out yet.
func (in *textInterner) takePending() []textRow {
	p := in.pending
	in.pending = nil
	return p
}

// insertTexts writes texts of a tenant (a retried or repeated text folds
// into one row) and caches them.
func (s *Store) insertTexts(ctx context.Context, tenantID string, writtenAt int64, texts []textRow) error {
	b, err := s.prepareBatch(ctx, "INSERT INTO finding_texts (tenant_id, text_id, title, description, remediation, compliance, written_at)")
	if err != nil {
		return fmt.Errorf("prepare batch: %w", err)
	}
	for _, t := range texts {
		if err := b.Append(tenantID, t.id, t.text.title, t.text.description, t.text.remediation, t.text.compliance, writtenAt); err != nil {
			b.Abort()
			return err
		}
	}
	if err := b.Send(); err != nil {
		return err
	}
	for _, t := range texts {
		s.texts.Put(textCacheKey{tenantID, t.id}, t.text)
	}
	return nil
}

// maxCachedTexts bounds the text cache: a tenant has one text per rule and
// policy version, so this holds every text of many tenants.
const maxCachedTexts = 50_000

// textCacheKey names a text: its tenant and id. Store.texts keeps texts by
// it, an LRU of maxCachedTexts entries (internal/cache).
type textCacheKey struct {
	tenantID string
	id       uint64
}

func newTextCache() *cache.LRU[textCacheKey, findingText] {
	return cache.New(cache.Options[textCacheKey, findingText]{MaxCost: maxCachedTexts})
}

// textsOf returns the texts with the given ids of a tenant, from the cache
// or one query for those it lacks. A text id that the tenant does not have
// is an internal error: the snapshot is damaged.
func (s *Store) textsOf(ctx context.Context, tenantID string, ids []uint64) (map[uint64]findingText, error) {
	out := make(map[uint64]findingText, len(ids))
	var missing []any
	for _, id := range ids {
		if _, done := out[id]; done || id == 0 {
			continue
		}
		if t, ok := s.texts.Get(textCacheKey{tenantID, id}); ok {
			out[id] = t
			continue
		}
		if !slices.Contains(missing, any(id)) {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	err := s.each(ctx, rawQuery{sql: `SELECT text_id, title, description, remediation, compliance FROM finding_texts
WHERE tenant_id = ? AND text_id IN ?`, args: []any{tenantID, ch.GroupSet{Value: missing}}}, func(sc scanner) error {
		var id uint64
		var t findingText
		if err := sc.Scan(&id, &t.title, &t.description, &t.remediation, &t.compliance); err != nil {
			return err
		}
		if t.compliance == nil {
			t.compliance = []string{}
		}
		out[id] = t
		s.texts.Put(textCacheKey{tenantID, id}, t)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read finding texts: %w", err)
	}
	for _, id := range missing {
		if _, ok := out[id.(uint64)]; !ok {
			return nil, fmt.Errorf("finding text %016x of tenant %s is missing", id, tenantID)
		}
	}
	return out, nil
}

// fillTexts sets the texts of fs[i] whose ids[i] is not 0 (the others carry
// theirs inline).
func (s *Store) fillTexts(ctx context.Context, tenantID string, fs []engine.Finding, ids []uint64) error {
	return s.eachText(ctx, tenantID, ids, func(i int, t findingText) { t.applyTo(&fs[i]) })
}

// eachText reads the texts of rows by their text ids (0 for a row that
// keeps its own inline text) and calls set for every row i that has one.
func (s *Store) eachText(ctx context.Context, tenantID string, ids []uint64, set func(i int, t findingText)) error {
	texts, err := s.textsOf(ctx, tenantID, ids)
	if err != nil {
		return err
	}
	for i, id := range ids {
		if id != 0 {
			set(i, texts[id])
		}
	}
	return nil
}

// snapshotTexts reads the texts a snapshot's rows use, for a stream over
// it: one scan of the snapshot's text ids (a UInt64 column), so that the
// stream needs no second query while its rows are open.
func (s *Store) snapshotTexts(ctx context.Context, tenantID, auditID string) (map[uint64]findingText, error) {
	var ids []uint64
	err := s.each(ctx, rawQuery{sql: "SELECT DISTINCT text_id FROM snapshot_findings WHERE snapshot = ?",
		args: []any{snapshotKey(tenantID, auditID)}}, func(sc scanner) error {
		var id uint64
		err := sc.Scan(&id)
		ids = append(ids, id)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read a snapshot's text ids: %w", err)
	}
	return s.textsOf(ctx, tenantID, ids)
}

// applyText fills in f's text from a stream's texts when id is not 0.
func applyText(f *engine.Finding, id uint64, texts map[uint64]findingText) error {
	if id == 0 {
		return nil
	}
	t, ok := texts[id]
	if !ok {
		return fmt.Errorf("finding %s: text %016x is missing", f.ID, id)
	}
	t.applyTo(f)
	return nil
}
