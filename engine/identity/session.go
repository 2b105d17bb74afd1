package identity

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// ConsentSessionTTL bounds a consent-page session: within it a browser that
// signed in approves further authorizations without the password again;
// after it, the password is asked again.
const ConsentSessionTTL = 8 * time.Hour

// ConsentSession returns the value of the consent page's session cookie for
// a user who just signed in, and when it expires: the user, the tenant and
// the expiry, signed with the service secret (HMAC-SHA256), so every
// replica accepts it and nothing is stored.
func (s *Service) ConsentSession(u engine.User) (string, time.Time) {
	exp := s.now().Add(ConsentSessionTTL).Truncate(time.Second)
	payload := base64.RawURLEncoding.EncodeToString([]byte(u.ID + "\x00" + u.TenantID + "\x00" + strconv.FormatInt(exp.Unix(), 10)))
	return payload + "." + s.sessionMAC(payload), exp
}

func (s *Service) sessionMAC(payload string) string {
	m := hmac.New(sha256.New, s.cfg.Secret)
	m.Write([]byte("fourd consent session\x00"))
	m.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// SessionUser returns the user a consent-page session signed in, when the
// session is genuine, unexpired, of the tenant asked for (the client's) and
// its user still exists and is not disabled; unauthorized otherwise.
func (s *Service) SessionUser(ctx context.Context, tenantID, session string) (engine.User, error) {
	ids, err := s.identity()
	if err != nil {
		return engine.User{}, err
	}
	bad := engine.Errorf(engine.CodeUnauthorized, "sign in again")
	payload, mac, ok := strings.Cut(session, ".")
	if !ok || len(session) > 300 || !hmac.Equal([]byte(mac), []byte(s.sessionMAC(payload))) {
		return engine.User{}, bad
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	parts := strings.Split(string(raw), "\x00")
	if err != nil || len(parts) != 3 {
		return engine.User{}, bad
	}
	exp, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil || !s.now().Before(time.Unix(exp, 0)) || parts[1] != tenantID {
		return engine.User{}, bad
	}
	u, err := ids.GetUser(ctx, tenantID, parts[0])
	if engine.IsNotFound(err) || (err == nil && u.DisabledAt != nil) {
		return engine.User{}, bad
	}
	return u, err
}

// ApproveAuthorizationInSession is ApproveAuthorization for a browser whose
// session (the cookie's value) signed its user in: the same checks and
// code, without the password. unauthorized when SessionUser refuses the
// session (the page asks for the password then).
func (s *Service) ApproveAuthorizationInSession(ctx context.Context, req AuthorizeRequest, session string) (Authorization, error) {
	g, err := s.CheckAuthorizeRequest(ctx, req)
	if err != nil {
		return Authorization{RedirectURI: g.RedirectURI}, err
	}
	u, err := s.SessionUser(ctx, g.Client.TenantID, session)
	if err != nil {
		return Authorization{}, err
	}
	return s.approve(ctx, req, g, u)
}
