#!/usr/bin/env bash
# The whole test suite: formatting, vet, staticcheck, every package's tests
# (GL under Xvfb with Mesa llvmpipe, audio through oto with ALSA pointed at
# /dev/null; the paced test and the stress gate at a PulseAudio null sink),
# the same under the race detector, voices with its scalar kernels only,
# the example modules (vet, staticcheck, their tests), one round of
# scripts/baseline.sh, and the steady-frame gate (a short stress run that
# must allocate nothing, and its -selftest that must fail naming the
# injected allocation). Installs what it needs when run as root;
# otherwise prints what to install.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
trap sf_cleanup EXIT

sf_require_go
sf_install_packages

sf_go_tool staticcheck honnef.co/go/tools/cmd/staticcheck@v0.8.2

passed=0
failed=0
stage() { # stage NAME: records the outcome of the last command group
	if [ "$1" = ok ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "!! $2 failed"; fi
}

logdir=$(mktemp -d /tmp/steadyframe-test.XXXXXX)

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -z "$unformatted" ]; then stage ok gofmt; else echo "$unformatted"; stage fail gofmt; fi

echo "== go vet"
if go vet ./...; then stage ok vet; else stage fail vet; fi

echo "== staticcheck"
if staticcheck ./...; then stage ok staticcheck; else stage fail staticcheck; fi

sf_start_display
# oto runs for real through ALSA's file plugin. The tests that check the
# captured samples (voices/otodev) write their own capture files; everything
# else plays into /dev/null, because the unpaced null slave would otherwise
# write about 150 MB/s to disk.
# The paced device (scripts/pulse.sh): a PulseAudio null sink, for
# otodev's TestOtoPacedLatency (OTODEV_PULSE_SERVER names it) and the
# steady-frame gate's oto runs. PULSE_SERVER is set for those alone: with
# it, ALSA's pulse hook would send every default device to the server.
sf_paced_audio
paced=(env "PULSE_SERVER=$PULSE_SERVER" "ALSA_CONFIG_PATH=$ALSA_CONFIG_PATH")
paced_server=$PULSE_SERVER
unset PULSE_SERVER
sf_alsa_to_file /dev/null
echo "display $DISPLAY: $(command -v glxinfo >/dev/null && glxinfo -B 2>/dev/null | grep -m1 'renderer string' || echo 'Xvfb')"

# run_tests NAME ARGS...: go test -v into a log; prints package verdicts and,
# on failure, the failing tests' output.
run_tests() {
	local name=$1
	shift
	echo "== go test $*"
	local log="$logdir/$name.log"
	if go test -count=1 -timeout 15m "$@" ./... >"$log" 2>&1; then
		grep -E '^(ok|FAIL|\?) ' "$log" || true
		stage ok "$name"
	else
		grep -E '^(ok|FAIL|\?) ' "$log" || true
		echo "-- failing output ($name):"
		grep -E -B2 -A30 -- '--- FAIL|^panic:|^FAIL|build failed|\[setup failed\]' "$log" | head -400
		stage fail "$name"
	fi
	local p f s
	p=$(grep -cE -- '^ *--- PASS' "$log" || true)
	f=$(grep -cE -- '^ *--- FAIL' "$log" || true)
	s=$(grep -cE -- '^ *--- SKIP' "$log" || true)
	echo "   $name: tests passed $p, failed $f, skipped $s"
	tests_passed=$((${tests_passed:-0} + p))
	tests_failed=$((${tests_failed:-0} + f))
	tests_skipped=$((${tests_skipped:-0} + s))
}

# TestOtoPacedLatency times real-time audio, so it runs alone below, not
# beside the other packages' tests.
run_tests tests -v -skip '^TestOtoPacedLatency$'
run_tests race -race -v -skip '^TestOtoPacedLatency$'

echo "== the paced device: Play-to-output and underruns (TestOtoPacedLatency alone)"
if OTODEV_PULSE_SERVER=$paced_server go test -count=1 -run '^TestOtoPacedLatency$' -v ./voices/otodev/ >"$logdir/paced.log" 2>&1; then
	grep -E 'paced_test|^ok' "$logdir/paced.log"
	stage ok paced
else
	tail -n 30 "$logdir/paced.log"
	stage fail paced
fi

# The audio mixer's scalar kernels are the reference and the fallback of
# its vector ones: run voices with the vector kernels compiled out too.
echo "== go test -tags steadyframe_scalar ./voices/..."
if go test -count=1 -tags steadyframe_scalar -skip '^TestOtoPacedLatency$' ./voices/...; then stage ok scalar-kernels; else stage fail scalar-kernels; fi

# The mixer kernels: generated assembly unchanged, no fused multiply-adds,
# the same bits under GOAMD64=v3 and on arm64 (qemu-user).
echo "== ci-kernels.sh"
if ./scripts/ci-kernels.sh; then stage ok kernels; else stage fail kernels; fi

# The examples are Go modules of their own (a replace points each at this
# checkout), so they can reach only the library's public API. Their tests
# build and run them under Xvfb: the renderer with -verify, the Ebitengine
# game with its sound captured through ALSA.
for ex in examples/*/; do
	echo "== $ex: go vet, staticcheck, go test"
	if (cd "$ex" && go vet ./... && staticcheck ./... && go test -count=1 ./...); then
		stage ok "$ex"
	else
		stage fail "$ex"
	fi
done

# scripts/baseline.sh compares today's hot paths with the code issue 12
# measured (9b6fe4b), through benchmarks in scripts/testdata/baseline
# written against that code's API. One sample each proves they still
# build there and the script still runs; the timing itself is for a
# developer's run with enough rounds. A clone without that commit
# (--depth 1) cannot build it, and says so.
echo "== baseline.sh: the round-start benchmarks build against 9b6fe4b and run once"
if ! git cat-file -e '9b6fe4b^{commit}' 2>/dev/null; then
	echo "   not run: this clone lacks commit 9b6fe4b (a shallow clone); baseline.sh needs the history"
elif ./scripts/baseline.sh -rounds 1 -benchtime 1x -out "$logdir/baseline" >"$logdir/baseline.log" 2>&1 &&
	[ "$(grep -c '^Benchmark' "$logdir/baseline/baseline-old.txt")" -eq 8 ] &&
	[ "$(grep -c '^Benchmark' "$logdir/baseline/baseline-new.txt")" -eq 8 ]; then
	for v in old new; do
		awk -v v="$v" '/^Benchmark/ { print "   " v, $1, $2 "x", $3, $4 }' "$logdir/baseline/baseline-$v.txt"
	done
	stage ok baseline
else
	tail -n 40 "$logdir/baseline.log"
	stage fail baseline
fi

# The GL suites, examples/renderer -verify and the gate again on a
# macOS-like OpenGL 4.1 context and on 3.3 (Mesa overrides), the darwin
# cross-build of the cgo-free packages and the windows/amd64 one of
# everything: scripts/ci-platforms.sh.
echo "== platforms: OpenGL 4.1 (macOS-like) and 3.3, darwin and windows builds"
if ./scripts/ci-platforms.sh; then stage ok platforms; else stage fail platforms; fi

echo "== steady-frame gate: stress under Xvfb with real GL and oto on the paced device"
go build -o "$logdir/stress" ./stress
if "${paced[@]}" "$logdir/stress" -workers 4 -frames 900 -audio oto -report "$logdir/report" >"$logdir/stress.log" 2>&1; then
	tail -n 30 "$logdir/stress.log"
	stage ok stress
else
	tail -n 60 "$logdir/stress.log"
	stage fail stress
fi

echo "== steady-frame gate: the texture-array sprite path (scripts/ci-arrays.sh)"
if ./scripts/ci-arrays.sh "$logdir/stress" "$logdir"; then stage ok arrays; else stage fail arrays; fi

echo "== steady-frame gate: -selftest must fail, naming the injected allocation"
if "${paced[@]}" "$logdir/stress" -workers 4 -frames 600 -audio oto -selftest >"$logdir/selftest.log" 2>&1; then
	tail -n 30 "$logdir/selftest.log"
	echo "!! -selftest exited 0: the guard did not catch the injected allocation"
	stage fail selftest
elif grep -q 'selftestPoke' "$logdir/selftest.log"; then
	tail -n 12 "$logdir/selftest.log"
	stage ok selftest
else
	tail -n 60 "$logdir/selftest.log"
	echo "!! -selftest failed without naming the injected site (selftestPoke)"
	stage fail selftest
fi
rm -rf "$logdir"

echo "go tests: ${tests_passed:-0} passed, ${tests_failed:-0} failed, ${tests_skipped:-0} skipped (both runs, subtests included)"
echo "stages: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
