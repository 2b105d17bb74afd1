package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"text/tabwriter"
	"time"
)

// tokenListCmd runs `fourd token list --tenant T`: the tenant's personal
// access tokens (never their secrets).
func tokenListCmd(ctx context.Context, cfg config, log *slog.Logger, args []string, stdout io.Writer) error {
	fs := newFlags("token list", stdout)
	tenant := fs.String("tenant", "", "tenant slug")
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if *tenant == "" {
		return usageError{"token list: --tenant is required"}
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
	ts, err := ops.ListTokens(ctx, *tenant)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tUSER\tSCOPES\tLAST USED\tSTATE")
	for _, t := range ts {
		state := "active"
		switch {
		case t.RevokedAt != nil:
			state = "revoked " + t.RevokedAt.Format(time.RFC3339)
		case t.ExpiresAt != nil && !time.Now().Before(*t.ExpiresAt):
			state = "expired"
		case t.ExpiresAt != nil:
			state = "expires " + t.ExpiresAt.Format(time.RFC3339)
		}
		last := "never"
		if t.LastUsedAt != nil {
			last = t.LastUsedAt.Format(time.RFC3339)
		}
		scopes := make([]string, len(t.Scopes))
		for i, s := range t.Scopes {
			scopes[i] = string(s)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", t.ID, t.Name, t.UserID, strings.Join(scopes, ","), last, state)
	}
	return tw.Flush()
}

// tokenRevokeCmd runs `fourd token revoke --tenant T ID`.
func tokenRevokeCmd(ctx context.Context, cfg config, log *slog.Logger, args []string, stdout io.Writer) error {
	fs := newFlags("token revoke", stdout)
	tenant := fs.String("tenant", "", "tenant slug")
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if *tenant == "" || fs.NArg() != 1 {
		return usageError{"token revoke: want: token revoke --tenant T pat_…"}
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
	if err := ops.RevokeToken(ctx, *tenant, fs.Arg(0)); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "token %s revoked; other replicas stop accepting it within %s\n", fs.Arg(0), "5s")
	return nil
}
