package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/webhooks"
	"github.com/fourd-dev/fourd/webhook"
)

// webhookSettings is the webhook part of the configuration.
type webhookSettings struct {
	// AllowLoopbackHTTP lets endpoints use http:// on loopback and lets
	// deliveries reach loopback addresses: development and tests only.
	AllowLoopbackHTTP bool // FOURD_WEBHOOK_ALLOW_LOOPBACK_HTTP
	// AllowCIDRs are ranges deliveries may reach despite the SSRF rules.
	AllowCIDRs []netip.Prefix // FOURD_WEBHOOK_ALLOW_CIDRS
	// Dispatchers is how many dispatch loops one serve process runs, each
	// with Concurrency attempts in flight.
	Dispatchers int // FOURD_WEBHOOK_DISPATCHERS
	Concurrency int // FOURD_WEBHOOK_CONCURRENCY
	// DisableAfter disables an endpoint failing continuously this long.
	DisableAfter time.Duration // FOURD_WEBHOOK_DISABLE_AFTER
}

// webhookEnvVars documents the webhook variables (config.go lists them).
var webhookEnvVars = []envVar{
	{"FOURD_WEBHOOK_ALLOW_LOOPBACK_HTTP", "false", "allow http:// webhook endpoints on loopback (development and tests only)"},
	{"FOURD_WEBHOOK_ALLOW_CIDRS", "(none)", "comma-separated CIDRs webhooks may reach despite the private-address rules"},
	{"FOURD_WEBHOOK_DISPATCHERS", "4", "webhook dispatch loops per serve process"},
	{"FOURD_WEBHOOK_CONCURRENCY", "32", "attempts in flight per dispatch loop"},
	{"FOURD_WEBHOOK_DISABLE_AFTER", "72h", "disable an endpoint failing continuously this long (0: never)"},
}

// loadWebhookSettings reads the FOURD_WEBHOOK_* variables with get (the
// trimmed value or the default).
func loadWebhookSettings(get func(name, def string) string) (webhookSettings, error) {
	w := webhookSettings{}
	switch v := strings.ToLower(get("FOURD_WEBHOOK_ALLOW_LOOPBACK_HTTP", "false")); v {
	case "true", "1", "yes":
		w.AllowLoopbackHTTP = true
	case "false", "0", "no":
	default:
		return w, fmt.Errorf("FOURD_WEBHOOK_ALLOW_LOOPBACK_HTTP=%q: want true or false", v)
	}
	if v := get("FOURD_WEBHOOK_ALLOW_CIDRS", ""); v != "" {
		for _, c := range strings.Split(v, ",") {
			if c = strings.TrimSpace(c); c == "" {
				continue
			}
			p, err := netip.ParsePrefix(c)
			if err != nil {
				return w, fmt.Errorf("FOURD_WEBHOOK_ALLOW_CIDRS: %q is not a CIDR like 10.20.0.0/16", c)
			}
			w.AllowCIDRs = append(w.AllowCIDRs, p.Masked())
		}
	}
	for _, n := range []struct {
		name, def string
		dst       *int
	}{{"FOURD_WEBHOOK_DISPATCHERS", "4", &w.Dispatchers}, {"FOURD_WEBHOOK_CONCURRENCY", "32", &w.Concurrency}} {
		v, err := strconv.Atoi(get(n.name, n.def))
		if err != nil || v < 1 || v > 1024 {
			return w, fmt.Errorf("%s=%q: want an integer from 1 to 1024", n.name, get(n.name, n.def))
		}
		*n.dst = v
	}
	d, err := time.ParseDuration(get("FOURD_WEBHOOK_DISABLE_AFTER", "72h"))
	if err != nil || d < 0 {
		return w, fmt.Errorf("FOURD_WEBHOOK_DISABLE_AFTER=%q: want a duration like 72h, or 0 for never", get("FOURD_WEBHOOK_DISABLE_AFTER", "72h"))
	}
	w.DisableAfter = d
	if d == 0 {
		w.DisableAfter = -1 // StoreOutbox: never
	}
	return w, nil
}

// addressPolicy is where deliveries may connect.
func (w webhookSettings) addressPolicy() webhook.AddressPolicy {
	return webhook.AddressPolicy{AllowLoopbackHTTP: w.AllowLoopbackHTTP, AllowCIDRs: w.AllowCIDRs}
}

// newWebhooks builds the webhook use cases (engine/webhooks) over the
// store: URL validation under the address policy, and secrets sealed with
// FOURD_SECRET.
func newWebhooks(w webhookSettings, store webhooks.Store, secret []byte) (*webhooks.Service, error) {
	return webhooks.New(webhooks.Config{Store: store, CheckURL: w.addressPolicy().ValidateURL, NewSecret: webhook.NewSigningSecret,
		Seal: func(s string) (string, error) { return webhook.SealSecret(secret, s) }, Secret: secret})
}

// newDispatchers builds the dispatch loops of one serve process over the
// outbox queue, sharing one Sender (and its connection pool).
func newDispatchers(w webhookSettings, queue engine.DeliveryQueue, secret []byte, log *slog.Logger, worker string) ([]*webhook.Dispatcher, *webhook.Sender, error) {
	sender, err := webhook.NewSender(webhook.Config{Addresses: w.addressPolicy(), Logger: log,
		MaxIdleConnsPerHost: w.Dispatchers * w.Concurrency})
	if err != nil {
		return nil, nil, err
	}
	var out []*webhook.Dispatcher
	for i := range w.Dispatchers {
		ob, err := webhook.NewStoreOutbox(webhook.StoreOutboxConfig{Queue: queue, Master: secret,
			Worker: fmt.Sprintf("%s/webhook-%d", worker, i), DisableAfter: w.DisableAfter, Logger: log})
		if err != nil {
			sender.Close()
			return nil, nil, err
		}
		d, err := webhook.NewDispatcher(webhook.DispatcherConfig{Outbox: ob, Sender: sender, Concurrency: w.Concurrency,
			PollInterval: 100 * time.Millisecond, Logger: log})
		if err != nil {
			sender.Close()
			return nil, nil, err
		}
		out = append(out, d)
	}
	return out, sender, nil
}

// startDispatcher runs the webhook dispatch loops until ctx is done. Any
// number of serve replicas may run them: claims use FOR UPDATE SKIP LOCKED.
func startDispatcher(ctx context.Context, wg *sync.WaitGroup, w webhookSettings, queue engine.DeliveryQueue, secret []byte, log *slog.Logger, worker string) {
	ds, sender, err := newDispatchers(w, queue, secret, log, worker)
	if err != nil {
		log.Error("webhook dispatcher not started", "err", err)
		return
	}
	var loops sync.WaitGroup
	for _, d := range ds {
		loops.Go(func() { _ = d.Run(ctx) })
	}
	wg.Go(func() {
		loops.Wait()
		sender.Close()
	})
	log.Info("webhook dispatcher started", "loops", len(ds), "concurrency", w.Concurrency,
		"allow_loopback_http", w.AllowLoopbackHTTP)
}
