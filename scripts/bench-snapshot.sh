#!/usr/bin/env bash
# The snapshot write's figures (issue 2): `fourd loadgen` writing one
# tenant's snapshot of N findings (default 10M) over 100k resources into a
# freshly created ClickHouse database fourd_lg: rate, peak RSS and CPU of the
# client, the server's CPU during the run and in the 30 s after (its merges).
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
echo "== $n findings ($(uptime | sed 's/.*load/load/'))"
s0=$(cpu)
FOURD_CLICKHOUSE_URL=clickhouse://127.0.0.1:19000/fourd_lg /usr/bin/time -f "  peak RSS %M KiB, client CPU %U+%S s" \
  "$BIN" loadgen --tenant lg10m --resources 100000 --findings "$n" "$@" 2>&1 | grep -E 'rows/s|peak RSS'
s1=$(cpu)
sleep 30
s2=$(cpu)
echo "  server CPU: $(((s1 - s0) / 100)) s during the run, $(((s2 - s1) / 100)) s in the 30 s after"
