#!/usr/bin/env bash
# Writes N resources of fourd NDJSON to FILE unless FILE exists: the sample
# estate (testdata/inventory/fourd.ndjson) replicated with unique native
# ids, so that the rules see realistic resources.
# Usage: scripts/gen-inventory.sh N FILE
set -euo pipefail
cd "$(dirname "$0")/.."
n=$1 file=$2
[ -s "$file" ] && exit 0
echo "generating $n resources into $file" >&2
python3 - "$n" testdata/inventory/fourd.ndjson > "$file.tmp" <<'PY'
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
mv "$file.tmp" "$file"
