package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
)

// oauthClientCmd runs `fourd oauth-client create --tenant T --name N
// --redirect-uri U [--redirect-uri U2] [--scopes findings:read,…]`: it
// registers a third-party application and prints its id and secret (the
// secret alone on the last line, shown once). --scopes lets the client use
// grant_type=client_credentials; such a client needs no redirect URI.
func oauthClientCmd(ctx context.Context, cfg config, log *slog.Logger, args []string, stdout io.Writer) error {
	if len(args) == 0 || args[0] != "create" {
		return usageError{"oauth-client: want: oauth-client create --tenant T --name N --redirect-uri U [--scopes S1,S2]"}
	}
	fs := newFlags("oauth-client create", stdout)
	tenant := fs.String("tenant", "", "tenant slug (created when missing)")
	name := fs.String("name", "", "the application's name, shown on the consent page")
	var uris stringList
	fs.Var(&uris, "redirect-uri", "an exact redirect URI (repeat for several)")
	rate := fs.Int("rate-limit", 0, "requests a minute for each of the client's access tokens (0: the default)")
	scopeList := fs.String("scopes", "", "comma-separated scopes for grant_type=client_credentials (machine-to-machine, no user)")
	if err := fs.Parse(args[1:]); err != nil {
		return usageError{err.Error()}
	}
	var scopes []engine.Scope
	for _, sc := range strings.Split(*scopeList, ",") {
		if sc = strings.TrimSpace(sc); sc != "" {
			scopes = append(scopes, engine.Scope(sc))
		}
	}
	if *tenant == "" || *name == "" || (len(uris) == 0 && len(scopes) == 0) {
		return usageError{"oauth-client create: --tenant, --name and --redirect-uri (or --scopes) are required"}
	}
	s, err := openStores(ctx, cfg, log, true)
	if err != nil {
		return err
	}
	defer s.close()
	ops, err := newOperator(log, s, cfg.secretOrEphemeral())
	if err != nil {
		return err
	}
	ic, err := ops.RegisterOAuthClient(ctx, *tenant, identity.CreateOAuthClientInput{Name: *name, RedirectURIs: uris, RateLimit: *rate, Scopes: scopes})
	if err != nil {
		return err
	}
	redirects := strings.Join(ic.Client.RedirectURIs, " ")
	if redirects == "" {
		redirects = "none (client credentials only)"
	}
	fmt.Fprintf(stdout, "client_id %s (%s) in tenant %s, redirect URIs: %s\n", ic.Client.ID, ic.Client.Name, *tenant, redirects)
	if len(ic.Client.Scopes) > 0 {
		fmt.Fprintf(stdout, "client credentials scopes: %s\n", identity.ScopeString(ic.Client.Scopes))
	}
	fmt.Fprintln(stdout, "the client secret is shown once; keep it safe:")
	fmt.Fprintln(stdout, ic.Secret)
	return nil
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }
