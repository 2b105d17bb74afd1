#!/usr/bin/env bash
# Page latency through the API: walks N pages of /v1/findings by cursor and
# prints p50/p90/p99/max of curl's time_total. Against a running `fourd serve`
# (start it afresh: its page cache keeps the pages of a snapshot it has served).
# Usage: URL=http://127.0.0.1:8080 TOKEN=fdp_… scripts/bench-pages.sh [query] [pages]
#   e.g. scripts/bench-pages.sh 'status=open&limit=100' 150
set -euo pipefail
: "${URL:?}" "${TOKEN:?}"
q=${1:-limit=100}
n=${2:-150}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cursor=""
for _ in $(seq 1 "$n"); do
  curl -sf -o "$out/page.json" -w '%{time_total}\n' -H "Authorization: Bearer $TOKEN" \
    "$URL/v1/findings?$q${cursor:+&cursor=$cursor}" >>"$out/times"
  cursor=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("next_cursor") or "")' "$out/page.json")
  [ -n "$cursor" ] || break
done
sort -n "$out/times" | awk -v q="$q" '{a[NR]=$1} END {
  i50 = int(NR*0.5); i90 = int(NR*0.9); i99 = int(NR*0.99); if (i50 < 1) i50 = 1; if (i90 < 1) i90 = 1; if (i99 < 1) i99 = 1
  printf "%s: pages %d p50 %.1f ms p90 %.1f ms p99 %.1f ms max %.1f ms\n", q, NR, a[i50]*1000, a[i90]*1000, a[i99]*1000, a[NR]*1000 }'
