#!/usr/bin/env bash
# The findings filters (scripts/bench-filters.sh) through two builds,
# interleaved: for each pair, a freshly started `fourd serve` of OLD_BIN,
# then of NEW_BIN, on the same databases (issue 33 §3). The serve reads its
# databases from the FOURD_* variables given; FOURD_READ_TIMEOUT defaults to
# 60s here so that a slow filter is timed instead of answering 503.
# Usage: FOURD_CLICKHOUSE_URL=… FOURD_POSTGRES_URL=… FOURD_SECRET=… TOKEN=fdp_… \
#   scripts/bench-filters-ab.sh OLD_BIN NEW_BIN [pairs] [rounds]
# The issue 33 figures: a copy of h3bench (h3m-0) in the databases h3_bench
# with 20 resources given the tag owner=h3-bench (docs/benchmarks.md).
set -euo pipefail
old=${1:?OLD_BIN} new=${2:?NEW_BIN} pairs=${3:-2} rounds=${4:-3}
: "${TOKEN:?}" "${FOURD_SECRET:?}"
export FOURD_ADDR=${FOURD_ADDR:-127.0.0.1:18103} FOURD_LOG_LEVEL=${FOURD_LOG_LEVEL:-warn}
export FOURD_READ_TIMEOUT=${FOURD_READ_TIMEOUT:-60s} URL=http://${FOURD_ADDR}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for p in $(seq 1 "$pairs"); do
  for bin in "$old" "$new"; do
    "$bin" serve >"$log" 2>&1 &
    pid=$!
    for _ in $(seq 1 200); do curl -s -o /dev/null "$URL/healthz" && break; sleep 0.3; done
    echo "== $bin (pair $p)"
    "$(dirname "$0")/bench-filters.sh" "$rounds" || true
    kill "$pid"
    wait "$pid" 2>/dev/null || true
  done
done
