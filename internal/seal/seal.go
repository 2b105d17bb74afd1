// Package seal keeps secrets the server must read back (webhook signing
// secrets, answers kept for Idempotency-Key replays) encrypted under a key
// derived from the server's master secret (FOURD_SECRET), never in clear.
package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
)

// sealedPrefix versions the sealed format, so the key derivation or cipher
// can change later without ambiguity.
const sealedPrefix = "v1:"

// MinKey is the shortest master secret Seal and Open accept, in bytes.
const MinKey = 32

// ErrSealed is returned by Open for a value that is not sealed, was sealed
// with another key or purpose, or was altered.
var ErrSealed = errors.New("sealed value is invalid or sealed with another key")

// Seal encrypts plaintext with AES-256-GCM under a key derived from master
// (at least 32 bytes) with HKDF-SHA256 and info, which names the purpose so
// that keys of different purposes differ. The result is "v1:" and
// base64url(nonce ‖ ciphertext ‖ tag); sealing the same value twice gives
// different results.
func Seal(master []byte, info string, plaintext []byte) (string, error) {
	aead, err := sealAEAD(master, info)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plaintext)+aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	out := aead.Seal(nonce, nonce, plaintext, []byte(sealedPrefix))
	return sealedPrefix + base64.RawURLEncoding.EncodeToString(out), nil
}

// Open decrypts a value made by Seal with the same master key and info. It
// returns ErrSealed when the value is malformed, altered, or sealed under
// another key.
func Open(master []byte, info, sealed string) ([]byte, error) {
	aead, err := sealAEAD(master, info)
	if err != nil {
		return nil, err
	}
	rest, ok := strings.CutPrefix(sealed, sealedPrefix)
	if !ok {
		return nil, ErrSealed
	}
	raw, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil || len(raw) < aead.NonceSize()+aead.Overhead() {
		return nil, ErrSealed
	}
	nonce, ct := raw[:aead.NonceSize()], raw[aead.NonceSize():]
	pt, err := aead.Open(nil, nonce, ct, []byte(sealedPrefix))
	if err != nil {
		return nil, ErrSealed
	}
	return pt, nil
}

// sealAEAD derives the AES-256 key for info from master and returns the
// GCM cipher.
func sealAEAD(master []byte, info string) (cipher.AEAD, error) {
	if len(master) < MinKey {
		return nil, errors.New("sealing: master key must be at least 32 bytes")
	}
	key, err := hkdf.Key(sha256.New, master, nil, info, 32)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}
