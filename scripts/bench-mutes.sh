#!/usr/bin/env bash
# Mute rule reads at scale (issue 33 §1), against a running `fourd serve` over
# a `fourd loadgen` tenant (docs/benchmarks.md, "Mute rules").
#
#   scripts/bench-mutes.sh rules [n]   creates n rules (default 20)
#       resource.account == "<a>" && finding.rule_id == "<r>", one per
#       (account, rule) pair of the open findings (83k each at 10M), and
#       prints how long each POST took (it answers once reads reflect it).
#   scripts/bench-mutes.sh reads [pages]
#       the counts, each asked once (a first ask: start the server afresh
#       before, its per-decision-set cache answers a second ask), then the
#       page walks of status=open and status=muted (scripts/bench-pages.sh).
#
# Usage: URL=http://127.0.0.1:18102 TOKEN=fdp_… scripts/bench-mutes.sh rules|reads [n]
set -euo pipefail
: "${URL:?}" "${TOKEN:?}"
cd "$(dirname "$0")"
auth=(-H "Authorization: Bearer $TOKEN")
echo "start: $(uptime | sed 's/.*load/load/')"
case "${1:-}" in
rules)
  n=${2:-20}
  exp=$(date -u -d '+30 days' +%Y-%m-%dT%H:%M:%SZ)
  curl -sf "${auth[@]}" "$URL/v1/findings/summary?status=open&group_by=account,rule" |
    python3 -c 'import json,sys; [print(g["key"]["account"], g["key"]["rule"]) for g in json.load(sys.stdin)["groups"]]' |
    head -n "$n" | while read -r account rule; do
    body=$(printf '{"expression":"resource.account == \\"%s\\" && finding.rule_id == \\"%s\\"","reason":"bench","expires_at":"%s"}' "$account" "$rule" "$exp")
    curl -sf -o /dev/null -w "rule $account $rule: %{http_code} in %{time_total} s\n" "${auth[@]}" \
      -H 'Content-Type: application/json' -d "$body" "$URL/v1/mute_rules"
  done
  ;;
reads)
  pages=${2:-150}
  for q in 'status=open&group_by=severity' 'status=open&group_by=account' 'status=open&group_by=dimension' \
    'status=muted' 'group_by=status'; do
    curl -s -o /dev/null -w "count $q: %{http_code} in %{time_total} s\n" "${auth[@]}" "$URL/v1/findings/summary?$q"
  done
  ./bench-pages.sh 'status=open&limit=100' "$pages"
  ./bench-pages.sh 'status=muted&limit=100' "$pages"
  ./bench-pages.sh 'limit=100' "$pages"
  ;;
*)
  echo "usage: $0 rules [n] | reads [pages]" >&2
  exit 2
  ;;
esac
echo "end: $(uptime | sed 's/.*load/load/')"
