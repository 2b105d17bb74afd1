#!/usr/bin/env bash
# fourd import's figures (issue 5): a first import of N resources (fourd
# NDJSON, from scripts/gen-inventory.sh) into freshly created databases, then
# a re-import of the same file. For each: wall time, peak RSS and CPU of the
# client, and the CPU the ClickHouse and PostgreSQL servers spent meanwhile.
# The databases fourd_bench_import (on both servers) are dropped and made
# again at each run.
# Usage: scripts/bench-import.sh [N]   (default 1000000; needs `make services`)
#   BIN=path    another build of fourd (to interleave with this one)
#   PROF=prefix CPU profiles in prefix-first.prof and prefix-re.prof
#   DB=name     the databases' name (default fourd_bench_import)
#   DATA=dir    the services' folder with clickhouse.pid (default .data)
#   QUERY_CPU=1 also the CPU of the import's own ClickHouse queries (query_log,
#               log_queries=1; materialized views included, background merges
#               not), which other sessions' work on a shared server leaves out
#               (the import's queries are told apart by max_query_size=262147)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
db=${DB:-fourd_bench_import}
file=${TMPDIR:-/tmp}/fourd-bench-$n.ndjson
pgadmin="postgres://fourd@127.0.0.1:55432/fourd?sslmode=disable"
export FOURD_CLICKHOUSE_URL="clickhouse://127.0.0.1:19000/$db${QUERY_CPU:+?log_queries=1&max_query_size=262147}"
export FOURD_POSTGRES_URL="postgres://fourd@127.0.0.1:55432/$db?sslmode=disable"
: "${FOURD_SECRET:=$(head -c 32 /dev/urandom | base64)}"
export FOURD_SECRET
if [ -z "${BIN:-}" ]; then
  go build -o bin/fourd ./cmd/fourd
  BIN=./bin/fourd
fi
scripts/gen-inventory.sh "$n" "$file"

# Benchmarks of several sessions on one machine take turns.
exec 9>"${TMPDIR:-/tmp}/fourd-bench.lock"
flock 9

clickhouse-client --port 19000 -q "DROP DATABASE IF EXISTS $db"
clickhouse-client --port 19000 -q "CREATE DATABASE $db"
psql -q "$pgadmin" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
"$BIN" migrate >/dev/null

chpid=$(cat "${DATA:-.data}/clickhouse.pid")
pgpid=$(pgrep -o -x postgres)
# server_cpu prints the CPU seconds (x100) of ClickHouse and of PostgreSQL
# (the postmaster with its exited children, and its live backends).
server_cpu() {
  local ch pg p
  ch=$(awk '{print $14+$15}' "/proc/$chpid/stat")
  pg=$(awk '{print $14+$15+$16+$17}' "/proc/$pgpid/stat")
  for p in $(pgrep -P "$pgpid"); do
    pg=$((pg + $(awk '{print $14+$15}' "/proc/$p/stat" 2>/dev/null || echo 0)))
  done
  echo "$ch $pg"
}
run() {
  local name=$1 prof=()
  [ -n "${PROF:-}" ] && prof=(--cpuprofile "$PROF-$name.prof")
  echo "== $name ($(uptime | sed 's/.*load/load/'))"
  read -r ch0 pg0 < <(server_cpu)
  local t0
  t0=$(date -u +'%Y-%m-%d %H:%M:%S')
  /usr/bin/time -f "  wall %e s, peak RSS %M KiB, client CPU %U+%S s" \
    "$BIN" import "$file" --tenant "bench-import-$n" "${prof[@]}" 2>&1 | grep -v '^{' | tail -3
  read -r ch1 pg1 < <(server_cpu)
  echo "  server CPU: ClickHouse $(((ch1 - ch0) / 100)) s, PostgreSQL $(((pg1 - pg0) / 100)) s"
  if [ -n "${QUERY_CPU:-}" ]; then
    clickhouse-client --port 19000 -q "SYSTEM FLUSH LOGS"
    clickhouse-client --port 19000 -q "SELECT concat('  ClickHouse query CPU: ', toString(round(sum(arraySum(arrayMap((n, v) -> if(n IN ('UserTimeMicroseconds', 'SystemTimeMicroseconds'), v, 0), ProfileEvents.Names, ProfileEvents.Values))) / 1e6, 2)), ' s in ', toString(count()), ' queries, ', toString(sum(written_rows)), ' rows written') FROM system.query_log WHERE type = 2 AND event_time >= toDateTime('$t0', 'UTC') AND arrayExists((n, v) -> n = 'max_query_size' AND v = '262147', Settings.Names, Settings.Values)"
  fi
}
run first
run re
