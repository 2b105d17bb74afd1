#!/usr/bin/env bash
# Cluster against single server, in the same run (issue 31 "Figures"): the snapshot write's
# rows/s (`fourd loadgen`, one tenant's snapshot of N findings) and the page latency through the
# API (`fourd serve`, scripts/bench-pages.sh walking pages by cursor), each on the single
# server of `make services` and on the local cluster of `make cluster` (2 shards × 2 replicas),
# ROUNDS times interleaved (single, cluster, single, cluster…). Then, with BIG=M, one run of M
# findings across the two shards: `fourd loadgen` of two tenants of M/2 findings each on the
# cluster (a tenant's snapshot lives on one shard; which shard each landed on is printed).
#
# Usage: scripts/bench-cluster.sh [N] [PAGES]   (N findings a write, default 1000000; PAGES
#        pages of limit=100 a walk, default 150)
#   ROUNDS=2     interleaved rounds
#   BIG=20000000 also the large run across the shards (needs ~8 GB of disk; 0 = skip)
#   BIN=path     a build of fourd (default: build ./cmd/fourd)
#   PORT=18105   where each `fourd serve` listens while its pages are walked
#   KEEP=1       keep the benchmark databases (default: drop them at the end)
# Needs the single-server stack (make services) and the cluster (make cluster or
# scripts/cluster.sh start) running. Writes only to its own databases h5_bench_* (ClickHouse on
# both, PostgreSQL), which it makes afresh.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
pages=${2:-150}
rounds=${ROUNDS:-2}
big=${BIG:-0}
port=${PORT:-18105}
if [ -z "${BIN:-}" ]; then
  go build -o bin/fourd ./cmd/fourd
  BIN=./bin/fourd
fi

PG=postgres://fourd@127.0.0.1:55432
single_ch=clickhouse://127.0.0.1:19000
cluster_ch=clickhouse://127.0.0.1:19101
load() { uptime | sed 's/.*load average: /load /'; }
psql_q() { PGOPTIONS='-c client_min_messages=warning' psql -q -X -v ON_ERROR_STOP=1 "$PG/fourd?sslmode=disable" -c "$1" >/dev/null; }

# env_for MODE DB: the environment of a fourd command on MODE (single|cluster) and database DB.
env_for() {
  local mode=$1 db=$2
  echo "FOURD_POSTGRES_URL=$PG/$db?sslmode=disable"
  echo "FOURD_SECRET=bench-cluster secret of at least thirty-two bytes"
  echo "FOURD_DATA_DIR=${TMPDIR:-/tmp}/$db"
  echo "FOURD_REDIS_URL="
  if [ "$mode" = cluster ]; then
    echo "FOURD_CLICKHOUSE_URL=$cluster_ch/$db"
    echo "FOURD_CLICKHOUSE_CLUSTER=fourd"
  else
    echo "FOURD_CLICKHOUSE_URL=$single_ch/$db"
    echo "FOURD_CLICKHOUSE_CLUSTER="
  fi
}
fourd() {
  local mode=$1 db=$2 vars
  shift 2
  mkdir -p "${TMPDIR:-/tmp}/$db"
  mapfile -t vars < <(env_for "$mode" "$db")
  env "${vars[@]}" "$BIN" "$@"
}
# serve_bg MODE DB: `fourd serve` in the background; $! is its pid.
serve_bg() {
  local vars
  mapfile -t vars < <(env_for "$1" "$2")
  env "${vars[@]}" "$BIN" serve >"${TMPDIR:-/tmp}/$2/serve.log" 2>&1 &
}

# fresh MODE DB: drop and make the databases, then migrate.
fresh() {
  local mode=$1 db=$2
  drop "$mode" "$db"
  psql_q "CREATE DATABASE $db"
  if [ "$mode" = cluster ]; then
    clickhouse-client --port 19101 -q "CREATE DATABASE $db ON CLUSTER fourd" >/dev/null
  else
    clickhouse-client --port 19000 -q "CREATE DATABASE $db"
  fi
  fourd "$mode" "$db" migrate 2>/dev/null
}
drop() {
  local mode=$1 db=$2
  psql_q "DROP DATABASE IF EXISTS $db"
  if [ "$mode" = cluster ]; then
    clickhouse-client --port 19101 -q "DROP DATABASE IF EXISTS $db ON CLUSTER fourd" >/dev/null
  else
    clickhouse-client --port 19000 -q "DROP DATABASE IF EXISTS $db"
  fi
}

# write MODE DB TENANT FINDINGS: one loadgen snapshot; prints its rows/s line.
write() {
  local mode=$1 db=$2 tenant=$3 count=$4
  fourd "$mode" "$db" loadgen --tenant "$tenant" --resources $((count / 10)) --findings "$count" 2>&1 |
    grep -E 'findings in' | sed "s/^/  $mode: /"
}

# walk MODE DB TENANT: serve on PORT and walk PAGES pages of the tenant's findings.
walk() {
  local mode=$1 db=$2 tenant=$3 tok pid
  tok=$(fourd "$mode" "$db" token create --tenant "$tenant" --email bench@"$tenant".local --rate-limit 100000 2>/dev/null | tail -n1)
  serve_bg "$mode" "$db"
  pid=$!
  for _ in $(seq 120); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.5; done
  # A few pages of another size to warm the server (connections, the snapshot's counts), not
  # the pages measured: the server keeps the pages it has served in a cache.
  URL=http://127.0.0.1:$port TOKEN=$tok bash scripts/bench-pages.sh 'limit=50' 5 >/dev/null
  URL=http://127.0.0.1:$port TOKEN=$tok bash scripts/bench-pages.sh 'limit=100' "$pages" | sed "s/^/  $mode: /"
  kill "$pid"
  wait "$pid" 2>/dev/null || true
}

export FOURD_ADDR=127.0.0.1:$port
echo "== cluster against single server: $n findings a write, $pages pages a walk, $rounds rounds ($(load))"
fresh single h5_bench_single
fresh cluster h5_bench_cluster
for r in $(seq "$rounds"); do
  echo "round $r: snapshot write ($(load))"
  write single h5_bench_single "w$r" "$n"
  write cluster h5_bench_cluster "w$r" "$n"
done
for r in $(seq "$rounds"); do
  echo "round $r: page walk, limit=100 ($(load))"
  walk single h5_bench_single w1-0
  walk cluster h5_bench_cluster w1-0
done

if [ "$big" -gt 0 ]; then
  echo "== $big findings across the two shards: two tenants of $((big / 2)) ($(load))"
  fresh cluster h5_bench_big
  df0=$(df -k --output=used . | tail -n1)
  start=$(date +%s)
  for t in 0 1; do write cluster h5_bench_big "big$t" $((big / 2)); done
  echo "  took $(($(date +%s) - start)) s ($(load))"
  for node in 19101 19103; do
    echo "  node $node (shard $(((node - 19101) / 2 + 1))): $(clickhouse-client --port $node -q \
      "SELECT count() FROM h5_bench_big.snapshot_findings_local") findings," \
      "$(clickhouse-client --port $node -q "SELECT formatReadableSize(sum(bytes_on_disk)) FROM system.parts
        WHERE active AND database = 'h5_bench_big'") on disk"
  done
  echo "  disk used on this machine by the run: $((($(df -k --output=used . | tail -n1) - df0) / 1024)) MiB (four replicas)"
  walk cluster h5_bench_big big0-0
fi

if [ "${KEEP:-0}" != 1 ]; then
  drop single h5_bench_single
  drop cluster h5_bench_cluster
  [ "$big" -gt 0 ] && drop cluster h5_bench_big
fi
echo "== done ($(load))"
