package identity

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"
	"sync"

	"github.com/fourd-dev/fourd/engine"
	"golang.org/x/crypto/argon2"
	"golang.org/x/crypto/bcrypt"
)

// Password hashing: argon2id with the parameters OWASP recommends for it
// (19 MiB, two passes, one lane), in the PHC string format that other tools
// read. bcrypt hashes ($2a$, $2b$, $2y$), as imported from elsewhere, are
// verified too.
const (
	argonMemoryKiB = 19 * 1024
	argonTime      = 2
	argonThreads   = 1
	argonKeyLen    = 32
	argonSaltLen   = 16
	// MinPasswordLen and MaxPasswordLen bound a password (NIST SP 800-63B:
	// at least 8; a maximum keeps hashing cost bounded).
	MinPasswordLen = 8
	MaxPasswordLen = 256
)

// HashPassword returns the argon2id PHC string of password; validation_failed
// for a password shorter than MinPasswordLen or longer than MaxPasswordLen.
func HashPassword(password string) (string, error) {
	if n := len([]rune(password)); n < MinPasswordLen || len(password) > MaxPasswordLen {
		return "", engine.FieldErrorf("password", "the password must be %d to %d characters long", MinPasswordLen, MaxPasswordLen)
	}
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("engine: reading random salt: %w", err)
	}
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemoryKiB, argonTime,
		argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// VerifyPassword reports whether password matches hash (argon2id PHC or
// bcrypt). A malformed or empty hash never matches.
func VerifyPassword(hash, password string) bool {
	if len(password) > MaxPasswordLen {
		return false
	}
	if strings.HasPrefix(hash, "$2a$") || strings.HasPrefix(hash, "$2b$") || strings.HasPrefix(hash, "$2y$") {
		return bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)) == nil
	}
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return false
	}
	var m uint32
	var t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m == 0 || m > 1<<20 || t == 0 || t > 16 || p == 0 {
		return false
	}
	b64 := base64.RawStdEncoding
	salt, err1 := b64.DecodeString(parts[4])
	want, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) < 16 || len(want) > 64 {
		return false
	}
	got := argon2.IDKey([]byte(password), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// dummyPasswordHash is verified when no user has the email, so that a
// failed sign-in takes as long for an unknown email as for a wrong password.
// It is made on first use, not when the package loads.
var dummyPasswordHash = sync.OnceValue(func() string {
	h, err := HashPassword("not a real password, only spends time")
	if err != nil {
		panic(err) // cannot happen: the password has a valid length
	}
	return h
})
