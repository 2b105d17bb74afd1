#!/usr/bin/env bash
# A first import of one NDJSON file by two builds of fourd, interleaved (old,
# new, old, new…) so that a shared machine's drift hits both alike: PAIRS
# pairs, each run into fresh databases ($PREFIX_old, $PREFIX_new, dropped at
# the end), with the load average beside each, holding the benchmark lock
# for the whole session. Compare client CPU and wall within a pair.
# Usage: scripts/bench-import-ab.sh OLD_BIN NEW_BIN [PAIRS] [FILE]
#   (default 3 pairs; FILE defaults to scripts/gen-inventory.sh's 1M file,
#   made when missing; needs `make services`)
#   PREFIX=name the databases' prefix (default fourd_bench_import_ab)
#   PROF=prefix CPU profiles in prefix-old-I.prof and prefix-new-I.prof
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1 new=$2 pairs=${3:-3} file=${4:-}
prefix=${PREFIX:-fourd_bench_import_ab}
pgadmin="postgres://fourd@127.0.0.1:55432/fourd?sslmode=disable"
if [ -z "$file" ]; then
  file=${TMPDIR:-/tmp}/fourd-bench-1000000.ndjson
  scripts/gen-inventory.sh 1000000 "$file"
fi
: "${FOURD_SECRET:=$(head -c 32 /dev/urandom | base64)}"
export FOURD_SECRET
exec 9>"${TMPDIR:-/tmp}/fourd-bench.lock"
flock 9
for i in $(seq "$pairs"); do
  for side in old new; do
    bin=$old
    [ "$side" = new ] && bin=$new
    db=${prefix}_$side
    clickhouse-client --port 19000 -q "DROP DATABASE IF EXISTS $db"
    clickhouse-client --port 19000 -q "CREATE DATABASE $db"
    psql -q "$pgadmin" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" 2>/dev/null
    export FOURD_CLICKHOUSE_URL="clickhouse://127.0.0.1:19000/$db"
    export FOURD_POSTGRES_URL="postgres://fourd@127.0.0.1:55432/$db?sslmode=disable"
    "$bin" migrate >/dev/null 2>&1
    prof=()
    [ -n "${PROF:-}" ] && prof=(--cpuprofile "$PROF-$side-$i.prof")
    echo "### pair $i $side ($bin), $(date -u +%T) UTC, $(uptime | sed 's/.*load/load/')"
    /usr/bin/time -f "  wall %e s, client CPU %U+%S s, peak RSS %M KiB" \
      "$bin" import "$file" --tenant "bench-import-$i" "${prof[@]}" 2>&1 | grep -v '^{' | tail -2
  done
done
for side in old new; do
  clickhouse-client --port 19000 -q "DROP DATABASE IF EXISTS ${prefix}_$side"
  psql -q "$pgadmin" -c "DROP DATABASE IF EXISTS ${prefix}_$side"
done
