#!/usr/bin/env bash
# The q filter's first ask (issue 33 §3): for each build, interleaved (OLD,
# NEW, OLD, NEW…), a fresh `fourd serve` answers ROUNDS first pages of q's
# never asked before in it (QS: space-separated, @R@ replaced by the round),
# one at a time; prints each page's wall time and the ClickHouse CPU of the
# build's queries over the run divided by the pages (the server logs only
# this script's queries: they carry log_queries=1 and distributed_connections_pool_size=1027
# in the URL, which the sum filters on).
# Usage: FOURD_CLICKHOUSE_URL=clickhouse://127.0.0.1:19000/DB FOURD_POSTGRES_URL=… FOURD_SECRET=… \
#   TOKEN=fdp_… scripts/bench-q-first.sh OLD_BIN NEW_BIN [pairs] [rounds]
# The issue 33 figures: `fourd loadgen --tenant h3q --resources 1000000 --findings 10000000`
# in fresh databases, its q index built once by a serve of NEW (its first q starts the build).
set -euo pipefail
old=${1:?OLD_BIN} new=${2:?NEW_BIN} pairs=${3:-2} rounds=${4:-4}
: "${TOKEN:?}" "${FOURD_SECRET:?}" "${FOURD_CLICKHOUSE_URL:?}"
QS=${QS:-"q=lg-eip-42@R@ q=synthetic%20CRITICAL"}
base=${FOURD_CLICKHOUSE_URL%%\?*}
export FOURD_CLICKHOUSE_URL="$base?log_queries=1&distributed_connections_pool_size=1027"
export FOURD_ADDR=${FOURD_ADDR:-127.0.0.1:18103} FOURD_LOG_LEVEL=${FOURD_LOG_LEVEL:-warn} FOURD_READ_TIMEOUT=${FOURD_READ_TIMEOUT:-60s}
URL=http://$FOURD_ADDR
ch() { clickhouse-client --port "${CH_PORT:-19000}" -q "$1"; }
round=${ROUND0:-41}
for p in $(seq 1 "$pairs"); do
  for bin in "$old" "$new"; do
    "$bin" serve >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 1 200); do curl -s -o /dev/null "$URL/healthz" && break; sleep 0.3; done
    sleep 1
    t0=$(ch "SELECT now()")
    echo "== $bin (pair $p), $(uptime | sed 's/.*load/load/')"
    n=0
    for r in $(seq 1 "$rounds"); do
      round=$((round + 1))
      for q in $QS; do
        q=${q//@R@/$round}
        curl -s -o /dev/null -w "  $q %{http_code} %{time_total}\n" -H "Authorization: Bearer $TOKEN" "$URL/v1/findings?limit=60&$q"
        n=$((n + 1))
      done
    done
    sleep 1
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    ch "SYSTEM FLUSH LOGS"
    ch "SELECT concat('  ClickHouse CPU per page: ', toString(round(sum(ProfileEvents.Values[indexOf(ProfileEvents.Names, 'UserTimeMicroseconds')] + ProfileEvents.Values[indexOf(ProfileEvents.Names, 'SystemTimeMicroseconds')]) / 1000 / $n)), ' ms over ', toString(count()), ' queries')
      FROM system.query_log WHERE type = 2 AND event_time >= toDateTime('$t0') AND has(Settings.Names, 'distributed_connections_pool_size') AND has(Settings.Values, '1027')"
  done
done
