#!/usr/bin/env bash
# A selective tag that matches findings at 10M (issue 33 §3): through one or
# more builds, interleaved, each a freshly started `fourd serve`, a tenant of
# `fourd loadgen --resources 1000000 --findings 10000000 --owners 10000`
# (tag owner=owner-N on 100 resources, 1,000 findings) is asked, for each
# round, another owner's listing: its first page (the filter memo cold), its
# next pages by cursor, its summary (the same owner: memo warm) and another
# owner's summary (cold). Prints each step's wall time (curl) and the
# ClickHouse queries it caused (system.query_log: count, rows read, CPU),
# then p50/p99 per step and build. The serve must log its queries:
# FOURD_CLICKHOUSE_URL='clickhouse://…/db?log_queries=1'; run nothing else
# against that database meanwhile.
# Usage: FOURD_CLICKHOUSE_URL=…?log_queries=1 FOURD_POSTGRES_URL=… FOURD_SECRET=… TOKEN=fdp_… \
#   scripts/bench-selective-tag.sh ROUNDS BIN [BIN…]
#   LIMIT (default 60) is the page size; OWNER0 (default 100) the first owner asked.
set -euo pipefail
rounds=${1:?ROUNDS}
shift
: "${TOKEN:?}" "${FOURD_SECRET:?}" "${FOURD_CLICKHOUSE_URL:?}"
export FOURD_ADDR=${FOURD_ADDR:-127.0.0.1:18103} FOURD_LOG_LEVEL=${FOURD_LOG_LEVEL:-warn} FOURD_READ_TIMEOUT=${FOURD_READ_TIMEOUT:-60s}
url=http://${FOURD_ADDR} limit=${LIMIT:-60} owner=${OWNER0:-100}
db=${FOURD_CLICKHOUSE_URL##*/}
db=${db%%\?*}
ch() { clickhouse-client --port "${CH_PORT:-19000}" -q "$1"; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The tenant's queries: its id, snapshot keys and tenant hash in the SQL.
match=$(ch "SELECT arrayStringConcat(groupUniqArray(x), '|') FROM (SELECT arrayJoin([tenant_id,
  toString(cityHash64(concat(tenant_id, '\\0', audit_id))), toString(cityHash64(tenant_id))]) AS x FROM $db.finding_snapshots)")
# step NAME BIN PATH: asks PATH, appends "wall_ms queries rows cpu_ms" to
# $out/BIN.NAME (the queries that started in its window of whole seconds).
step() {
  local t0 t1 w q
  sleep 1.05
  t0=$(date +%s)
  w=$(curl -s -o "$out/body" -w '%{time_total}' -H "Authorization: Bearer $TOKEN" "$url$3")
  sleep 1.05
  t1=$(date +%s)
  ch "SYSTEM FLUSH LOGS"
  q=$(ch "SELECT count(), sum(read_rows), round(sum(arraySum(arrayFilter((v, n) -> n = 'OSCPUVirtualTimeMicroseconds',
    ProfileEvents.Values, ProfileEvents.Names))) / 1000, 1) FROM system.query_log WHERE type = 2 AND is_initial_query
    AND query_start_time >= toDateTime($t0) AND query_start_time < toDateTime($t1)
    AND query NOT LIKE '%system.%' AND match(query, '$match')" | tr '\t' ' ')
  echo "$(awk -v w="$w" 'BEGIN{printf "%.1f", w*1000}') $q" >>"$out/$(basename "$2").$1"
}
echo "start: $(uptime | sed 's/.*load/load/')"
for r in $(seq 1 "$rounds"); do
  for bin in "$@"; do
    "$bin" serve >"$out/serve.log" 2>&1 &
    pid=$!
    for _ in $(seq 1 200); do curl -s -o /dev/null "$url/healthz" && break; sleep 0.3; done
    owner=$((owner + 1))
    q="tag=owner%3Downer-$owner&limit=$limit"
    step first "$bin" "/v1/findings?$q"
    cursor=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("next_cursor") or "")' "$out/body")
    while [ -n "$cursor" ]; do
      step next "$bin" "/v1/findings?$q&cursor=$cursor"
      cursor=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("next_cursor") or "")' "$out/body")
    done
    step count "$bin" "/v1/findings/summary?group_by=severity&tag=owner%3Downer-$owner"
    step count_cold "$bin" "/v1/findings/summary?group_by=severity&tag=owner%3Downer-$((owner + 5000))"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
  done
done
echo "end: $(uptime | sed 's/.*load/load/')"
echo "build step n: wall p50 / p99 ms | p50 of queries, rows read, ClickHouse CPU ms"
# pct FILE COLUMN P: the P-th percentile (nearest rank) of COLUMN.
pct() { cut -d' ' -f"$2" "$1" | sort -n | awk -v p="$3" '{a[NR]=$1} END {i = int(NR*p/100 + 0.999); if (i < 1) i = 1; print a[i]}'; }
for bin in "$@"; do
  for s in first next count count_cold; do
    f="$out/$(basename "$bin").$s"
    [ -f "$f" ] || continue
    echo "$(basename "$bin") $s $(wc -l <"$f"): $(pct "$f" 1 50) / $(pct "$f" 1 99) ms | $(pct "$f" 2 50) queries, $(pct "$f" 3 50) rows, $(pct "$f" 4 50) ms CPU"
  done
done
