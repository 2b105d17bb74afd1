// Command fourd runs the fourd service and its operator commands: serve,
// migrate, token, demo, import and loadgen.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

const usage = `fourd — cloud security and audit service

Usage:
  fourd serve                 serve the API (migrates first)
  fourd migrate               apply database migrations to ClickHouse and PostgreSQL
  fourd token create --tenant T --email E [--role R] [--scopes a,b] [--name N] [--expires 720h] [--rate-limit N]
                              create a personal access token (printed alone on the last line)
  fourd token list --tenant T list a tenant's personal access tokens
  fourd token revoke --tenant T pat_…
                              revoke a token (other replicas stop accepting it within 5 s)
  fourd user create --tenant T --email E --role R [--password-stdin]
                              create a user (or set its role and password, and enable it); the
                              password is prompted for, or read from stdin; the user's tokens
                              follow the new role (other replicas within 5 s)
  fourd user disable --tenant T --email E
                              disable a user: no sign-in, none of their tokens works
  fourd oauth-client create --tenant T --name N --redirect-uri U
                              register an OAuth client (secret printed alone on the last line)
  fourd import FILE --tenant T
                              import an inventory: fourd NDJSON, AWS Config, Terraform state or show -json
  fourd audit --tenant T      run an audit of the tenant now and print its summary
  fourd audit --tenant T --explain RESOURCE
                              print every check that applies to one resource (id or ARN), what it read and its outcome
  fourd demo                  load the demo tenant: inventory, an audit, a token in $FOURD_DATA_DIR/demo-token
  fourd report --tenant T --kind K [--out F]  generate a report of the latest audit now, write JSON and PDF
  fourd loadgen [flags]       write synthetic tenants at scale (see fourd loadgen -h)

Configuration is read from FOURD_* environment variables (see README.md).
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprint(os.Stderr, usage)
			fmt.Fprintln(os.Stderr, "\nfourd:", err)
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "fourd:", err)
		os.Exit(1)
	}
}

type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// run dispatches a subcommand; it is main without the process around it.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageError{"missing command"}
	}
	cfg, err := loadConfig(getenv)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "serve":
		return serve(ctx, cfg, log)
	case "migrate":
		return migrate(ctx, cfg, log, stdout)
	case "token":
		return tokenCmd(ctx, cfg, log, rest, stdout)
	case "user":
		return userCmd(ctx, cfg, log, rest, os.Stdin, stdout, stderr)
	case "oauth-client":
		return oauthClientCmd(ctx, cfg, log, rest, stdout)
	case "demo":
		return demo(ctx, cfg, log, rest, stdout)
	case "audit":
		return auditCmd(ctx, cfg, log, rest, stdout)
	case "import":
		return importCmd(ctx, cfg, log, rest, stdout, stderr)
	case "report":
		return reportCmd(ctx, cfg, log, rest, stdout)
	case "loadgen":
		return loadgen(ctx, cfg, log, rest, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	return usageError{fmt.Sprintf("unknown command %q", cmd)}
}

// newFlags returns a FlagSet that reports errors instead of exiting.
func newFlags(name string, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("fourd "+name, flag.ContinueOnError)
	fs.SetOutput(out)
	return fs
}
