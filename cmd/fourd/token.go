package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
)

func tokenCmd(ctx context.Context, cfg config, log *slog.Logger, args []string, stdout io.Writer) error {
	if len(args) > 0 && args[0] == "list" {
		return tokenListCmd(ctx, cfg, log, args[1:], stdout)
	}
	if len(args) > 0 && args[0] == "revoke" {
		return tokenRevokeCmd(ctx, cfg, log, args[1:], stdout)
	}
	if len(args) == 0 || args[0] != "create" {
		return usageError{"token: want: token create|list|revoke"}
	}
	fs := newFlags("token create", stdout)
	tenant := fs.String("tenant", "", "tenant slug (created when missing)")
	email := fs.String("email", "", "user email (created when missing)")
	role := fs.String("role", "admin", "role of a user created on the way: admin, member or viewer")
	scopes := fs.String("scopes", "", "comma-separated scopes (default: all the role allows)")
	name := fs.String("name", "cli", "a name to recognize the token by")
	expires := fs.Duration("expires", 0, "lifetime, e.g. 720h (default: no expiry)")
	rate := fs.Int("rate-limit", 0, "requests a minute for this token (default: FOURD_RATE_LIMIT)")
	if err := fs.Parse(args[1:]); err != nil {
		return usageError{err.Error()}
	}
	if *tenant == "" || *email == "" {
		return usageError{"token create: --tenant and --email are required"}
	}
	sc, err := identity.ParseScopes(*scopes)
	if err != nil {
		return err
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
	in := identity.IssueTokenInput{TenantSlug: *tenant, Email: *email, Role: engine.Role(*role), Scopes: sc, Name: *name,
		RateLimit: *rate}
	if *expires > 0 {
		at := time.Now().Add(*expires)
		in.ExpiresAt = &at
	}
	issued, err := ops.IssueToken(ctx, in)
	if err != nil {
		return err
	}
	scopeNames := make([]string, len(issued.Token.Scopes))
	for i, s := range issued.Token.Scopes {
		scopeNames[i] = string(s)
	}
	fmt.Fprintf(stdout, "token %s for %s in tenant %s (%s), scopes: %s\n", issued.Token.ID, issued.User.Email,
		issued.Tenant.Slug, issued.Tenant.ID, strings.Join(scopeNames, ","))
	fmt.Fprintln(stdout, "the secret is shown once; keep it safe:")
	fmt.Fprintln(stdout, issued.Secret)
	return nil
}
