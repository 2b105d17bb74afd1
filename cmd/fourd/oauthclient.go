package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// oauthClientCmd runs `fourd oauth-client create --tenant T --name N
// --redirect-uri U [--redirect-uri U2]`: it registers a third-party
// application and prints its id and secret (the secret alone on the last
// line, shown once).
func oauthClientCmd(ctx context.Context, cfg config, log *slog.Logger, args []string, stdout io.Writer) error {
	if len(args) == 0 || args[0] != "create" {
		return usageError{"oauth-client: want: oauth-client create --tenant T --name N --redirect-uri U"}
	}
	fs := newFlags("oauth-client create", stdout)
	tenant := fs.String("tenant", "", "tenant slug (created when missing)")
	name := fs.String("name", "", "the application's name, shown on the consent page")
	var uris stringList
	fs.Var(&uris, "redirect-uri", "an exact redirect URI (repeat for several)")
	rate := fs.Int("rate-limit", 0, "requests a minute for each of the client's access tokens (0: the default)")
	if err := fs.Parse(args[1:]); err != nil {
		return usageError{err.Error()}
	}
	if *tenant == "" || *name == "" || len(uris) == 0 {
		return usageError{"oauth-client create: --tenant, --name and --redirect-uri are required"}
	}
	s, err := openStores(ctx, cfg, log, true)
	if err != nil {
		return err
	}
	defer s.close()
	svc, err := newService(cfg, log, s, cfg.secretOrEphemeral())
	if err != nil {
		return err
	}
	ic, err := svc.RegisterOAuthClient(ctx, *tenant, engine.CreateOAuthClientInput{Name: *name, RedirectURIs: uris, RateLimit: *rate})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "client_id %s (%s) in tenant %s, redirect URIs: %s\n", ic.Client.ID, ic.Client.Name, *tenant,
		strings.Join(ic.Client.RedirectURIs, " "))
	fmt.Fprintln(stdout, "the client secret is shown once; keep it safe:")
	fmt.Fprintln(stdout, ic.Secret)
	return nil
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }
