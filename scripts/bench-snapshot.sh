#!/usr/bin/env bash
# The snapshot write's figures (issue 2): `fourd loadgen` writing one
# tenant's snapshot of N findings (default 10M) over 100k resources into a
# freshly created ClickHouse database fourd_lg: rate, peak RSS and CPU of the
# client, the server's CPU during the run and after it until its merges end,
# the INSERT queries' own CPU (system.query_log) and the rows merged
# (system.events; other databases' merges count too, so run it alone).
# Usage: scripts/bench-snapshot.sh [N] [loadgen flags…]   (needs `make services`)
#   BIN=path    another build of fourd (to interleave with this one)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10000000}
shift || true
if [ -z "${BIN:-}" ]; then
  go build -o bin/fourd ./cmd/fourd
  BIN=./bin/fourd
fi
ch() { clickhouse-client --port 19000 -q "$1"; }

exec 9>"${TMPDIR:-/tmp}/fourd-bench.lock"
flock 9

ch "DROP DATABASE IF EXISTS fourd_lg"
ch "CREATE DATABASE fourd_lg"
# Start from a server with no merges under way.
for _ in $(seq 60); do [ "$(ch 'SELECT count() FROM system.merges')" = 0 ] && break; sleep 1; done
chpid=$(cat .data/clickhouse.pid)
cpu() { awk '{print $14+$15}' "/proc/$chpid/stat"; }
merged() { ch "SELECT value FROM system.events WHERE event = 'MergedRows'"; }
echo "== $n findings ($(uptime | sed 's/.*load/load/'))"
t0=$(date -u +"%Y-%m-%d %H:%M:%S")
s0=$(cpu)
m0=$(merged)
# log_queries=1: the INSERTs' own CPU is read back from system.query_log.
FOURD_CLICKHOUSE_URL="clickhouse://127.0.0.1:19000/fourd_lg?log_queries=1" /usr/bin/time -f "  peak RSS %M KiB, client CPU %U+%S s" \
  "$BIN" loadgen --tenant "lg$(date +%s)" --resources 100000 --findings "$n" "$@" 2>&1 | grep -E 'rows/s|peak RSS'
s1=$(cpu)
sleep 3
for _ in $(seq 300); do [ "$(ch 'SELECT count() FROM system.merges')" = 0 ] && break; sleep 1; done
s2=$(cpu)
ch "SYSTEM FLUSH LOGS"
q=$(ch "SELECT round(sum(ProfileEvents.Values[indexOf(ProfileEvents.Names, 'UserTimeMicroseconds')]
  + ProfileEvents.Values[indexOf(ProfileEvents.Names, 'SystemTimeMicroseconds')]) / 1e6, 1)
  FROM system.query_log WHERE type = 2 AND event_time >= '$t0' AND query LIKE 'INSERT%' AND query NOT LIKE '%system.%'")
echo "  server CPU: $(((s1 - s0) / 100)) s during the run, $(((s2 - s1) / 100)) s after it until its merges ended;" \
  "INSERT queries $q s; rows merged $(($(merged) - m0))"
