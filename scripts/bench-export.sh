#!/usr/bin/env bash
# The findings export's rate (issue 33 §5): starts `BIN serve` (a fresh
# process, with the caller's FOURD_* variables; FOURD_ADDR is where it
# listens), GETs /v1/findings/export for SECONDS, hangs up, and prints the
# rows received per second, the server's CPU per row, its peak RSS
# (VmHWM) and the load average; then, 2 s after the hang-up, how many
# queries of the snapshot ClickHouse still runs (a client that goes away
# must stop its query). Give several builds to interleave them.
# Usage: TOKEN=fdp_… SNAPSHOT=<snapshot key> scripts/bench-export.sh SECONDS FORMAT BIN [BIN…]
#   e.g. FOURD_CLICKHOUSE_URL=clickhouse://127.0.0.1:19000/h3bench FOURD_POSTGRES_URL=… FOURD_ADDR=127.0.0.1:18103 \
#        TOKEN=… SNAPSHOT=2490590793253716985 scripts/bench-export.sh 30 csv /tmp/old/fourd ./bin/fourd /tmp/old/fourd ./bin/fourd
#   SNAPSHOT: SELECT cityHash64(concat('<tenant>', '\0', '<audit id>')) (only for the hang-up check)
set -euo pipefail
secs=$1 format=$2
shift 2
: "${TOKEN:?}" "${FOURD_ADDR:?}"
url="http://$FOURD_ADDR/v1/findings/export?format=$format"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for bin in "$@"; do
  "$bin" serve >"$out.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 120); do
    curl -s -o /dev/null "http://$FOURD_ADDR/healthz" && break
    sleep 0.5
  done
  c0=$(awk '{print $14+$15}' "/proc/$pid/stat")
  t=$(curl -s --max-time "$secs" -H "Authorization: Bearer $TOKEN" "$url" -o "$out" -w '%{time_total}' || true)
  c1=$(awk '{print $14+$15}' "/proc/$pid/stat")
  rows=$(($(wc -l <"$out") - 1))
  rss=$(awk '/VmHWM/ {print $2 / 1024 " MiB"}' "/proc/$pid/status")
  echo "$bin $format: $rows rows in $t s = $(python3 -c "print(round($rows / $t))") rows/s;" \
    "server CPU $(python3 -c "print(round(($c1 - $c0) * 10000 / max($rows, 1), 2))") µs/row; peak RSS $rss; load $(cut -d' ' -f1-3 /proc/loadavg)"
  sleep 2
  if [ -n "${SNAPSHOT:-}" ]; then
    echo "  2 s after the hang-up: $(clickhouse-client --port 19000 -q "SELECT count() FROM system.processes WHERE query LIKE '%$SNAPSHOT%' AND query NOT LIKE '%system.processes%'") queries of the snapshot running"
  fi
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  rm -f "$out.log"
done
