package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/fourd-dev/fourd/engine/identity"
)

// Demo tenant identity.
const (
	demoTenant = "demo"
	demoEmail  = "analyst@demo.fourd.local"
)

// demo loads the demo tenant: a token saved in $FOURD_DATA_DIR/demo-token
// (kept across runs while it still works), the sample inventories of
// testdata/inventory, and an audit of them. Running it again is safe.
func demo(ctx context.Context, cfg config, log *slog.Logger, args []string, stdout io.Writer) error {
	fs := newFlags("demo", stdout)
	samples := fs.String("samples", "testdata/inventory", "folder with the sample inventories")
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	s, err := openStores(ctx, cfg, log, true)
	if err != nil {
		return err
	}
	defer s.close()
	_, audits, err := newAuditing(cfg, log, s)
	if err != nil {
		return err
	}
	ids, ops, err := newIdentity(log, s, cfg.secretOrEphemeral())
	if err != nil {
		return err
	}
	tokenFile := filepath.Join(cfg.DataDir, "demo-token")
	token, err := demoToken(ctx, ids, ops, tokenFile)
	if err != nil {
		return err
	}
	p, err := ids.Authenticate(ctx, token)
	if err != nil {
		return err
	}
	if _, err := demoData(ctx, cfg, log, s, audits, p, *samples, stdout); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "demo tenant %q ready; its token is in %s\n", demoTenant, tokenFile)
	return nil
}

// demoToken returns the saved demo token when it still authenticates, or
// issues and saves a new one.
func demoToken(ctx context.Context, ids *identity.Service, ops *identity.Operator, file string) (string, error) {
	if b, err := os.ReadFile(file); err == nil {
		tok := strings.TrimSpace(string(b))
		if _, err := ids.Authenticate(ctx, tok); err == nil {
			return tok, nil
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	issued, err := ops.IssueToken(ctx, identity.IssueTokenInput{TenantSlug: demoTenant, Email: demoEmail, Name: "demo"})
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return "", err
	}
	if err := os.WriteFile(file, []byte(issued.Secret+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("saving the demo token: %w", err)
	}
	return issued.Secret, nil
}
