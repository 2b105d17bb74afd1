#!/usr/bin/env bash
# The findings filters' page and count latency through the API (issue 33 §3),
# against a running `fourd serve` whose tenant was written by `fourd loadgen`
# (tags env=prod|staging|dev and team=team-0…16 on every resource, names
# lg-<type>-<i>, titles "Synthetic <severity> <dimension> finding on <type>",
# no compliance references, every finding first seen at the loadgen's time).
# Each round asks every filter once (interleaved), the first page with a
# limit of 60+round so that no page comes from the page caches; then each
# filter's summary (group_by=severity). Prints p50/p90/p99 in ms per filter.
# Start the server afresh before each run: its page cache keeps the rows of a
# snapshot's pages (snapshots never change), so a limit asked before is a hit.
# A request that outlasts the read timeout (FOURD_READ_TIMEOUT, 5 s) answers
# 503: such answers are counted per filter, with their status.
# tag=owner=h3-bench is a selective tag: loadgen writes none (it then matches
# nothing); docs/benchmarks.md says how the issue 33 runs gave it to 20
# resources of a copy of the tenant.
# tag=owner=owner-@R@ is a selective tag that matches findings: a tenant
# written by `fourd loadgen --owners 10000` tags each of its 1M resources
# with one of 10,000 owners (100 resources, 1,000 findings each); each round
# asks another owner (@R@ is 42+round for pages, 4242+round for counts), so
# that no answer comes from what an earlier round resolved.
# FILTERS (space-separated query strings, "none" for no filter) narrows a
# run to some filters, e.g. FILTERS='tag=owner%3Downer-@R@ tag=team%3Dteam-3'.
# rule_id=loadgen-000 (1M of 10M findings) is the page a compliance filter is
# compared with. loadgen's texts map to no control: for the compliance rows
# of docs/benchmarks.md, h4_bench gave CIS-AWS-4.0.1:1.4 to 20 of its 200
# texts (10% of the findings, so the framework too) and CIS-AWS-4.0.1:2.1.4
# to 2 of them (1%); SOC2 is held by none:
#   INSERT INTO finding_texts (tenant_id, text_id, title, description, remediation, compliance, written_at)
#   SELECT tenant_id, text_id, title, description, remediation, if(rn < 2, ['CIS-AWS-4.0.1:2.1.4', 'CIS-AWS-4.0.1:1.4'],
#     ['CIS-AWS-4.0.1:1.4']), now() FROM (SELECT *, rowNumberInAllBlocks() AS rn
#     FROM (SELECT * FROM finding_texts ORDER BY text_id LIMIT 20))
# Usage: URL=http://127.0.0.1:18101 TOKEN=pat_… ASSIGNEE=usr_… scripts/bench-filters.sh [rounds]
#   The 10M tenant: serve the database h3bench (tenant h3m-0, `fourd loadgen --resources 1000000
#   --findings 10000000`) and run it with its token, e.g. scripts/bench-filters.sh 6.
set -euo pipefail
rounds=${1:-30}
: "${URL:?}" "${TOKEN:?}"
filters=(
  ""
  "severity=critical"
  "assignee=${ASSIGNEE:-usr_00000000000000000000000000}"
  "tag=team%3Dteam-3"
  "tag=env%3Dprod&tag=team%3Dteam-3"
  "tag=owner%3Dh3-bench"
  "tag=owner%3Downer-@R@"
  "rule_id=loadgen-000"
  "compliance=CIS-AWS-4.0.1"
  "compliance=CIS-AWS-4.0.1:2.1.4"
  "compliance=SOC2"
  "q=lg-eip-4242"
  "q=synthetic%20CRITICAL"
  "first_seen_before=2020-01-01T00:00:00Z"
  "first_seen_after=2020-01-01T00:00:00Z"
)
if [ -n "${FILTERS:-}" ]; then
  filters=()
  for f in $FILTERS; do [ "$f" = none ] && f=""; filters+=("$f"); done
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
get() { curl -s -o /dev/null -w '%{http_code} %{time_total}\n' -H "Authorization: Bearer $TOKEN" "$URL$1"; }
echo "start: $(uptime | sed 's/.*load/load/')"
for r in $(seq 0 $((rounds - 1))); do
  for i in "${!filters[@]}"; do
    get "/v1/findings?limit=$((60 + r))&${filters[$i]//@R@/$((42 + r))}" >>"$out/page.$i"
  done
done
for r in $(seq 0 $((rounds / 3 - 1))); do
  for i in "${!filters[@]}"; do
    get "/v1/findings/summary?group_by=severity&${filters[$i]//@R@/$((4242 + r))}" >>"$out/count.$i"
  done
done
echo "end: $(uptime | sed 's/.*load/load/')"
stats() {
  awk '{ print $2 * 1000 }' "$1" | sort -n | awk '{ v[NR] = $1 } END {
    n = NR; a = int(n * 0.5 + 0.5); b = int(n * 0.9 + 0.5); c = int(n * 0.99 + 0.5)
    if (a < 1) a = 1; if (c > n) c = n
    printf "n=%d p50=%.0f p90=%.0f p99=%.0f", n, v[a], v[b], v[c] }'
  awk '$1 != 200 { bad++; code[$1]++ } END { if (bad) { printf " (%d of %d not 200:", bad, NR; for (c in code) printf " %s×%d", c, code[c]; printf ")" } }' "$1"
}
for i in "${!filters[@]}"; do
  printf '%-45s page: %s | count: %s\n' "${filters[$i]:-(none)}" "$(stats "$out/page.$i")" "$(stats "$out/count.$i")"
done
