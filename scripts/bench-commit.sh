#!/usr/bin/env bash
# One package's benchmarks, today's against a given commit's, side by side.
#
# baseline.sh compares against the fixed commit issue 12 measured; this
# compares against any commit (default 2f627b0, the split of voices
# before issue 17's mixer work). It checks BASE out in a temporary
# worktree, builds both versions' test binaries of PKG, and runs them
# alternately ROUNDS times, swapping which goes first each round, with
# -benchmem. benchstat then compares benchmarks of the same name: the old
# median, today's, the change and its p-value. A benchmark that only one
# side has shows in its column alone (today's new variants, for ratios
# read within one column).
#
# Usage: ./scripts/bench-commit.sh [-base COMMIT] [-pkg PKG] [-bench REGEXP] [-rounds N] [-benchtime D] [-out DIR]
# Defaults: 2f627b0, voices, '^Benchmark(Mix32|Play)$', 8 rounds, 300ms,
# results in ./bench-results (commit-old.txt, commit-new.txt, commit.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

base=2f627b0
pkg=voices
bench='^Benchmark(Mix32|Play)$'
rounds=8
benchtime=300ms
out=bench-results
while [ $# -gt 0 ]; do
	case "$1" in
	-base) base=$2; shift 2 ;;
	-pkg) pkg=$2; shift 2 ;;
	-bench) bench=$2; shift 2 ;;
	-rounds) rounds=$2; shift 2 ;;
	-benchtime) benchtime=$2; shift 2 ;;
	-out) out=$2; shift 2 ;;
	-h | -help | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "bench-commit.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done

sf_bench_env
tmp=$(mktemp -d /tmp/steadyframe-bench-commit.XXXXXX)
cleanup() {
	git worktree remove --force "$tmp/old" 2>/dev/null || true
	rm -rf "$tmp"
	sf_cleanup
}
trap cleanup EXIT

echo "== checking out $base"
git worktree add --detach --quiet "$tmp/old" "$base"
echo "== building the test binaries"
(cd "$tmp/old" && go test -c -o "$tmp/old.test" "./$pkg")
go test -c -o "$tmp/new.test" "./$pkg"

mkdir -p "$out"
old="$out/commit-old.txt"
new="$out/commit-new.txt"
: >"$old"
: >"$new"
run() { # binary dir
	(cd "$2" && "$1" -test.run '^$' -test.bench "$bench" -test.benchtime "$benchtime" -test.benchmem -test.count 1)
}
for r in $(seq 1 "$rounds"); do
	echo "== round $r of $rounds"
	if [ $((r % 2)) -eq 1 ]; then
		run "$tmp/old.test" "$tmp/old/$pkg" >>"$old"
		run "$tmp/new.test" "$pkg" >>"$new"
	else
		run "$tmp/new.test" "$pkg" >>"$new"
		run "$tmp/old.test" "$tmp/old/$pkg" >>"$old"
	fi
done
table="$out/commit.txt"
benchstat "$base=$old" "today=$new" | grep -vE '^(goos|goarch|cpu):' | tee "$table"
echo "raw samples: $old, $new; table: $table"
