#!/usr/bin/env bash
# The mixer kernels' CI stage (issue 17): the generated amd64 assembly is
# what its generator writes, no Go code of voices fuses a multiply-add on
# arm64 or with GOAMD64=v3, and the bit-identity tests pass under
# GOAMD64=v3 and on arm64 under qemu-user (installed with apt-get when
# missing and run as root). A few minutes. Called by scripts/test.sh; runs
# alone too.
set -euo pipefail
cd "$(dirname "$0")/.."

failed=0
fail() { echo "!! ci-kernels: $*"; failed=1; }

if ! command -v qemu-aarch64 >/dev/null; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		echo "== installing qemu-user"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq && apt-get install -y -qq --no-install-recommends qemu-user >/dev/null
	else
		echo "ci-kernels: qemu-aarch64 is missing; install it with: sudo apt-get install qemu-user" >&2
		exit 1
	fi
fi

tmp=$(mktemp -d /tmp/steadyframe-kernels.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# The bit-identity tests: the golden renders and tables, the kernels
# against the reference and against each other; and their allocations.
bits='TestRenderGolden|TestTablesGolden|TestKernels|TestVector|TestNEON|TestRamp|TestConverters|TestResampler|TestLimiter|TestDeinterleave|TestPeak|TestMixerAllocs'

# Each generator is a module of its own (PKG/asmgen), so the library's
# go.mod does not need avo; go generate fetches it. PKG:FILE pairs: the
# vector kernels, and the queue's release store.
for gen in voices/internal/dsp:kernels_amd64.s lifetime/syncs:release_amd64.s; do
	pkg=${gen%%:*}
	file=$pkg/${gen#*:}
	echo "== generated assembly: go generate ./$pkg changes nothing"
	if (cd "$pkg/asmgen" && go vet ./...) && go generate "./$pkg" &&
		git diff --exit-code --stat -- "$file"; then
		echo "   unchanged"
	else
		fail "regenerating $file changed the committed assembly (run go generate ./$pkg and commit)"
	fi
done

# fused ARCHENV...: lists the non-test functions of voices and its internal
# packages whose machine code has a fused multiply-add, in a test binary
# built with the given environment.
fused() {
	env "$@" CGO_ENABLED=0 go test -c -o "$tmp/voices.test" ./voices
	go tool objdump -s 'steadyframe/voices' "$tmp/voices.test" |
		awk '/^TEXT /{fn=$2; file=$3; next}
			file !~ /(_test\.go|\/dsptest\/)/ && $4 ~ /^(VFN?M(ADD|SUB)[0-9]+[SP][SD]|FN?M(ADD|SUB)[SD]|V?FML[AS])/ {print "   " fn, $4}' |
		sort | uniq -c
}
for arch in "GOARCH=arm64" "GOARCH=amd64 GOAMD64=v3"; do
	echo "== no fused multiply-adds in voices' Go code ($arch)"
	# shellcheck disable=SC2086
	out=$(fused $arch)
	if [ -n "$out" ]; then
		echo "$out"
		fail "fused multiply-adds with $arch: wrap the product in an explicit float32() or float64() conversion"
	fi
done

echo "== GOAMD64=v3: go test ./voices ./voices/internal/..."
GOAMD64=v3 go test -count=1 ./voices ./voices/internal/... || fail "tests under GOAMD64=v3"

echo "== arm64 under qemu-aarch64: the bit-identity tests"
GOARCH=arm64 CGO_ENABLED=0 go test -count=1 -exec qemu-aarch64 -run "$bits" ./voices ./voices/internal/... ||
	fail "the bit-identity tests on arm64 (qemu-aarch64)"

[ "$failed" -eq 0 ]
