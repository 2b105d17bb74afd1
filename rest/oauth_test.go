package rest

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/oauth2"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
)

// oauthConfig is how a third-party integration configures x/oauth2 for
// fourd, unchanged.
func (e *idEnv) oauthConfig(c identity.IssuedOAuthClient, style oauth2.AuthStyle, scopes ...string) *oauth2.Config {
	return &oauth2.Config{ClientID: c.Client.ID, ClientSecret: c.Secret, RedirectURL: e.redirect, Scopes: scopes,
		Endpoint: oauth2.Endpoint{AuthURL: e.url + "/oauth/authorize", TokenURL: e.url + "/oauth/token", AuthStyle: style}}
}

// TestOAuthFlowWithXOAuth2 drives the whole authorization code flow with
// golang.org/x/oauth2: AuthCodeURL with PKCE, the consent form posted like
// a browser, Exchange, API calls with the token, refresh through a
// TokenSource with rotation, and reuse detection.
func TestOAuthFlowWithXOAuth2(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, idOptions{})
	for _, style := range []struct {
		name  string
		style oauth2.AuthStyle
	}{{"form fields", oauth2.AuthStyleInParams}, {"HTTP Basic", oauth2.AuthStyleInHeader}} {
		t.Run(style.name, func(t *testing.T) {
			ctx := context.WithValue(context.Background(), oauth2.HTTPClient, e.client)
			cfg := e.oauthConfig(e.client1, style.style, "findings:read", "resources:read", "webhooks:write")
			verifier := oauth2.GenerateVerifier()
			authURL := cfg.AuthCodeURL("st4te-"+style.name, oauth2.S256ChallengeOption(verifier))
			code := e.approve(t, authURL, "ada@acme.test")
			if !strings.HasPrefix(code, identity.OAuthCodePrefix) {
				t.Fatalf("code %q lacks the fdc_ prefix", code)
			}
			tok, err := cfg.Exchange(ctx, code, oauth2.VerifierOption(verifier))
			if err != nil {
				t.Fatalf("Exchange: %v", err)
			}
			if !strings.HasPrefix(tok.AccessToken, identity.OAuthAccessPrefix) || !strings.HasPrefix(tok.RefreshToken, identity.OAuthRefreshPrefix) ||
				tok.TokenType != "Bearer" || tok.Expiry.Sub(time.Now()) < 59*time.Minute || tok.Expiry.Sub(time.Now()) > 61*time.Minute {
				t.Fatalf("token: %+v", tok)
			}
			if diff := cmp.Diff("findings:read resources:read webhooks:write", tok.Extra("scope")); diff != "" {
				t.Errorf("granted scope (-want +got):\n%s", diff)
			}
			// The token works on the API, in acme, with its scopes only.
			api := cfg.Client(ctx, tok)
			list := getWith(t, api, e.url+"/v1/findings?limit=200")
			if list.status != http.StatusOK || !strings.Contains(string(list.body), e.a.Findings[0].ID) {
				t.Fatalf("GET /v1/findings with the OAuth token: %d %.200s", list.status, list.body)
			}
			if r := getWith(t, api, e.url+"/v1/policies"); r.status != http.StatusForbidden || errCode(r.body) != engine.CodeInsufficientScope {
				t.Errorf("GET /v1/policies without policies:read: %d %s", r.status, r.body)
			}
			// Refresh through a TokenSource: the expired token is replaced,
			// and the refresh token rotates.
			old := *tok
			expired := *tok
			expired.Expiry = time.Now().Add(-time.Minute)
			fresh, err := cfg.TokenSource(ctx, &expired).Token()
			if err != nil {
				t.Fatalf("refresh: %v", err)
			}
			if fresh.AccessToken == old.AccessToken || fresh.RefreshToken == old.RefreshToken || fresh.RefreshToken == "" {
				t.Fatalf("refresh did not rotate: %+v", fresh)
			}
			if r := getWith(t, cfg.Client(ctx, fresh), e.url+"/v1/resources"); r.status != http.StatusOK {
				t.Fatalf("GET /v1/resources with the refreshed token: %d %s", r.status, r.body)
			}
			// Reusing the spent refresh token is refused and revokes the
			// grant: the fresh tokens stop working at once (this replica).
			_, err = cfg.TokenSource(ctx, &expired).Token()
			var re *oauth2.RetrieveError
			if !errors.As(err, &re) || re.Response.StatusCode != http.StatusBadRequest || re.ErrorCode != engine.CodeInvalidGrant ||
				re.ErrorDescription == "" {
				t.Fatalf("reused refresh token: %v", err)
			}
			if r := getWith(t, cfg.Client(ctx, fresh), e.url+"/v1/resources"); r.status != http.StatusUnauthorized {
				t.Errorf("access token of a revoked grant: %d, want 401", r.status)
			}
			fresh.Expiry = time.Now().Add(-time.Minute)
			if _, err := cfg.TokenSource(ctx, fresh).Token(); err == nil {
				t.Error("the rotated refresh token of a revoked grant still works")
			}
		})
	}
}

// getWith sends GET with a client that authenticates itself (x/oauth2's),
// validating the answer against the OpenAPI document.
func getWith(t *testing.T, c *http.Client, u string) response {
	t.Helper()
	return do(t, c, http.MethodGet, u, "", nil, nil)
}

// TestOAuthRevoke revokes access and refresh tokens through /oauth/revoke
// (RFC 7009).
func TestOAuthRevoke(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, idOptions{})
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, e.client)
	cfg := e.oauthConfig(e.client1, oauth2.AuthStyleInParams, "findings:read")
	grant := func() *oauth2.Token {
		tok, err := cfg.Exchange(ctx, e.approve(t, cfg.AuthCodeURL("s"), "ada@acme.test"))
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	form := func(token string) map[string][]string {
		return map[string][]string{"token": {token}, "client_id": {e.client1.Client.ID}, "client_secret": {e.client1.Secret}}
	}
	t.Run("access token", func(t *testing.T) {
		tok := grant()
		if status, code, _ := e.postForm(t, "/oauth/revoke", form(tok.AccessToken), nil); status != http.StatusOK {
			t.Fatalf("revoke: %d %s", status, code)
		}
		if r := getWith(t, cfg.Client(ctx, tok), e.url+"/v1/findings"); r.status != http.StatusUnauthorized {
			t.Errorf("revoked access token: %d", r.status)
		}
	})
	t.Run("refresh token revokes the grant", func(t *testing.T) {
		tok := grant()
		if status, code, _ := e.postForm(t, "/oauth/revoke", form(tok.RefreshToken), nil); status != http.StatusOK {
			t.Fatalf("revoke: %d %s", status, code)
		}
		if r := getWith(t, cfg.Client(ctx, tok), e.url+"/v1/findings"); r.status != http.StatusUnauthorized {
			t.Errorf("access token of a revoked grant: %d", r.status)
		}
	})
	t.Run("another client's token is left alone", func(t *testing.T) {
		tok := grant()
		f := form(tok.AccessToken)
		f["client_id"], f["client_secret"] = []string{e.clientB.Client.ID}, []string{e.clientB.Secret}
		if status, code, _ := e.postForm(t, "/oauth/revoke", f, nil); status != http.StatusOK {
			t.Fatalf("revoke: %d %s", status, code)
		}
		if r := getWith(t, cfg.Client(ctx, tok), e.url+"/v1/findings"); r.status != http.StatusOK {
			t.Errorf("token revoked by another client: %d", r.status)
		}
	})
	t.Run("unknown token", func(t *testing.T) {
		if status, code, _ := e.postForm(t, "/oauth/revoke", form("fdo_nothing_like_a_real_token_at_all"), nil); status != http.StatusOK {
			t.Errorf("unknown token: %d %s", status, code)
		}
	})
}
