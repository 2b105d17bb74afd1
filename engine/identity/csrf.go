package identity

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
)

// CSRFToken returns the form token that goes with a browser's CSRF nonce
// (kept in a cookie): an HMAC of the nonce under the service secret. A
// form is genuine when its token matches its cookie's nonce (CheckCSRF); an
// attacker able to plant a cookie still cannot make the matching token,
// and every replica, sharing the secret, accepts it.
func (s *Service) CSRFToken(nonce string) string {
	m := hmac.New(sha256.New, s.cfg.Secret)
	m.Write([]byte("fourd csrf\x00"))
	m.Write([]byte(nonce))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// CheckCSRF reports whether token is CSRFToken(nonce) for a nonce long
// enough to be random.
func (s *Service) CheckCSRF(nonce, token string) bool {
	if len(nonce) < 20 || len(nonce) > 100 || token == "" {
		return false
	}
	return hmac.Equal([]byte(s.CSRFToken(nonce)), []byte(token))
}
