package engine

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// Page sizes.
const (
	DefaultLimit = 50
	MaxLimit     = 200
)

// Page is one page of a keyset-paginated list.
type Page[T any] struct {
	Items      []T
	NextCursor string // empty when HasMore is false
	HasMore    bool
	// Key, when not empty, names this page exactly: pages with the same Key
	// (from the same Service) are equal, NextCursor included, so an adapter
	// may keep what it makes of a page (its encoded body) under the Key and
	// the tenant. Empty when the page cannot be named (its content is not
	// known to be immutable).
	Key string
}

// PageRequest is what a caller asks of a list: how many items and from where.
type PageRequest struct {
	Limit  int    // 0 means DefaultLimit
	Cursor string // empty for the first page
	// Shared says the caller only reads the page's Items (to encode them):
	// a page kept by the Service may then be returned without a copy, its
	// Items shared with other callers and never to be modified.
	Shared bool
}

// ParseLimit validates a limit as sent in a query string. Empty is the
// default; anything but an integer in 1..200 is invalid_limit (no clamping).
func ParseLimit(s string) (int, error) {
	if s == "" {
		return DefaultLimit, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 || n > MaxLimit {
		return 0, &Error{Code: CodeInvalidLimit, Field: "limit",
			Message: "limit must be an integer from 1 to 200; got " + quote(s)}
	}
	return n, nil
}

// PageSize returns the page size asked: Limit, DefaultLimit for 0, and
// invalid_limit outside 1..MaxLimit.
func (r PageRequest) PageSize() (int, error) {
	if r.Limit == 0 {
		return DefaultLimit, nil
	}
	if r.Limit < 1 || r.Limit > MaxLimit {
		return 0, &Error{Code: CodeInvalidLimit, Field: "limit",
			Message: "limit must be an integer from 1 to 200; got " + strconv.Itoa(r.Limit)}
	}
	return r.Limit, nil
}

// cursorCodec makes cursors opaque and tamper-proof: a cursor is the
// base64url JSON of its position, the tenant, the collection with a hash of
// the filters it was made for, and its expiry, followed by an HMAC of all of
// it. A cursor is only accepted by the same tenant, collection and filters.
type cursorCodec struct {
	key []byte
	ttl time.Duration
	now func() time.Time
}

type cursorEnvelope struct {
	Scope   string          `json:"c"` // collection + "|" + filter fingerprint
	Tenant  string          `json:"t"`
	Expires int64           `json:"e"`
	Key     json.RawMessage `json:"k"`
}

func newCursorCodec(secret []byte, ttl time.Duration, now func() time.Time) *cursorCodec {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte("fourd cursor v1"))
	return &cursorCodec{key: mac.Sum(nil), ttl: ttl, now: now}
}

func (c *cursorCodec) sign(b []byte) []byte {
	mac := hmac.New(sha256.New, c.key)
	mac.Write(b)
	return mac.Sum(nil)[:16]
}

// encode returns the cursor for position key in the given scope.
func (c *cursorCodec) encode(tenant, scope string, key any) string {
	k, err := json.Marshal(key)
	if err != nil {
		panic("engine: cursor key: " + err.Error())
	}
	body, _ := json.Marshal(cursorEnvelope{Scope: scope, Tenant: tenant, Expires: c.now().Add(c.ttl).Unix(), Key: k})
	enc := base64.RawURLEncoding
	return enc.EncodeToString(body) + "." + enc.EncodeToString(c.sign(body))
}

// decode verifies cursor s for tenant and scope and fills key.
func (c *cursorCodec) decode(s, tenant, scope string, key any) error {
	bad := func(why string) error {
		return &Error{Code: CodeInvalidCursor, Field: "cursor", Message: "cursor " + why + "; start again without a cursor"}
	}
	enc := base64.RawURLEncoding
	bodyPart, sigPart, ok := strings.Cut(s, ".")
	if !ok || len(s) > 4096 {
		return bad("is malformed")
	}
	body, err1 := enc.DecodeString(bodyPart)
	sig, err2 := enc.DecodeString(sigPart)
	if err1 != nil || err2 != nil {
		return bad("is malformed")
	}
	if !hmac.Equal(sig, c.sign(body)) {
		return bad("is not valid")
	}
	var env cursorEnvelope
	if err := json.Unmarshal(body, &env); err != nil {
		return bad("is malformed")
	}
	if env.Tenant != tenant {
		return bad("is not valid")
	}
	if env.Scope != scope {
		return bad("was made for another list or other filters")
	}
	if c.now().Unix() > env.Expires {
		return bad("has expired")
	}
	if err := json.Unmarshal(env.Key, key); err != nil {
		return bad("is malformed")
	}
	return nil
}

// fingerprint returns a short stable hash of filter values, binding a cursor
// to the filters it was made with.
func fingerprint(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:9])
}
