package main

import (
	"crypto/rand"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// config is fourd's whole configuration. It is read from the environment
// here and nowhere else; every package gets the part it needs.
type config struct {
	Addr          string // FOURD_ADDR
	MetricsAddr   string // FOURD_METRICS_ADDR: empty serves no metrics listener
	MetricsToken  string // FOURD_METRICS_TOKEN: serves /metrics on Addr behind this bearer token
	ClickHouseURL string // FOURD_CLICKHOUSE_URL
	// ClickHouseCluster is the ClickHouse cluster to run on
	// (FOURD_CLICKHOUSE_CLUSTER); empty: one server.
	ClickHouseCluster string
	PostgresURL       string // FOURD_POSTGRES_URL
	Secret            []byte // FOURD_SECRET
	DataDir           string // FOURD_DATA_DIR
	CORSOrigins       []string
	TrustProxy        bool
	LogLevel          slog.Level
	// ReadTimeout is the deadline of a read request (REST GET, GraphQL
	// query), store reads included (FOURD_READ_TIMEOUT); 0: none.
	ReadTimeout time.Duration
	Webhooks    webhookSettings // FOURD_WEBHOOK_*
	Limits      limitSettings   // FOURD_REDIS_URL, FOURD_RATE_LIMIT* (cmd/fourd/ratelimit.go)
}

// envVar documents one configuration variable; the README's table is this list.
type envVar struct{ Name, Default, Meaning string }

var envVars = []envVar{
	{"FOURD_ADDR", "127.0.0.1:8080", "address the API listens on"},
	{"FOURD_METRICS_ADDR", "(none)", "address serving Prometheus /metrics (no token; bind it privately); without it and FOURD_METRICS_TOKEN, metrics are not served"},
	{"FOURD_METRICS_TOKEN", "(none)", "serve /metrics on FOURD_ADDR too, to requests with Authorization: Bearer <this token> (at least 16 bytes)"},
	{"FOURD_CLICKHOUSE_URL", "clickhouse://127.0.0.1:19000/default", "ClickHouse, native protocol"},
	{"FOURD_CLICKHOUSE_CLUSTER", "(none: one server)", "name of the ClickHouse cluster (remote_servers) to run on: replicated, sharded tables (docs/scaling.md)"},
	{"FOURD_POSTGRES_URL", "postgres://fourd@127.0.0.1:55432/fourd?sslmode=disable", "PostgreSQL"},
	{"FOURD_SECRET", "(none; make run generates .data/secret)", "key for cursors and other signed values, at least 32 bytes; serve refuses to start without it"},
	{"FOURD_DATA_DIR", ".data", "where the demo token and generated files are kept"},
	{"FOURD_CORS_ORIGINS", "(none)", "comma-separated origins allowed by CORS, or *"},
	{"FOURD_TRUST_PROXY", "false", "honour X-Forwarded-For/Proto from a reverse proxy"},
	{"FOURD_LOG_LEVEL", "info", "debug, info, warn or error"},
	{"FOURD_READ_TIMEOUT", "5s", "deadline of a read request (REST GET, GraphQL query), store reads included: a store down or hung answers 503 unavailable with Retry-After within it; 0 for none"},
	{"FOURD_REDIS_URL", "(none: in-memory)", "Redis for rate-limit counters shared by replicas, redis://host:port/db"},
	{"FOURD_RATE_LIMIT", "1000", "requests a minute per token (a token's or OAuth client's own rate replaces it)"},
	{"FOURD_RATE_LIMIT_HEAVY", "20", "requests a minute per token: report generation, audit start, reanalysis (REST and GraphQL together, each alias counted)"},
	{"FOURD_RATE_LIMIT_ANONYMOUS", "300", "requests a minute per client address without a valid token"},
}

// clusterName is what FOURD_CLICKHOUSE_CLUSTER may hold: an XML element
// name of remote_servers.
var clusterName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]{0,99}$`)

// loadConfig reads the configuration from getenv. Every invalid value is an
// error naming its variable.
func loadConfig(getenv func(string) string) (config, error) {
	get := func(name, def string) string {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			return v
		}
		return def
	}
	c := config{
		Addr:              get("FOURD_ADDR", "127.0.0.1:8080"),
		MetricsAddr:       get("FOURD_METRICS_ADDR", ""),
		MetricsToken:      get("FOURD_METRICS_TOKEN", ""),
		ClickHouseURL:     get("FOURD_CLICKHOUSE_URL", "clickhouse://127.0.0.1:19000/default"),
		ClickHouseCluster: get("FOURD_CLICKHOUSE_CLUSTER", ""),
		PostgresURL:       get("FOURD_POSTGRES_URL", "postgres://fourd@127.0.0.1:55432/fourd?sslmode=disable"),
		Secret:            []byte(getenv("FOURD_SECRET")),
		DataDir:           get("FOURD_DATA_DIR", ".data"),
	}
	for _, a := range []struct{ name, v string }{{"FOURD_ADDR", c.Addr}, {"FOURD_METRICS_ADDR", c.MetricsAddr}} {
		if a.v == "" {
			continue
		}
		if _, port, err := net.SplitHostPort(a.v); err != nil || port == "" {
			return c, fmt.Errorf("%s=%q: want host:port, e.g. 127.0.0.1:8080", a.name, a.v)
		}
	}
	if n := len(c.MetricsToken); n > 0 && n < 16 {
		return c, fmt.Errorf("FOURD_METRICS_TOKEN is %d bytes; it must be at least 16", n)
	}
	if err := checkURL("FOURD_CLICKHOUSE_URL", c.ClickHouseURL, "clickhouse", "tcp"); err != nil {
		return c, err
	}
	if v := c.ClickHouseCluster; v != "" && !clusterName.MatchString(v) {
		return c, fmt.Errorf("FOURD_CLICKHOUSE_CLUSTER=%q: want the name of a cluster in the servers' remote_servers (letters, digits, _ and -)", v)
	}
	if err := checkURL("FOURD_POSTGRES_URL", c.PostgresURL, "postgres", "postgresql"); err != nil {
		return c, err
	}
	if len(c.Secret) > 0 && len(c.Secret) < 32 {
		return c, fmt.Errorf("FOURD_SECRET is %d bytes; it must be at least 32 (e.g. head -c 32 /dev/urandom | base64)", len(c.Secret))
	}
	if v := get("FOURD_CORS_ORIGINS", ""); v != "" {
		for _, o := range strings.Split(v, ",") {
			o = strings.TrimSpace(o)
			if o == "" {
				continue
			}
			if u, err := url.Parse(o); o != "*" && (err != nil || u.Scheme == "" || u.Host == "") {
				return c, fmt.Errorf("FOURD_CORS_ORIGINS: %q is not an origin like https://app.example.com", o)
			}
			c.CORSOrigins = append(c.CORSOrigins, o)
		}
	}
	switch v := strings.ToLower(get("FOURD_TRUST_PROXY", "false")); v {
	case "true", "1", "yes":
		c.TrustProxy = true
	case "false", "0", "no":
	default:
		return c, fmt.Errorf("FOURD_TRUST_PROXY=%q: want true or false", v)
	}
	if err := c.LogLevel.UnmarshalText([]byte(get("FOURD_LOG_LEVEL", "info"))); err != nil {
		return c, fmt.Errorf("FOURD_LOG_LEVEL=%q: want debug, info, warn or error", getenv("FOURD_LOG_LEVEL"))
	}
	rt, err := time.ParseDuration(get("FOURD_READ_TIMEOUT", "5s"))
	if err != nil || rt < 0 || (rt > 0 && rt < 100*time.Millisecond) || rt > 10*time.Minute {
		return c, fmt.Errorf("FOURD_READ_TIMEOUT=%q: want a duration from 100ms to 10m, like 5s, or 0 for none", get("FOURD_READ_TIMEOUT", "5s"))
	}
	c.ReadTimeout = rt
	if c.Webhooks, err = loadWebhookSettings(get); err != nil {
		return c, err
	}
	if c.Limits, err = loadLimitSettings(get); err != nil {
		return c, err
	}
	return c, nil
}

func checkURL(name, v string, schemes ...string) error {
	u, err := url.Parse(v)
	// PostgreSQL's URLs may name the host in the query instead, as libpq's
	// do: postgres://user@/db?host=/run/postgresql for a Unix socket.
	pgHost := (schemes[0] == "postgres") && u != nil && u.Query().Get("host") != ""
	if err != nil || (u.Host == "" && !pgHost) {
		return fmt.Errorf("%s=%q is not a URL like %s://host:port/db", name, v, schemes[0])
	}
	for _, s := range schemes {
		if u.Scheme == s {
			return nil
		}
	}
	return fmt.Errorf("%s=%q: scheme must be %s", name, v, strings.Join(schemes, " or "))
}

// secretOrEphemeral returns the configured secret, or for commands that
// sign nothing that outlives them, a random one.
func (c config) secretOrEphemeral() []byte {
	if len(c.Secret) > 0 {
		return c.Secret
	}
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return b
}
