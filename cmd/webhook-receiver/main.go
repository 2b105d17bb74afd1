// Command webhook-receiver is an example fourd webhook receiver. It
// verifies every request with webhook/signature, acknowledges at once,
// deduplicates on the event id and processes events on a worker goroutine.
//
//	WEBHOOK_SECRET=whsec_… webhook-receiver -addr :8090
//
// During a secret rotation give both secrets (-secret twice, or
// comma-separated in WEBHOOK_SECRET) until fourd stops sending the old one.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"
)

// secretList is a repeatable -secret flag.
type secretList []string

func (s *secretList) String() string     { return fmt.Sprintf("%d secret(s)", len(*s)) }
func (s *secretList) Set(v string) error { *s = append(*s, v); return nil }

func main() {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(os.Args[1:], os.Getenv("WEBHOOK_SECRET"), log); err != nil {
		log.Error("webhook-receiver", "err", err)
		os.Exit(1)
	}
}

func run(args []string, envSecret string, log *slog.Logger) error {
	fs := flag.NewFlagSet("webhook-receiver", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8090", "listen address")
	queue := fs.Int("queue", 1024, "events buffered for the worker")
	dedupSize := fs.Int("dedup", 100_000, "event ids remembered for deduplication")
	var secrets secretList
	fs.Var(&secrets, "secret", "signing secret (repeatable; default $WEBHOOK_SECRET, comma-separated)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if len(secrets) == 0 && envSecret != "" {
		secrets = strings.Split(envSecret, ",")
	}
	var keys [][]byte
	for _, s := range secrets {
		if s = strings.TrimSpace(s); s != "" {
			keys = append(keys, []byte(s))
		}
	}
	if len(keys) == 0 {
		return errors.New("no signing secret: set WEBHOOK_SECRET or -secret")
	}
	if *queue < 1 || *dedupSize < 1 {
		return errors.New("-queue and -dedup must be positive")
	}

	rc := &receiver{secrets: keys, seen: newDedup(*dedupSize, 24*time.Hour),
		queue: make(chan event, *queue), log: log, now: time.Now}
	var workers sync.WaitGroup
	workers.Go(rc.work)

	srv := &http.Server{Addr: *addr, Handler: rc, ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout: 10 * time.Second, WriteTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	log.Info("listening", "addr", *addr, "secrets", len(keys))

	select {
	case err := <-errc:
		close(rc.queue)
		workers.Wait()
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := srv.Shutdown(shutdownCtx)
	// No handler runs any more: drain what was queued, then stop.
	close(rc.queue)
	workers.Wait()
	log.Info("stopped")
	return err
}
