#!/usr/bin/env bash
# ClickHouse's CPU for each findings filter's first page and count, through
# two builds interleaved (issue 33 §3): for each round, a freshly started
# `fourd serve` of OLD_BIN, then of NEW_BIN, asks each filter's page and
# summary one at a time, 1 s apart, and sums over system.query_log the
# queries that started meanwhile: count, rows read, bytes, duration and
# OSCPUVirtualTimeMicroseconds. Under load the CPU compares builds where
# wall times do not. The serve must log its queries: give it
# FOURD_CLICKHOUSE_URL='clickhouse://…/db?log_queries=1', and run nothing
# else against that server meanwhile that logs queries.
# FILTERS (space-separated query strings, "none" for no filter) and KINDS
# ("page", "count" or both) narrow a run to some filters, e.g. many rounds of
# the sparse ones: FILTERS='first_seen_before=2020-01-01T00:00:00Z' KINDS=page.
# QUERY_MATCH, a regular expression (e.g. the tenant id and the snapshot key,
# 'h1m-0|1234…'), keeps only the logged queries it matches: other clients
# of the server that log queries meanwhile are then left out.
# Usage: FOURD_CLICKHOUSE_URL=…?log_queries=1 FOURD_POSTGRES_URL=… FOURD_SECRET=… TOKEN=fdp_… \
#   [FILTERS=… KINDS=…] scripts/bench-filters-cpu.sh OLD_BIN NEW_BIN [rounds]
set -euo pipefail
old=${1:?OLD_BIN} new=${2:?NEW_BIN} rounds=${3:-2}
: "${TOKEN:?}" "${FOURD_SECRET:?}"
export FOURD_ADDR=${FOURD_ADDR:-127.0.0.1:18103} FOURD_LOG_LEVEL=${FOURD_LOG_LEVEL:-warn} FOURD_READ_TIMEOUT=${FOURD_READ_TIMEOUT:-60s}
url=http://${FOURD_ADDR}
ch() { clickhouse-client --port "${CH_PORT:-19000}" -q "$1"; }
filters=("" "tag=owner%3Dh3-bench" "tag=team%3Dteam-3" "q=lg-eip-4242" "q=synthetic%20CRITICAL" "compliance=CIS-AWS-4.0.1"
  "compliance=CIS-AWS-4.0.1:2.1.4" "rule_id=loadgen-000" "first_seen_after=2020-01-01T00:00:00Z" "first_seen_before=2020-01-01T00:00:00Z")
if [ -n "${FILTERS:-}" ]; then
  filters=()
  for f in $FILTERS; do [ "$f" = none ] && f=""; filters+=("$f"); done
fi
read -r -a kinds <<<"${KINDS:-page count}"
echo "start: $(uptime | sed 's/.*load/load/')"
echo "round build filter kind http_status seconds | queries rows bytes ms cpu_us"
for r in $(seq 1 "$rounds"); do
  for bin in "$old" "$new"; do
    "$bin" serve >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 1 200); do curl -s -o /dev/null "$url/healthz" && break; sleep 0.3; done
    sleep 2
    for f in "${filters[@]}"; do
      for kind in "${kinds[@]}"; do
        path="/v1/findings/summary?group_by=severity&$f"
        [ "$kind" = page ] && path="/v1/findings?limit=$((60 + r))&$f"
        sleep 1.1
        t0=$(date +%s)
        w=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -H "Authorization: Bearer $TOKEN" "$url$path")
        sleep 1.1
        t1=$(date +%s)
        ch "SYSTEM FLUSH LOGS"
        q=$(ch "SELECT count(), sum(read_rows), formatReadableSize(sum(read_bytes)), sum(query_duration_ms),
  sum(arraySum(arrayFilter((v, n) -> n = 'OSCPUVirtualTimeMicroseconds', ProfileEvents.Values, ProfileEvents.Names)))
FROM system.query_log WHERE type = 2 AND is_initial_query AND query_start_time >= toDateTime($t0)
  AND query_start_time < toDateTime($t1) AND query NOT LIKE '%system.%' AND match(query, '${QUERY_MATCH:-.}')" | tr '\t' ' ')
        echo "$r $(basename "$bin") ${f:-none} $kind $w | $q"
      done
    done
    kill "$pid"
    wait "$pid" 2>/dev/null || true
  done
done
echo "end: $(uptime | sed 's/.*load/load/')"
