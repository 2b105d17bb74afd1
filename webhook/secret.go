package webhook

import (
	"errors"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/seal"
)

// SigningSecretPrefix starts every endpoint signing secret, so secret
// scanners and people recognize one.
const SigningSecretPrefix = "whsec_"

// signingSecretBytes is the entropy of a signing secret.
const signingSecretBytes = 32

// sealInfo separates this key from other keys derived from the same master
// secret (FOURD_SECRET keys cursors and idempotent answers too).
const sealInfo = "fourd/webhook/endpoint-secret/v1"

// ErrSealedSecret is returned by OpenSecret for a value that is not a
// sealed secret or was not sealed with this key (or was altered).
var ErrSealedSecret = errors.New("webhook: sealed secret is invalid or sealed with another key")

// NewSigningSecret returns a new endpoint signing secret: "whsec_" and 32
// random bytes in lowercase base32 (52 characters). The HMAC key is the
// whole string's bytes, prefix included.
func NewSigningSecret() string {
	return SigningSecretPrefix + engine.RandomToken(signingSecretBytes)
}

// SealSecret encrypts an endpoint secret for storage (seal.Seal under a
// key derived from master, FOURD_SECRET, for endpoint secrets only). The
// result is "v1:" and base64url(nonce ‖ ciphertext ‖ tag); sealing the same
// secret twice gives different values.
func SealSecret(master []byte, plaintext string) (string, error) {
	return seal.Seal(master, sealInfo, []byte(plaintext))
}

// OpenSecret decrypts a value made by SealSecret with the same master key.
// It returns ErrSealedSecret when the value is malformed, altered, or
// sealed under another key.
func OpenSecret(master []byte, sealed string) (string, error) {
	pt, err := seal.Open(master, sealInfo, sealed)
	if errors.Is(err, seal.ErrSealed) {
		return "", ErrSealedSecret
	}
	return string(pt), err
}
