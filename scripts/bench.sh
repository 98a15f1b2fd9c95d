#!/usr/bin/env bash
# Side-by-side benchmarks, read with benchstat (golang.org/x/perf).
#
# Every comparison is one benchmark whose sub-benchmarks are named
# impl=<variant>, ours first (BenchmarkPoolCompare/impl=ours,
# BenchmarkPoolCompare/impl=sync.Pool, ...). This script builds each
# package's test binary once and then runs all of them, one sample of
# every benchmark per run, ROUNDS times in turn: each variant's samples
# are spread over the whole session and interleaved with the others',
# so the 1.5x drift this kind of shared machine shows within minutes
# lands on every variant alike instead of on whichever ran last. benchstat
# then prints, per benchmark, each variant's median with its 95%
# confidence interval and its change against ours with a p-value
# (a "~" means no significant difference).
#
# GL benchmarks run under Xvfb (Mesa llvmpipe) and oto ones with ALSA
# pointed at /dev/null, as in the tests.
#
# Usage: ./scripts/bench.sh [-rounds N] [-benchtime D] [-bench REGEXP] [-out DIR] [PACKAGE...]
# Defaults: 10 rounds (benchstat needs 6 samples for an interval),
# -benchtime 100ms, every benchmark, every package with benchmarks,
# results in ./bench-results (raw samples in raw.txt, tables in
# benchstat.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
trap sf_cleanup EXIT

rounds=10
benchtime=100ms
bench=.
out=bench-results
while [ $# -gt 0 ]; do
	case "$1" in
	-rounds) rounds=$2; shift 2 ;;
	-benchtime) benchtime=$2; shift 2 ;;
	-bench) bench=$2; shift 2 ;;
	-out) out=$2; shift 2 ;;
	-h | -help | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*) echo "bench.sh: unknown flag $1" >&2; exit 2 ;;
	*) break ;;
	esac
done

sf_bench_env

if [ $# -eq 0 ]; then
	# Every package of the module with a benchmark. go list, not a walk of
	# the tree, says what the packages are: it leaves out testdata (the
	# benchmarks scripts/baseline.sh builds against 9b6fe4b's API) and the
	# examples, which are modules of their own.
	mapfile -t pkgs < <(go list -f '{{.Dir}}' ./... | sed "s|^$PWD|.|" | while read -r d; do
		if grep -qs '^func Benchmark' "$d"/*_test.go; then echo "$d"; fi
	done)
else
	pkgs=("$@")
fi

mkdir -p "$out"
bindir=$(mktemp -d /tmp/steadyframe-bench.XXXXXX)
trap 'rm -rf "$bindir"; sf_cleanup' EXIT
echo "== building ${#pkgs[@]} test binaries"
for p in "${pkgs[@]}"; do
	name=$(echo "${p#./}" | tr / _)
	go test -c -o "$bindir/$name.test" "$p"
	echo "$p" >"$bindir/$name.pkg"
done

raw="$out/raw.txt"
: >"$raw"
for r in $(seq 1 "$rounds"); do
	echo "== round $r of $rounds"
	for t in "$bindir"/*.test; do
		p=$(cat "${t%.test}.pkg")
		# Run in the package's directory, as go test does (testdata).
		(cd "$p" && "$t" -test.run '^$' -test.bench "$bench" -test.benchtime "$benchtime" \
			-test.benchmem -test.count 1) >>"$raw"
	done
done

tables="$out/benchstat.txt"
: >"$tables"
# One table per benchmark, its variants side by side.
for name in $(grep -oE '^Benchmark[^/ -]+' "$raw" | sort -u | sed 's/^Benchmark//'); do
	{
		echo "### $name"
		benchstat -filter ".name:$name" -col /impl "$raw" | grep -vE '^(goos|goarch|pkg|cpu):'
		echo
	} >>"$tables"
done
cat "$tables"
echo "raw samples: $raw; tables: $tables"
