#!/usr/bin/env bash
# Compares the engine's cache hot paths (BenchmarkPageCacheHit and
# BenchmarkPageCacheHitParallel, engine/page_cache_bench_test.go;
# BenchmarkReadCacheHit, engine/read_cache_bench_test.go) between two
# builds, interleaved (old, new, old, new …) so that a shared machine's
# load falls on both alike. Prints each round, then the median and minimum
# ns/op per build and benchmark, and the load average. BENCH picks the
# benchmarks (a -test.bench pattern), CPU the -test.cpu list.
#
#   OLD=<git rev> [NEW=<git rev or "worktree">] [ROUNDS=10] [N=1000000] [BENCH='PageCacheHit|ReadCacheHit'] [CPU=1,2] scripts/bench-page-cache.sh
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=${OLD:?set OLD to the git revision to compare with}
NEW=${NEW:-worktree}
ROUNDS=${ROUNDS:-10}
N=${N:-1000000}
BENCH=${BENCH:-PageCacheHit|ReadCacheHit}
CPU=${CPU:-1,2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build() { # build <rev> <out>
	if [ "$1" = worktree ]; then
		go test -c -o "$2" ./engine/
		return
	fi
	mkdir -p "$tmp/src-$1"
	git archive "$1" | tar -x -C "$tmp/src-$1"
	cp engine/page_cache_bench_test.go engine/read_cache_bench_test.go "$tmp/src-$1/engine/" # the benchmarks, if that build predates them
	(cd "$tmp/src-$1" && go test -c -o "$2" ./engine/)
}
build "$OLD" "$tmp/old.test"
build "$NEW" "$tmp/new.test"
for r in $(seq "$ROUNDS"); do
	for v in old new; do
		"$tmp/$v.test" -test.run '^$' -test.bench "$BENCH" -test.cpu "$CPU" -test.benchtime "${N}x" |
			awk -v v="$v" '/^Benchmark/ {print v, $1, $3}'
	done
done | tee "$tmp/rounds"
echo "--- median / min ns/op (load: $(cut -d' ' -f1-3 /proc/loadavg))"
for b in $(awk '{print $2}' "$tmp/rounds" | sort -u); do
	for v in old new; do
		grep "^$v $b " "$tmp/rounds" | awk '{print $3}' | sort -n |
			awk -v v="$v" -v b="$b" '{a[NR]=$1} END {printf "%s %s median %s min %s\n", v, b, a[int((NR+1)/2)], a[1]}'
	done
done
