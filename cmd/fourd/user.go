package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
)

// userCmd runs `fourd user create --tenant T --email E --role R`: it creates
// the user (or updates the role and password of an existing one, and enables
// it; its tokens then do only what the new role allows), or `fourd user
// disable`. The
// password is prompted for on a terminal (twice, not echoed) or read from
// the first line of stdin (scripts, --password-stdin).
func userCmd(ctx context.Context, cfg config, log *slog.Logger, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "disable" {
		return userDisableCmd(ctx, cfg, log, args[1:], stdout)
	}
	if len(args) == 0 || args[0] != "create" {
		return usageError{"user: want: user create --tenant T --email E --role R, or user disable --tenant T --email E"}
	}
	fs := newFlags("user create", stdout)
	tenant := fs.String("tenant", "", "tenant slug (created when missing)")
	email := fs.String("email", "", "the user's email")
	role := fs.String("role", "member", "admin, member or viewer")
	fromStdin := fs.Bool("password-stdin", false, "read the password from the first line of stdin")
	if err := fs.Parse(args[1:]); err != nil {
		return usageError{err.Error()}
	}
	if *tenant == "" || *email == "" {
		return usageError{"user create: --tenant and --email are required"}
	}
	password, err := readPassword(stdin, stderr, *fromStdin)
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
	u, ten, err := ops.CreateUser(ctx, identity.CreateUserInput{TenantSlug: *tenant, Email: *email,
		Role: engine.Role(*role), Password: password})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "user %s (%s, %s) in tenant %s (%s)\n", u.ID, u.Email, u.Role, ten.Slug, ten.ID)
	return nil
}

// userDisableCmd runs `fourd user disable --tenant T --email E`: the user
// can no longer sign in and none of their tokens works any more (`user
// create` enables them again).
func userDisableCmd(ctx context.Context, cfg config, log *slog.Logger, args []string, stdout io.Writer) error {
	fs := newFlags("user disable", stdout)
	tenant := fs.String("tenant", "", "tenant slug")
	email := fs.String("email", "", "the user's email")
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if *tenant == "" || *email == "" {
		return usageError{"user disable: --tenant and --email are required"}
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
	u, err := ops.DisableUser(ctx, *tenant, *email)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "user %s (%s) in tenant %s disabled: their tokens no longer work\n", u.ID, u.Email, *tenant)
	return nil
}

// readPassword prompts on a terminal, twice and without echo, or reads the
// first line of stdin when it is not a terminal or fromStdin is set.
func readPassword(stdin io.Reader, prompt io.Writer, fromStdin bool) (string, error) {
	f, isFile := stdin.(*os.File)
	if fromStdin || !isFile || !isTerminal(f) {
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if err != nil && !(errors.Is(err, io.EOF) && line != "") {
			return "", errors.New("user create: no password on stdin")
		}
		return strings.TrimRight(line, "\r\n"), nil
	}
	ask := func(label string) (string, error) {
		fmt.Fprint(prompt, label)
		defer fmt.Fprintln(prompt)
		return readNoEcho(f)
	}
	p1, err := ask("Password: ")
	if err != nil {
		return "", err
	}
	p2, err := ask("Repeat password: ")
	if err != nil {
		return "", err
	}
	if p1 != p2 {
		return "", errors.New("user create: the passwords differ")
	}
	return p1, nil
}

func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

// readNoEcho reads a line from a terminal with echo turned off.
func readNoEcho(f *os.File) (string, error) {
	fd := int(f.Fd())
	old, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return "", err
	}
	quiet := *old
	quiet.Lflag &^= unix.ECHO
	quiet.Lflag |= unix.ICANON | unix.ISIG
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, &quiet); err != nil {
		return "", err
	}
	defer unix.IoctlSetTermios(fd, unix.TCSETS, old)
	var sb strings.Builder
	b := make([]byte, 1)
	for {
		n, err := f.Read(b)
		if n == 1 && b[0] != '\n' {
			sb.WriteByte(b[0])
			continue
		}
		if n == 1 || err == io.EOF {
			return strings.TrimRight(sb.String(), "\r"), nil
		}
		if err != nil {
			return "", err
		}
	}
}
