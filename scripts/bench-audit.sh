#!/usr/bin/env bash
# The audit engine's figures (issue 5): ingest of N resources through
# `fourd import` (NDJSON), a first audit of them, a second audit (the diff of
# two N-sized snapshots), with wall time and peak RSS of each step.
#
# The inventory is the sample estate (testdata/inventory/fourd.ndjson)
# replicated with unique native ids, so the rules see realistic resources.
# Usage: scripts/bench-audit.sh [N]   (default 1000000; needs `make services`)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
tenant=bench-audit-$n-$(date +%s)
file=${TMPDIR:-/tmp}/fourd-bench-$n.ndjson
: "${FOURD_SECRET:=$(head -c 32 /dev/urandom | base64)}"
export FOURD_SECRET
go build -o bin/fourd ./cmd/fourd
if [ ! -s "$file" ]; then
  echo "generating $n resources into $file"
  python3 - "$n" testdata/inventory/fourd.ndjson > "$file" <<'PY'
import sys
n, lines = int(sys.argv[1]), open(sys.argv[2]).read().splitlines()
parts = []
for l in lines:  # split each line around the end of its native id
    i = l.index('"native_id":"') + len('"native_id":"')
    j = l.index('"', i)
    parts.append((l[:j] + "#", l[j:] + "\n"))
out = sys.stdout
for i in range(n):
    pre, post = parts[i % len(parts)]
    out.write(pre + str(i) + post)
PY
fi
timed() { /usr/bin/time -f "  wall %e s, peak RSS %M KiB" "$@"; }
echo "== import $n resources (tenant $tenant)"
timed ./bin/fourd import "$file" --tenant "$tenant" 2>&1 | grep -v '^{' | tail -3
echo "== first audit"
timed ./bin/fourd audit --tenant "$tenant" 2>&1 | grep -v '^{'
echo "== second audit (diff of two snapshots)"
timed ./bin/fourd audit --tenant "$tenant" 2>&1 | grep -v '^{'
