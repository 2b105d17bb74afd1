package rules

import (
	"encoding/json"

	"github.com/fourd-dev/fourd/internal/jsonvalid"
)

// A pass needs what it read. Each rule's Reads names the top-level
// canonical attributes whose value decides its outcome (reads_gen.go,
// derived from the rule's cases by TestRules_PartialRecords). A check
// reading a missing attribute sees its zero value, and a zero value passes
// every check whose failing condition needs a non-zero one (an open port,
// a previous-generation type): such a pass is not evidence, so judged makes
// it "not evaluated" (issue 29: unknown is not false, and not true either).
//
// A check may read an attribute on some paths only (a user without a
// console password needs no MFA, whatever the source says of MFA). So a
// pass that lacks one of its Reads is run again with the attribute set to
// each witness — a value that made the check fail on its cases: when some
// witness makes it fail (or leaves it unjudged), the missing attribute
// decided the pass, which is then not evaluated; when none does, the
// attribute did not matter on this resource and the pass stands. The rerun
// happens only on records that lack an attribute a check reads.

// attrRead is one attribute a check reads and the witnesses of it.
type attrRead struct {
	key       string
	witnesses []string
}

// readsOfRule splits a rule's generated reads into Rule.Reads and the
// witnesses.
func readsOfRule(byType map[string][]attrRead) (map[string][]string, map[string]map[string][]string) {
	if len(byType) == 0 {
		return nil, nil
	}
	reads, wit := map[string][]string{}, map[string]map[string][]string{}
	for typ, rs := range byType {
		wit[typ] = map[string][]string{}
		for _, r := range rs {
			reads[typ] = append(reads[typ], r.key)
			wit[typ][r.key] = r.witnesses
		}
	}
	return reads, wit
}

// typeReads indexes, for one resource type, the top-level keys a
// subject's scan looks for: the attributes the type's rules read (a bit
// each in Subject.present, for the first 64) and the keys of the type's
// canonical attributes (see canonical.go).
type typeReads struct {
	keys map[string]keySlot
	// canonical is set when the type has canonical attributes; written
	// has a bit for each of their keys written even when zero.
	canonical bool
	written   uint64
	// fields are the slots of the fast decoder's fields, by index; nil
	// when the type has none (or its keys are not all in keys).
	fields []keySlot
}

// keySlot is what a top-level key means for its type.
type keySlot struct {
	read      int8 // bit in Subject.present; -1: no rule reads it (or past 64)
	written   int8 // bit in Subject.written; -1: not a key written when zero
	canonical bool // a key of the canonical attributes
	// field is 1 + the index of the key's field in the type's fast
	// decoder (attrDecoding.keys); 0 when none.
	field int16
}

// indexReads builds the per-type index of the rules' Reads and of the
// canonical keys.
func indexReads(byType map[string][]*Rule) map[string]*typeReads {
	out := map[string]*typeReads{}
	for typ := range attrTypes {
		out[typ] = canonicalIndex(typ)
	}
	for typ, rules := range byType {
		tr := out[typ]
		if tr == nil {
			tr = &typeReads{keys: map[string]keySlot{}}
			out[typ] = tr
		}
		reads := 0
		for _, r := range rules {
			for _, k := range r.Reads[typ] {
				slot, ok := tr.keys[k]
				if !ok {
					slot = keySlot{read: -1, written: -1}
				}
				if slot.read < 0 && reads < 64 {
					slot.read = int8(reads)
					reads++
				}
				tr.keys[k] = slot
			}
		}
	}
	for typ, tr := range out {
		indexFastFields(tr, attrDecoders[typ].keys)
	}
	return out
}

// indexFastFields gives tr the slots of the fast decoder's fields, keys.
func indexFastFields(tr *typeReads, keys []string) {
	fields := make([]keySlot, len(keys))
	for i, k := range keys {
		slot, ok := tr.keys[k]
		if !ok {
			return // a field that is no canonical key: scan instead
		}
		slot.field = int16(i + 1)
		tr.keys[k] = slot
		fields[i] = slot
	}
	if len(keys) > 0 {
		tr.fields = fields
	}
}

// judged is what a check's result becomes once its input is accounted
// for: a pass on a record with no attribute (recordedNothing) or without
// one of the rule's Reads is not evaluated, naming what was missing.
// Failures, results not evaluated and deferred ones stand.
func judged(s *Subject, r *Rule, res Result) Result {
	res = recordedNothing(s, r, res)
	if res.Failed || res.NotEvaluated || res.deferred || len(r.Reads) == 0 {
		return res
	}
	missing := s.unrecordedReads(r.Reads[s.Resource.Type])
	var decided []string
	for _, k := range missing {
		switch witnessed(s, r, k) {
		case witnessDefers:
			return Result{deferred: true}
		case witnessDecides:
			decided = append(decided, k)
		}
	}
	if len(decided) == 0 && len(missing) > 1 {
		// A check failing only on several attributes at once (a stopped
		// instance, stopped long ago) passes with each witness alone:
		// put them all in together.
		switch witnessedTogether(s, r, missing) {
		case witnessDefers:
			return Result{deferred: true}
		case witnessDecides:
			decided = missing
		}
	}
	if len(decided) > 0 {
		return notEvaluated(decided...)
	}
	return res
}

const (
	witnessIrrelevant = iota
	witnessDecides
	witnessDefers
)

// witnessed runs r on s's resource with the missing attribute key set to
// each of its witnesses, and says whether key decides the outcome there.
func witnessed(s *Subject, r *Rule, key string) int {
	for _, w := range r.witnesses[s.Resource.Type][key] {
		res := *s.Resource
		res.Attributes = withTopLevelKey(s.Resource.Attributes, key, w)
		if out := witnessOutcome(s, r, s.witnessSubject(&res, key, w)); out != witnessIrrelevant {
			return out
		}
	}
	return witnessIrrelevant
}

// witnessedTogether runs r on s's resource with every missing attribute
// of keys set to its first witness at once, and says whether they decide
// the outcome together.
func witnessedTogether(s *Subject, r *Rule, keys []string) int {
	res := *s.Resource
	for _, k := range keys {
		if w := r.witnesses[s.Resource.Type][k]; len(w) > 0 {
			res.Attributes = withTopLevelKey(res.Attributes, k, w[0])
		}
	}
	return witnessOutcome(s, r, NewSubject(&res, s.Now))
}

// witnessOutcome runs r on v, a subject made from s's resource with
// witnesses put in, and says whether they decide the outcome.
func witnessOutcome(s *Subject, r *Rule, v *Subject) int {
	v.account, v.pending = s.account, s.pending
	if v.bad {
		return witnessDecides
	}
	out := recordedNothing(v, r, r.Check(v))
	switch {
	case out.deferred:
		return witnessDefers
	case out.Failed || out.NotEvaluated:
		return witnessDecides
	}
	return witnessIrrelevant
}

// withTopLevelKey returns the JSON object b with "key": value added at the
// front (b lacks key).
func withTopLevelKey(b []byte, key, value string) []byte {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return b
	}
	k, _ := json.Marshal(key)
	out := make([]byte, 0, len(b)+len(k)+len(value)+2)
	out = append(out, '{')
	out = append(out, k...)
	out = append(out, ':')
	out = append(out, value...)
	if j := skipSpace(b, i+1); j < len(b) && b[j] != '}' {
		out = append(out, ',')
	}
	return append(out, b[i+1:]...)
}

// unrecordedReads returns those of keys the resource's attributes lack,
// leaving out the keys omitted when zero (omitempty) when the record is
// whole: there their absence is the zero the importer wrote. It allocates
// only when some are missing.
func (s *Subject) unrecordedReads(keys []string) []string {
	tr := s.reads()
	var out []string
	for _, k := range keys {
		slot, ok := tr.keys[k]
		present := false
		if ok && slot.read >= 0 {
			present = s.present&(1<<slot.read) != 0
		} else {
			present = s.hasKey(k)
		}
		if present || ok && slot.canonical && slot.written < 0 && s.whole() {
			continue
		}
		out = append(out, k)
	}
	return out
}

// reads returns the index of the subject's type, scanning the attributes
// into s.present, s.written and s.canonical on first use.
func (s *Subject) reads() *typeReads {
	if s.readIndex != nil {
		return s.readIndex
	}
	tr := loadPack().reads[s.Resource.Type]
	if tr == nil {
		tr = &typeReads{}
	}
	s.readIndex = tr
	if s.fastKeys() {
		// The fast decoder saw the keys: no scan.
		for i, slot := range tr.fields {
			if s.keys.has(i) {
				s.mark(slot)
			}
		}
		return tr
	}
	eachTopLevelKey(s.Resource.Attributes, func(name, _ []byte) bool {
		if slot, ok := tr.keys[string(name)]; ok {
			s.mark(slot)
		}
		return true
	})
	return tr
}

// mark records that the attributes hold the key of slot.
func (s *Subject) mark(slot keySlot) {
	if slot.read >= 0 {
		s.present |= 1 << slot.read
	}
	if slot.written >= 0 {
		s.written |= 1 << slot.written
	}
	s.canonical = s.canonical || slot.canonical
}

// fastKeys reports whether s.keys tells the record's keys (the fast
// decoder read it, and the type's fields are indexed).
func (s *Subject) fastKeys() bool {
	return s.keysKnown && s.reads().fields != nil
}

// hasKey reports whether the attributes hold the top-level key.
func (s *Subject) hasKey(key string) bool {
	if s.fastKeys() {
		// The record holds no key but its type's fields.
		slot, ok := s.reads().keys[key]
		return ok && slot.field > 0 && s.keys.has(int(slot.field)-1)
	}
	return hasTopLevelKey(s.Resource.Attributes, key)
}

// eachTopLevelKey calls fn with each key of the JSON object b's top level
// (unescaped when written with escapes) and its value, until fn returns
// false (jsonvalid.Members).
func eachTopLevelKey(b []byte, fn func(name, value []byte) bool) { jsonvalid.Members(b, fn) }
