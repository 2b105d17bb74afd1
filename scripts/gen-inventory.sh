#!/usr/bin/env bash
# Writes N resources of fourd NDJSON to FILE: the sample estate
# (testdata/inventory/fourd.ndjson) replicated with unique native ids, so
# that the rules see realistic resources. An existing FILE is kept only when
# it was made from the same sample and this script (FILE.src holds their
# SHA-256): a file left by an older checkout is made again, since a changed
# sample changes what an audit of it measures.
# Usage: scripts/gen-inventory.sh N FILE
set -euo pipefail
cd "$(dirname "$0")/.."
n=$1 file=$2
src=$(cat testdata/inventory/fourd.ndjson scripts/gen-inventory.sh | sha256sum | cut -c1-64)
[ -s "$file" ] && [ "$(cat "$file.src" 2>/dev/null)" = "$src" ] && exit 0
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
echo "$src" > "$file.src"
