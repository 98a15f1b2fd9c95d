#!/usr/bin/env bash
# Today's hot paths against the code issue 12 measured, side by side.
#
# Issue 12 set its speed targets in nanoseconds on the machine of the
# engineer who filed it, next to what the code of the time (commit
# 9b6fe4b) took there: free+alloc+retire 26 ns (target 13), Arena.Alloc
# 2.9 ns (target 2), Play 91 ns (target 60). This machine's speed drifts
# 1.5x to 3x within minutes, so a nanosecond figure from it says little
# alone; the ratio to the old code, measured in the same minutes, is what
# carries over from one machine to another.
#
# The script checks BASE (default 9b6fe4b) out in a temporary worktree,
# copies the benchmarks in scripts/testdata/baseline into it (each does
# the work of today's benchmark of the same name, through the old API),
# builds both versions' test binaries, and runs them alternately, ROUNDS
# times, swapping which goes first each round. The mixer's two rows
# (Mix32: today's default, vector kernels and windowed sinc; Mix32Linear:
# vector kernels, linear) both compare against the old mixer, which had
# scalar code and linear interpolation only. The old samples are
# renamed from BenchmarkBaseline_X to BenchmarkX/impl=ours and benchstat
# compares the two files: each row is one benchmark, the old code's
# median, today's, and the change with its p-value.
#
# With -instructions N it counts instead of timing: each version's
# churn and 64-byte arena benchmarks run under valgrind's callgrind, once
# for 1 op and once for N, and the difference over N-1 is the
# instructions per op. That figure does not drift with the machine.
# (Play is left out: its benchmark stops the timer around StopAll, which
# callgrind counts anyway.) It needs valgrind.
#
# Usage: ./scripts/baseline.sh [-base COMMIT] [-rounds N] [-benchtime D] [-out DIR] [-instructions N]
# Defaults: 9b6fe4b, 10 rounds, 300ms, results in ./bench-results
# (baseline-old.txt, baseline-new.txt, baseline.txt). Needs the
# repository's history (a clone has it).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
trap sf_cleanup EXIT

base=9b6fe4b
rounds=10
benchtime=300ms
out=bench-results
instructions=0
while [ $# -gt 0 ]; do
	case "$1" in
	-base) base=$2; shift 2 ;;
	-rounds) rounds=$2; shift 2 ;;
	-benchtime) benchtime=$2; shift 2 ;;
	-out) out=$2; shift 2 ;;
	-instructions) instructions=$2; shift 2 ;;
	-h | -help | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "baseline.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done

sf_bench_env
if [ "$instructions" -gt 0 ] && ! command -v valgrind >/dev/null; then
	echo "baseline.sh: -instructions needs valgrind (apt-get install valgrind)" >&2
	exit 2
fi

tmp=$(mktemp -d /tmp/steadyframe-baseline.XXXXXX)
cleanup() {
	git worktree remove --force "$tmp/old" 2>/dev/null || true
	rm -rf "$tmp"
	sf_cleanup
}
trap cleanup EXIT

echo "== checking out $base"
git worktree add --detach --quiet "$tmp/old" "$base"

# package, today's benchmarks, the baseline's (space-separated)
benches=(
	'descriptors ^BenchmarkChurn$/^impl=ours$ ^BenchmarkBaseline_Churn$'
	'upload ^BenchmarkArenaAlloc(64B|256B|1KiB|4KiB)$/^impl=ours$ ^BenchmarkBaseline_ArenaAlloc'
	'voices ^Benchmark(Play|Mix32)$/^impl=(ours|vector-sinc|vector-linear)$ ^BenchmarkBaseline_(Play|Mix32)$'
)

echo "== building the test binaries"
for row in "${benches[@]}"; do
	read -r pkg _ _ <<<"$row"
	cp scripts/testdata/baseline/"$pkg"/*_test.go "$tmp/old/$pkg/"
	(cd "$tmp/old" && go test -c -o "$tmp/old-$pkg.test" "./$pkg")
	go test -c -o "$tmp/new-$pkg.test" "./$pkg"
done

mkdir -p "$out"

if [ "$instructions" -gt 0 ]; then
	# irefs BINARY REGEXP OPS DIR: instructions callgrind counts in a run.
	# A run that ends without a count fails, printing its output less
	# valgrind's stack frames. Go's asynchronous preemption is off:
	# callgrind aborts on the signals it sends ("Assertion 'sigNum ==
	# vgCallgrind_current_state.sig' failed"), which a loaded machine
	# makes frequent.
	irefs() {
		local log n
		log=$(cd "$4" && GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
			"$1" -test.run '^$' -test.bench "$2" -test.benchtime "$3x" 2>&1) || true
		n=$(sed -n 's/.*I *refs: *//p' <<<"$log" | tr -d ,)
		if [ -z "$n" ]; then
			echo "baseline.sh: callgrind gave no count for $(basename "$1") -test.bench '$2' -test.benchtime $3x:" >&2
			grep -vE '^==[0-9]+== +(at|by) ' <<<"$log" | head -n 30 >&2
			return 1
		fi
		echo "$n"
	}
	echo "== instructions per op (callgrind, $instructions ops less 1)" | tee "$out/instructions.txt"
	for row in 'descriptors Churn ^BenchmarkChurn$/^impl=ours$ ^BenchmarkBaseline_Churn$' \
		'upload ArenaAlloc64B ^BenchmarkArenaAlloc64B$/^impl=ours$ ^BenchmarkBaseline_ArenaAlloc64B$'; do
		read -r pkg name newre oldre <<<"$row"
		o1=$(irefs "$tmp/old-$pkg.test" "$oldre" 1 "$tmp/old/$pkg")
		oN=$(irefs "$tmp/old-$pkg.test" "$oldre" "$instructions" "$tmp/old/$pkg")
		n1=$(irefs "$tmp/new-$pkg.test" "$newre" 1 "$pkg")
		nN=$(irefs "$tmp/new-$pkg.test" "$newre" "$instructions" "$pkg")
		echo "$name: $base $(((oN - o1) / (instructions - 1))), today $(((nN - n1) / (instructions - 1)))" |
			tee -a "$out/instructions.txt"
	done
	exit 0
fi

old="$out/baseline-old.txt"
new="$out/baseline-new.txt"
: >"$old"
: >"$new"
run() { # which pkg regexp dir
	(cd "$4" && "$tmp/$1-$2.test" -test.run '^$' -test.bench "$3" -test.benchtime "$benchtime" \
		-test.benchmem -test.count 1)
}
for r in $(seq 1 "$rounds"); do
	echo "== round $r of $rounds"
	for row in "${benches[@]}"; do
		read -r pkg newre oldre <<<"$row"
		if [ $((r % 2)) -eq 1 ]; then
			run old "$pkg" "$oldre" "$tmp/old/$pkg" >>"$old"
			run new "$pkg" "$newre" "$pkg" >>"$new"
		else
			run new "$pkg" "$newre" "$pkg" >>"$new"
			run old "$pkg" "$oldre" "$tmp/old/$pkg" >>"$old"
		fi
	done
done
sed -i -E 's|^BenchmarkBaseline_([A-Za-z0-9]+)|Benchmark\1/impl=ours|' "$old"
# The mixer gets two rows against the same old samples (9b6fe4b mixed
# with scalar code and linear interpolation only): Mix32 for today's
# default, vector kernels with the windowed sinc, and Mix32Linear for the
# vector kernels with linear interpolation.
{
	echo "pkg: github.com/steadyframe/steadyframe/voices"
	sed -n 's|^BenchmarkMix32/impl=ours|BenchmarkMix32Linear/impl=ours|p' "$old"
} >>"$old"
sed -i -E 's|^BenchmarkMix32/impl=vector-sinc|BenchmarkMix32/impl=ours|; s|^BenchmarkMix32/impl=vector-linear|BenchmarkMix32Linear/impl=ours|' "$new"

table="$out/baseline.txt"
benchstat "$base=$old" "today=$new" | grep -vE '^(goos|goarch|cpu):' | tee "$table"
echo "raw samples: $old, $new; table: $table"
