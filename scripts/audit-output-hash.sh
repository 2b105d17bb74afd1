#!/usr/bin/env bash
# Whether builds of fourd audit alike: each imports the same NDJSON
# inventory into fresh databases (fourd_hash_<n>, dropped after) and runs a
# first audit; printed per build: the snapshot's findings and a SHA-256
# of its sorted (severity, rule, status, evidence) rows. Finding and
# resource ids are left out: they derive from the tenant's id, new in each
# database. Equal hashes mean the same findings with the same evidence.
# Usage: scripts/audit-output-hash.sh FILE BIN [BIN…]   (needs `make services`)
set -euo pipefail
file=$1
shift
: "${FOURD_SECRET:=$(head -c 32 /dev/urandom | base64)}"
export FOURD_SECRET
admin="postgres://fourd@127.0.0.1:55432/fourd?sslmode=disable"
i=0
for bin in "$@"; do
  i=$((i + 1))
  db=fourd_hash_$i
  export FOURD_CLICKHOUSE_URL="clickhouse://127.0.0.1:19000/$db"
  export FOURD_POSTGRES_URL="postgres://fourd@127.0.0.1:55432/$db?sslmode=disable"
  clickhouse-client --port 19000 -q "DROP DATABASE IF EXISTS $db"
  clickhouse-client --port 19000 -q "CREATE DATABASE $db"
  psql -q "$admin" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" 2>/dev/null
  "$bin" migrate >/dev/null 2>&1
  "$bin" import "$file" --tenant audit-hash >/dev/null 2>&1
  "$bin" audit --tenant audit-hash >/dev/null 2>&1
  rows=$(clickhouse-client --port 19000 -q "SELECT severity, rule_id, status, evidence FROM $db.snapshot_findings FORMAT TSV" | LC_ALL=C sort)
  echo "$bin: $(wc -l <<<"$rows") findings, sha256 $(sha256sum <<<"$rows" | cut -c1-16)"
  clickhouse-client --port 19000 -q "DROP DATABASE IF EXISTS $db"
  psql -q "$admin" -c "DROP DATABASE IF EXISTS $db" 2>/dev/null
done
