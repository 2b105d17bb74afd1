#!/usr/bin/env bash
# The audit engine's figures (issue 5): ingest of N resources through
# `fourd import` (NDJSON), a first audit of them, a second audit (the diff of
# two N-sized snapshots), with wall time and peak RSS of each step.
#
# The inventory comes from scripts/gen-inventory.sh.
# Usage: scripts/bench-audit.sh [N]   (default 1000000; needs `make services`)
#   BIN=path    another build of fourd (to interleave with this one)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
tenant=bench-audit-$n-$(date +%s)
file=${TMPDIR:-/tmp}/fourd-bench-$n.ndjson
: "${FOURD_SECRET:=$(head -c 32 /dev/urandom | base64)}"
export FOURD_SECRET
if [ -z "${BIN:-}" ]; then
  go build -o bin/fourd ./cmd/fourd
  BIN=./bin/fourd
fi
scripts/gen-inventory.sh "$n" "$file"
timed() { /usr/bin/time -f "  wall %e s, peak RSS %M KiB, client CPU %U+%S s" "$@"; }
echo "== import $n resources (tenant $tenant)"
timed "$BIN" import "$file" --tenant "$tenant" 2>&1 | grep -v '^{' | tail -3
echo "== first audit"
timed "$BIN" audit --tenant "$tenant" 2>&1 | grep -v '^{'
echo "== second audit (diff of two snapshots)"
timed "$BIN" audit --tenant "$tenant" 2>&1 | grep -v '^{'
