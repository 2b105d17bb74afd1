package webhook

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// SigningSecretPrefix starts every endpoint signing secret, so secret
// scanners and people recognize one.
const SigningSecretPrefix = "whsec_"

// signingSecretBytes is the entropy of a signing secret.
const signingSecretBytes = 32

// sealedPrefix versions the sealed format, so the key derivation or cipher
// can change later without ambiguity.
const sealedPrefix = "v1:"

// sealInfo separates this key from other keys derived from the same master
// secret (FOURD_SECRET keys cursors too).
const sealInfo = "fourd/webhook/endpoint-secret/v1"

// minMasterKey is the shortest master secret accepted.
const minMasterKey = 32

// ErrSealedSecret is returned by OpenSecret for a value that is not a
// sealed secret or was not sealed with this key (or was altered).
var ErrSealedSecret = errors.New("webhook: sealed secret is invalid or sealed with another key")

// NewSigningSecret returns a new endpoint signing secret: "whsec_" and 32
// random bytes in lowercase base32 (52 characters). The HMAC key is the
// whole string's bytes, prefix included.
func NewSigningSecret() string {
	return SigningSecretPrefix + engine.RandomToken(signingSecretBytes)
}

// SealSecret encrypts an endpoint secret for storage with AES-256-GCM under
// a key derived from master (FOURD_SECRET, at least 32 bytes). The result
// is "v1:" and base64url(nonce ‖ ciphertext ‖ tag); sealing the same
// secret twice gives different values.
func SealSecret(master []byte, plaintext string) (string, error) {
	aead, err := sealAEAD(master)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plaintext)+aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	out := aead.Seal(nonce, nonce, []byte(plaintext), []byte(sealedPrefix))
	return sealedPrefix + base64.RawURLEncoding.EncodeToString(out), nil
}

// OpenSecret decrypts a value made by SealSecret with the same master key.
// It returns ErrSealedSecret when the value is malformed, altered, or
// sealed under another key.
func OpenSecret(master []byte, sealed string) (string, error) {
	aead, err := sealAEAD(master)
	if err != nil {
		return "", err
	}
	rest, ok := strings.CutPrefix(sealed, sealedPrefix)
	if !ok {
		return "", ErrSealedSecret
	}
	raw, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil || len(raw) < aead.NonceSize()+aead.Overhead() {
		return "", ErrSealedSecret
	}
	nonce, ct := raw[:aead.NonceSize()], raw[aead.NonceSize():]
	pt, err := aead.Open(nil, nonce, ct, []byte(sealedPrefix))
	if err != nil {
		return "", ErrSealedSecret
	}
	return string(pt), nil
}

// sealAEAD derives the AES-256 key from master with HKDF-SHA256 (info
// sealInfo) and returns the GCM cipher.
func sealAEAD(master []byte) (cipher.AEAD, error) {
	if len(master) < minMasterKey {
		return nil, errors.New("webhook: master key must be at least 32 bytes")
	}
	key, err := hkdf.Key(sha256.New, master, nil, sealInfo, 32)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}
