package main

import (
	"strings"
	"testing"
)

func TestLoadConfig(t *testing.T) {
	secret := strings.Repeat("x", 32)
	tests := []struct {
		name    string
		env     map[string]string
		wantErr string // substring; empty means success
	}{
		{"defaults", map[string]string{}, ""},
		{"all set", map[string]string{"FOURD_ADDR": ":9000", "FOURD_SECRET": secret, "FOURD_CORS_ORIGINS": "https://a.test, *",
			"FOURD_TRUST_PROXY": "true", "FOURD_LOG_LEVEL": "debug", "FOURD_METRICS_ADDR": "127.0.0.1:9100"}, ""},
		{"bad addr", map[string]string{"FOURD_ADDR": "8080"}, "FOURD_ADDR"},
		{"bad metrics addr", map[string]string{"FOURD_METRICS_ADDR": "nope"}, "FOURD_METRICS_ADDR"},
		{"short metrics token", map[string]string{"FOURD_METRICS_TOKEN": "short"}, "FOURD_METRICS_TOKEN"},
		{"metrics token", map[string]string{"FOURD_METRICS_TOKEN": "0123456789abcdef"}, ""},
		{"bad clickhouse scheme", map[string]string{"FOURD_CLICKHOUSE_URL": "http://127.0.0.1:8123"}, "FOURD_CLICKHOUSE_URL"},
		{"clickhouse not a url", map[string]string{"FOURD_CLICKHOUSE_URL": "::"}, "FOURD_CLICKHOUSE_URL"},
		{"bad postgres", map[string]string{"FOURD_POSTGRES_URL": "mysql://x/y"}, "FOURD_POSTGRES_URL"},
		{"postgres over a unix socket", map[string]string{"FOURD_POSTGRES_URL": "postgres://fourd@/fourd?host=/run/postgresql"}, ""},
		{"postgres without a host", map[string]string{"FOURD_POSTGRES_URL": "postgres:///fourd"}, "FOURD_POSTGRES_URL"},
		{"clickhouse host in the query", map[string]string{"FOURD_CLICKHOUSE_URL": "clickhouse:///default?host=/tmp/x"}, "FOURD_CLICKHOUSE_URL"},
		{"clickhouse cluster", map[string]string{"FOURD_CLICKHOUSE_CLUSTER": "fourd"}, ""},
		{"bad clickhouse cluster", map[string]string{"FOURD_CLICKHOUSE_CLUSTER": "a cluster'"}, "FOURD_CLICKHOUSE_CLUSTER"},
		{"short secret", map[string]string{"FOURD_SECRET": "short"}, "FOURD_SECRET"},
		{"bad cors", map[string]string{"FOURD_CORS_ORIGINS": "example.com"}, "FOURD_CORS_ORIGINS"},
		{"bad proxy flag", map[string]string{"FOURD_TRUST_PROXY": "maybe"}, "FOURD_TRUST_PROXY"},
		{"bad log level", map[string]string{"FOURD_LOG_LEVEL": "loud"}, "FOURD_LOG_LEVEL"},
		{"read timeout", map[string]string{"FOURD_READ_TIMEOUT": "2s"}, ""},
		{"no read timeout", map[string]string{"FOURD_READ_TIMEOUT": "0"}, ""},
		{"bad read timeout", map[string]string{"FOURD_READ_TIMEOUT": "soon"}, "FOURD_READ_TIMEOUT"},
		{"negative read timeout", map[string]string{"FOURD_READ_TIMEOUT": "-1s"}, "FOURD_READ_TIMEOUT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadConfig(func(k string) string { return tt.env[k] })
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error = %v, want one naming %s", err, tt.wantErr)
			}
		})
	}
}
