#!/usr/bin/env bash
# The ClickHouse server's CPU for one statement and the merges it leaves:
# runs SQL with max_threads = 1, then waits until system.merges is empty,
# and prints the wall time and the server's CPU (/proc/<pid>/stat) for each
# part. Used to compare table layouts by server-side copies (docs/benchmarks.md).
# Usage: scripts/ch-query-cpu.sh "INSERT INTO scratch.t SELECT … SETTINGS …"   (needs `make services`)
set -euo pipefail
cd "$(dirname "$0")/.."
pid=$(cat .data/clickhouse.pid)
cpu() { awk '{print $14+$15}' "/proc/$pid/stat"; }
a=$(cpu)
s=$(date +%s.%N)
clickhouse-client --port 19000 --max_threads=1 --max_query_size=16000000 -q "$1"
e=$(date +%s.%N)
b=$(cpu)
while [ "$(clickhouse-client --port 19000 -q 'SELECT count() FROM system.merges')" != 0 ]; do sleep 1; done
c=$(cpu)
echo "wall $(echo "$e - $s" | bc) s, server CPU $(((b - a) * 10)) ms during, $(((c - b) * 10)) ms of merges after"
