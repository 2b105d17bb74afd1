#!/usr/bin/env bash
# A first audit of N resources by two builds of fourd, interleaved (old, new,
# old, new…) so that a shared machine's drift hits both alike: PAIRS pairs of
# `SECOND=0 DB=… BIN=… scripts/bench-audit.sh N`, each run into fresh
# databases ($PREFIX_old, $PREFIX_new, dropped at the end), with the load
# average beside each. Compare client CPU and wall within a pair.
# Usage: scripts/bench-audit-ab.sh OLD_BIN NEW_BIN [PAIRS] [N]
#   (default 3 pairs of 1000000; needs `make services`)
#   PREFIX=name the databases' prefix (default fourd_bench_ab)
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1 new=$2 pairs=${3:-3} n=${4:-1000000} prefix=${PREFIX:-fourd_bench_ab}
for i in $(seq "$pairs"); do
  for side in old new; do
    bin=$old
    [ "$side" = new ] && bin=$new
    echo "### pair $i $side ($bin), $(date -u +%T) UTC, $(uptime | sed 's/.*load/load/')"
    SECOND=0 DB="${prefix}_$side" BIN="$bin" scripts/bench-audit.sh "$n" | grep -v '^import (ndjson)'
  done
done
for side in old new; do
  clickhouse-client --port 19000 -q "DROP DATABASE IF EXISTS ${prefix}_$side"
  psql -q "postgres://fourd@127.0.0.1:55432/fourd?sslmode=disable" -c "DROP DATABASE IF EXISTS ${prefix}_$side"
done
