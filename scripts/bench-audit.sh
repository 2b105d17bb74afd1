#!/usr/bin/env bash
# The audit engine's figures (issue 5): ingest of N resources through
# `fourd import` (NDJSON), a first audit of them, a second audit (the diff of
# two N-sized snapshots). For each step: wall time, peak RSS and CPU of the
# client, the CPU the ClickHouse and PostgreSQL servers spent meanwhile, the
# load average before it and, for audits, the wall time of each phase. Each
# step also prints its peak live heap (the largest heap a garbage collection
# marked live, from GODEBUG=gctrace=1): less noisy than the peak RSS.
#
# The inventory comes from scripts/gen-inventory.sh.
# Usage: scripts/bench-audit.sh [N]   (default 1000000; needs `make services`)
#   BIN=path    another build of fourd (to interleave with this one)
#   PROF=prefix CPU profiles in prefix-import.prof, prefix-first.prof, prefix-second.prof
#   HEAP=prefix heap profiles of the audits at their peak live heap in
#               prefix-first.heap, prefix-second.heap (`fourd audit --memprofile`)
#   SECOND=0    no second audit
#   DB=name     fresh databases of that name on both servers (dropped, made
#               again and migrated by this build); without it the databases
#               of FOURD_CLICKHOUSE_URL / FOURD_POSTGRES_URL are used as they are
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
if [ -n "${DB:-}" ]; then
  export FOURD_CLICKHOUSE_URL="clickhouse://127.0.0.1:19000/$DB"
  export FOURD_POSTGRES_URL="postgres://fourd@127.0.0.1:55432/$DB?sslmode=disable"
fi
tenant=bench-audit-$n-$(date +%s%N | cut -c1-13)
file=${TMPDIR:-/tmp}/fourd-bench-$n.ndjson
: "${FOURD_SECRET:=$(head -c 32 /dev/urandom | base64)}"
export FOURD_SECRET
if [ -z "${BIN:-}" ]; then
  go build -o bin/fourd ./cmd/fourd
  BIN=./bin/fourd
fi
scripts/gen-inventory.sh "$n" "$file"
if [ -n "${DB:-}" ]; then
  clickhouse-client --port 19000 -q "DROP DATABASE IF EXISTS $DB"
  clickhouse-client --port 19000 -q "CREATE DATABASE $DB"
  psql -q "postgres://fourd@127.0.0.1:55432/fourd?sslmode=disable" -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
  "$BIN" migrate >/dev/null 2>&1
fi

data=${FOURD_SERVICES_DATA:-.data}
[ -f "$data/clickhouse.pid" ] || data=/work/main/.data
chpid=$(cat "$data/clickhouse.pid" 2>/dev/null || pgrep -o clickhouse || echo 0)
pgpid=$(pgrep -o -x postgres || echo 0)
# server_cpu prints the CPU seconds (x100) of ClickHouse and of PostgreSQL
# (the postmaster with its exited children, and its live backends).
server_cpu() {
  local ch=0 pg=0 p
  [ "$chpid" != 0 ] && ch=$(awk '{print $14+$15}' "/proc/$chpid/stat")
  if [ "$pgpid" != 0 ]; then
    pg=$(awk '{print $14+$15+$16+$17}' "/proc/$pgpid/stat")
    for p in $(pgrep -P "$pgpid"); do
      pg=$((pg + $(awk '{print $14+$15}' "/proc/$p/stat" 2>/dev/null || echo 0)))
    done
  fi
  echo "$ch $pg"
}
step() {
  local name=$1 prof=() out
  shift
  [ -n "${PROF:-}" ] && prof=(--cpuprofile "$PROF-$name.prof")
  [ -n "${HEAP:-}" ] && [ "$name" != import ] && prof+=(--memprofile "$HEAP-$name.heap")
  echo "== $name ($(uptime | sed 's/.*load/load/'))"
  read -r ch0 pg0 < <(server_cpu)
  out=$(GODEBUG=gctrace=1 /usr/bin/time -f "  wall %e s, peak RSS %M KiB, client CPU %U+%S s" "$BIN" "$@" "${prof[@]}" 2>&1)
  read -r ch1 pg1 < <(server_cpu)
  grep -v -e '^{' -e '^gc ' <<<"$out" | tail -4
  # gctrace's "A->B->C MB": C is the heap marked live by that GC.
  grep '^gc ' <<<"$out" | sed -n 's/.* [0-9]*->[0-9]*->\([0-9]*\) MB.*/\1/p' |
    sort -n | tail -1 | sed 's/^/  peak live heap (gctrace) /; s/$/ MB/' || true
  grep -o '"phases":{[^}]*}' <<<"$out" | sed 's/^/  /' || true
  echo "  server CPU: ClickHouse $(((ch1 - ch0) / 100)).$(((ch1 - ch0) % 100 / 10)) s, PostgreSQL $(((pg1 - pg0) / 100)).$(((pg1 - pg0) % 100 / 10)) s"
}
echo "tenant $tenant, $BIN"
step import import "$file" --tenant "$tenant"
step first audit --tenant "$tenant"
[ "${SECOND:-1}" = 0 ] || step second audit --tenant "$tenant"
