package rest

import (
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// TestCSRF checks the consent form's tokens: only the nonce's own token
// under the configured secret passes.
func TestCSRF(t *testing.T) {
	a := &api{cfg: Config{Secret: []byte(strings.Repeat("s", 32))}}
	nonce := engine.RandomToken(24)
	tok := a.csrfToken(nonce)
	cases := []struct {
		name, nonce, token string
		want               bool
	}{
		{"match", nonce, tok, true},
		{"other nonce", engine.RandomToken(24), tok, false},
		{"empty token", nonce, "", false},
		{"short nonce", "abc", a.csrfToken("abc"), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := a.checkCSRF(c.nonce, c.token); got != c.want {
				t.Errorf("checkCSRF = %v, want %v", got, c.want)
			}
		})
	}
	// Without a secret an HMAC proves nothing: every form is refused.
	if none := (&api{}); none.checkCSRF(nonce, none.csrfToken(nonce)) {
		t.Error("checkCSRF without a secret accepts a token")
	}
}
