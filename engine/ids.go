package engine

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"strings"
	"time"
)

// Id prefixes. Every id is <prefix>_<26 chars of lowercase Crockford base32>.
const (
	PrefixFinding     = "fnd"
	PrefixResource    = "res"
	PrefixAudit       = "aud"
	PrefixPolicy      = "pol"
	PrefixReport      = "rpt"
	PrefixEvent       = "evt"
	PrefixRequest     = "req"
	PrefixWebhook     = "whe"
	PrefixToken       = "pat"
	PrefixUser        = "usr"
	PrefixTenant      = "ten"
	PrefixOAuthClient = "cli"
	PrefixDelivery    = "dlv"
)

// IDAlphabet is Crockford's base32 in lowercase, the digits of every id;
// its order matches byte order, so ids sort like the numbers they encode.
// This is the one definition: stores that pack ids into numbers use it
// (and IDDigit), never a copy.
const IDAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

const idBodyLen = 26

// NewID returns a new time-sortable id (a ULID: 48 bits of milliseconds and
// 80 random bits) with the given prefix.
func NewID(prefix string, now time.Time) string {
	var b [16]byte
	ms := uint64(now.UnixMilli())
	b[0], b[1], b[2], b[3], b[4], b[5] = byte(ms>>40), byte(ms>>32), byte(ms>>24), byte(ms>>16), byte(ms>>8), byte(ms)
	if _, err := rand.Read(b[6:]); err != nil {
		panic("engine: crypto/rand failed: " + err.Error())
	}
	return encodeWithPrefix(prefix, b)
}

// DerivedID returns the id that the given parts always map to, so that the
// same (tenant, rule, resource) is the same finding in every audit.
func DerivedID(prefix string, parts ...string) string {
	// Hashing one buffer (on the stack for the usual short parts) costs a
	// fraction of streaming the parts through a hash.Hash: derived ids are
	// computed for every finding of every audit.
	var stack [256]byte
	buf := stack[:0]
	for _, p := range parts {
		buf = append(buf, p...)
		buf = append(buf, 0)
	}
	sum := sha256.Sum256(buf)
	return encodeWithPrefix(prefix, [16]byte(sum[:16]))
}

// FindingID is the stable id of the finding that rule (a rule or policy id)
// raises on a resource of a tenant.
func FindingID(tenantID, ruleID, resourceID string) string {
	return DerivedID(PrefixFinding, tenantID, ruleID, resourceID)
}

// ResourceID is the stable id of a cloud object of a tenant, derived from
// its provider and native id (an ARN, for AWS), which makes ingestion
// idempotent without a lookup.
func ResourceID(tenantID, provider, nativeID string) string {
	return DerivedID(PrefixResource, tenantID, provider, nativeID)
}

// encodeWithPrefix is prefix + "_" + encodeID(b) in one allocation.
func encodeWithPrefix(prefix string, b [16]byte) string {
	var stack [64]byte
	out := append(stack[:0], prefix...)
	out = append(out, '_')
	n := len(out)
	out = append(out, make([]byte, idBodyLen)...)
	encodeIDInto(out[n:], b)
	return string(out)
}

// encodeIDInto writes the idBodyLen characters of b into out.
func encodeIDInto(out []byte, b [16]byte) {
	hi := binary.BigEndian.Uint64(b[:8])
	lo := binary.BigEndian.Uint64(b[8:])
	// 128 bits in 26 groups of 5 bits: the first group holds the top 3 bits.
	for i := idBodyLen - 1; i >= 0; i-- {
		out[i] = IDAlphabet[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
}

// inIDAlphabet[c] says whether byte c is in IDAlphabet.
var inIDAlphabet = func() (t [256]bool) {
	for i := range len(IDAlphabet) {
		t[IDAlphabet[i]] = true
	}
	return t
}()

// idDigit[c] is the value of the digit c of IDAlphabet.
var idDigit = func() (t [256]byte) {
	for i := range len(IDAlphabet) {
		t[IDAlphabet[i]] = byte(i)
	}
	return t
}()

// IDDigit returns the value of c as a digit of IDAlphabet; ok is false
// for any other byte.
func IDDigit(c byte) (v byte, ok bool) { return idDigit[c], inIDAlphabet[c] }

// IDTime returns when a time-sortable id (NewID) was made, to the
// millisecond: its first 48 bits. Zero for an id that is not well formed.
func IDTime(id string) time.Time {
	i := strings.IndexByte(id, '_')
	if i < 0 {
		return time.Time{}
	}
	b, ok := ParseID(id[:i], id)
	if !ok {
		return time.Time{}
	}
	ms := int64(b[0])<<40 | int64(b[1])<<32 | int64(b[2])<<24 | int64(b[3])<<16 | int64(b[4])<<8 | int64(b[5])
	return time.UnixMilli(ms).UTC()
}

// ValidID reports whether s is a well-formed id with the given prefix.
func ValidID(prefix, s string) bool {
	if len(s) != len(prefix)+1+idBodyLen || s[:len(prefix)] != prefix || s[len(prefix)] != '_' {
		return false
	}
	body := s[len(prefix)+1:]
	if body[0] > '7' { // only 3 bits in the first group
		return false
	}
	for i := 0; i < len(body); i++ {
		if !inIDAlphabet[body[i]] {
			return false
		}
	}
	return true
}

// RandomToken returns n random bytes encoded in the id alphabet, for
// secrets such as tokens (fdp_…) and signing secrets (whsec_…).
func RandomToken(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("engine: crypto/rand failed: " + err.Error())
	}
	var sb strings.Builder
	var acc uint32
	bits := 0
	for _, c := range b {
		acc = acc<<8 | uint32(c)
		bits += 8
		for bits >= 5 {
			bits -= 5
			sb.WriteByte(IDAlphabet[(acc>>bits)&31])
		}
	}
	if bits > 0 {
		sb.WriteByte(IDAlphabet[(acc<<(5-bits))&31])
	}
	return sb.String()
}

// ParseID returns the 128 bits an id with the given prefix encodes; ok is
// false unless ValidID(prefix, s), so that two ids parse alike only if they
// are equal.
func ParseID(prefix, s string) (b [16]byte, ok bool) {
	if len(s) != len(prefix)+1+idBodyLen || s[:len(prefix)] != prefix || s[len(prefix)] != '_' {
		return b, false
	}
	body := s[len(prefix)+1:]
	if body[0] > '7' { // only 3 bits in the first group
		return b, false
	}
	// One pass decodes and checks (as ValidID does): a snapshot write
	// parses every finding's id.
	var hi, lo uint64
	var bad byte
	for i := range idBodyLen {
		d := idDigitOrBad[body[i]]
		bad |= d
		hi = hi<<5 | lo>>59
		lo = lo<<5 | uint64(d&31)
	}
	if bad&idBadDigit != 0 {
		return [16]byte{}, false
	}
	binary.BigEndian.PutUint64(b[:8], hi)
	binary.BigEndian.PutUint64(b[8:], lo)
	return b, true
}

// idBadDigit marks the bytes outside IDAlphabet in idDigitOrBad.
const idBadDigit = 0x80

// idDigitOrBad[c] is the value of the digit c of IDAlphabet, or
// idBadDigit for any other byte.
var idDigitOrBad = func() (t [256]byte) {
	for c := range t {
		t[c] = idBadDigit
	}
	for i := range len(IDAlphabet) {
		t[IDAlphabet[i]] = byte(i)
	}
	return t
}()

// FormatID is the id with the given prefix that encodes b (ParseID's
// inverse).
func FormatID(prefix string, b [16]byte) string { return encodeWithPrefix(prefix, b) }

// IDRun hands out ids that follow one another as monotonic ULIDs do: the
// first is a NewID (its top random bit cleared, so that the run cannot
// overflow into the time), each next one the previous plus one. Events
// made as a run can be stored as one outbox row and still keep ids of
// their own (store/postgres: event_batches).
type IDRun struct {
	prefix string
	next   [16]byte
}

// NewIDRun starts a run of ids made at now.
func NewIDRun(prefix string, now time.Time) *IDRun {
	var b [16]byte
	ms := uint64(now.UnixMilli())
	b[0], b[1], b[2], b[3], b[4], b[5] = byte(ms>>40), byte(ms>>32), byte(ms>>24), byte(ms>>16), byte(ms>>8), byte(ms)
	if _, err := rand.Read(b[6:]); err != nil {
		panic("engine: crypto/rand failed: " + err.Error())
	}
	b[6] &= 0x7f
	return &IDRun{prefix: prefix, next: b}
}

// Next returns the run's next id.
func (r *IDRun) Next() string {
	id := encodeWithPrefix(r.prefix, r.next)
	lo := binary.BigEndian.Uint64(r.next[8:]) + 1
	binary.BigEndian.PutUint64(r.next[8:], lo)
	if lo == 0 {
		binary.BigEndian.PutUint64(r.next[:8], binary.BigEndian.Uint64(r.next[:8])+1)
	}
	return id
}

// Id prefixes of OAuth records (beside PrefixOAuthClient, cli_).
const (
	PrefixOAuthToken = "oat" // an access or refresh token
	PrefixOAuthGrant = "grt" // a grant: one code and every token issued from it
)
