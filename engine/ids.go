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

// idAlphabet is Crockford's base32 in lowercase; its order matches byte
// order, so ids sort like the numbers they encode.
const idAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

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
	return prefix + "_" + encodeID(b)
}

// DerivedID returns the id that the given parts always map to, so that the
// same (tenant, rule, resource) is the same finding in every audit.
func DerivedID(prefix string, parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	var b [16]byte
	copy(b[:], h.Sum(nil))
	return prefix + "_" + encodeID(b)
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

func encodeID(b [16]byte) string {
	hi := binary.BigEndian.Uint64(b[:8])
	lo := binary.BigEndian.Uint64(b[8:])
	var out [idBodyLen]byte
	// 128 bits in 26 groups of 5 bits: the first group holds the top 3 bits.
	for i := idBodyLen - 1; i >= 0; i-- {
		out[i] = idAlphabet[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
	return string(out[:])
}

// ValidID reports whether s is a well-formed id with the given prefix.
func ValidID(prefix, s string) bool {
	if len(s) != len(prefix)+1+idBodyLen || !strings.HasPrefix(s, prefix+"_") {
		return false
	}
	body := s[len(prefix)+1:]
	if body[0] > '7' { // only 3 bits in the first group
		return false
	}
	for i := 0; i < len(body); i++ {
		if strings.IndexByte(idAlphabet, body[i]) < 0 {
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
			sb.WriteByte(idAlphabet[(acc>>bits)&31])
		}
	}
	if bits > 0 {
		sb.WriteByte(idAlphabet[(acc<<(5-bits))&31])
	}
	return sb.String()
}
