package rest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
)

// csrfToken returns the consent form's token that goes with a browser's
// CSRF nonce (kept in a cookie): an HMAC of the nonce under Config.Secret.
// A form is genuine when its token matches its cookie's nonce (checkCSRF);
// an attacker able to plant a cookie still cannot make the matching token,
// and every replica, sharing the secret, accepts it.
func (a *api) csrfToken(nonce string) string {
	m := hmac.New(sha256.New, a.cfg.Secret)
	m.Write([]byte("fourd csrf\x00"))
	m.Write([]byte(nonce))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// checkCSRF reports whether token is csrfToken(nonce) for a nonce long
// enough to be random, under a configured secret.
func (a *api) checkCSRF(nonce, token string) bool {
	if len(a.cfg.Secret) < minSecret || len(nonce) < 20 || len(nonce) > 100 || token == "" {
		return false
	}
	return hmac.Equal([]byte(a.csrfToken(nonce)), []byte(token))
}

// minSecret is the shortest Config.Secret accepted.
const minSecret = 32
