#!/usr/bin/env bash
# Counts the instructions per output frame of the arm64 kernels, NEON
# against scalar, where this machine cannot time them: dsp's
# BenchmarkFilter, BenchmarkFilterSteps, BenchmarkUnity, BenchmarkLinear
# and BenchmarkSplit run under qemu-aarch64 with their translation and
# execution logged (-d in_asm,exec,nochain), and each executed block's
# instructions are attributed to its function. Two run lengths are
# subtracted, so the benchmark's set-up cancels out. Needs qemu-user and
# python3; docs/kernels.md quotes its output. Arguments pick the groups
# (sinc pitched unity linear split); the default is all of them.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d /tmp/steadyframe-insns.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
GOARCH=arm64 CGO_ENABLED=0 go test -c -o "$tmp/dsp.test" ./voices/internal/dsp

count() { # count BENCH N HOT: instructions executed in the functions matching HOT
	GOGC=off qemu-aarch64 -d in_asm,exec,nochain -D "$tmp/q.log" "$tmp/dsp.test" \
		-test.run '^$' -test.bench "^$1\$" -test.benchtime "$2x" >/dev/null
	python3 - "$tmp/q.log" "$3" <<'PY'
import re, sys
size, cnt, sym = {}, {}, {}
cur, n, s = None, 0, None
for line in open(sys.argv[1], errors="replace"):
    if line.startswith("IN:"):
        cur, n, s = None, 0, line[3:].strip()
        continue
    m = re.match(r"^0x([0-9a-f]+):\s", line)
    if m:
        if cur is None:
            cur = int(m.group(1), 16)
            sym[cur] = s
        n += 1
        size[cur] = n
        continue
    m = re.match(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/", line)
    if m:
        pc = int(m.group(1), 16)
        cnt[pc] = cnt.get(pc, 0) + 1
hot = re.compile(sys.argv[2])
print(sum(c * size.get(pc, 0) for pc, c in cnt.items() if hot.search(sym.get(pc) or "")))
PY
}

groups=${*:-sinc pitched unity linear split}
want() { [[ " $groups " == *" $1 "* ]]; }

# per GROUP BENCH HOT: the instructions per output frame (1024 outputs a
# call) of BENCH's functions matching HOT.
per() {
	a=$(count "$2" 2 "$3")
	z=$(count "$2" 6 "$3")
	echo "$1 ${2#Benchmark*/}: $(awk -v a="$a" -v z="$z" 'BEGIN { printf "%.1f", (z - a) / (4 * 1024) }') instructions per output frame"
}

sinc='dsp\.(filterScalar|filterNEON|sincQuarters|sincDot|\(\*Kernels\)\.Filter)'
pitch='dsp\.(filterStepsScalar|filterStepsNEON|pitchDot|pitchMonoNEON|pitchStereoNEON|\(\*Interp\)\.rows|\(\*Kernels\)\.FilterSteps)'
unity='dsp\.(mix(S16|F32)(Mono|Stereo)(NEON)?|(init\.)?unityVec\.func[0-9]+|clamp|Sanitize|\(\*Kernels\)\.Mix)(\.abi0)?$'
linear='dsp\.(resample(S16|F32)(Mono|Stereo)(NEON)?|(init\.)?linearVec\.func[0-9]+|frac|clamp|Sanitize|\(\*Kernels\)\.Linear)(\.abi0)?$'
split='dsp\.(convertScalar|splitNEON|split(S16|F32)(Mono|Stereo)NEON|clamp|Sanitize|\(\*Kernels\)\.Split)(\.abi0)?$'
if want sinc; then
	for b in scalar/mono neon/mono scalar/stereo neon/stereo; do
		per sinc "BenchmarkFilter/$b" "$sinc"
	done
fi
if want pitched; then
	for b in scalar/taps=48/mono neon/taps=48/mono scalar/taps=48/stereo neon/taps=48/stereo; do
		per pitched "BenchmarkFilterSteps/$b" "$pitch"
	done
fi
for g in unity linear split; do
	want $g || continue
	bench=Benchmark${g^}
	for k in s16-mono s16-stereo f32-mono f32-stereo; do
		for set in scalar neon; do
			per $g "$bench/$set/$k" "${!g}"
		done
	done
done
