#!/usr/bin/env bash
# The platforms stage of scripts/test.sh: what runs beyond the default
# OpenGL 4.5 context.
#
#   contexts  the GL test suites (the hazard check and its unfenced
#             controls included; glarray and spritegl too), examples/renderer
#             with -verify and -guard, the steady-frame gate on both sprite
#             paths (-sprite-path bind and array) and the demo's test, on Mesa
#             llvmpipe made macOS-like (OpenGL 4.1 core, GLSL 4.10, no
#             post-4.1 extension) and at OpenGL 3.3 core. Each run checks
#             that the context really was that version and that the
#             backends took their 4.1 paths (upload map-range, textures
#             bound to edit).
#   darwin    every cgo-free package cross-built and vetted for
#             darwin/arm64 and darwin/amd64. The cgo ones (GL, oto) need
#             Apple's SDK, which Linux cannot have: not built.
#   windows   every package, both commands and both examples cross-built
#             for windows/amd64 with mingw-w64, go vet for windows (test
#             files included).
#
#   wine      the windows/amd64 builds run under Debian's Wine: every
#             cgo-free package's test binary (four excepted, below), the
#             stress tool headless with -audio offline, and the GL
#             renderer with -verify on the Xvfb display (4.5 and 4.1).
#
# Usage: scripts/ci-platforms.sh [contexts] [darwin] [windows] [wine]
# (default: all). It expects what test.sh sets up: Go, the packages, a
# display and ALSA pointed at a file. It prints one line per check and
# exits non-zero if any failed.
set -euo pipefail
cd "$(dirname "$0")/.."

# The extensions newer than 4.1 that llvmpipe lists and the code could
# use; internal/gltest.PostGL41Extensions is the same list.
post41="GL_ARB_buffer_storage GL_ARB_direct_state_access GL_ARB_texture_storage
GL_ARB_map_buffer_alignment GL_ARB_shader_storage_buffer_object
GL_ARB_compute_shader GL_ARB_shading_language_420pack
GL_ARB_explicit_uniform_location GL_ARB_multi_bind GL_ARB_clear_texture
GL_ARB_vertex_attrib_binding GL_ARB_get_texture_sub_image
GL_ARB_shader_image_load_store GL_ARB_texture_view GL_ARB_base_instance
GL_ARB_program_interface_query GL_ARB_clear_buffer_object
GL_ARB_invalidate_subdata GL_ARB_copy_image GL_ARB_multi_draw_indirect
GL_ARB_bindless_texture"
hide=$(for e in $post41; do printf -- '-%s ' "$e"; done)

failed=0
check() { # check NAME COMMAND...: runs it, prints ok or FAIL
	local name=$1
	shift
	if "$@"; then echo "   ok   $name"; else echo "   FAIL $name"; failed=$((failed + 1)); fi
}

log=$(mktemp -d /tmp/steadyframe-platforms.XXXXXX)
trap 'rm -rf "$log"' EXIT

gl_packages=(./glcaps/... ./lifetime/glfence/ ./upload/... ./descriptors/... ./internal/glctx/
	./internal/quads/... ./internal/scene/ ./internal/spritegl/ ./cmd/demo/ ./stress/)

# on_context VERSION GLSL NAME: one context's runs.
on_context() {
	local version=$1 glsl=$2 name=$3
	export MESA_GL_VERSION_OVERRIDE=$version MESA_GLSL_VERSION_OVERRIDE=$glsl MESA_EXTENSION_OVERRIDE=$hide
	echo "== OpenGL $version core ($name): MESA_GL_VERSION_OVERRIDE=$version, post-4.1 extensions hidden"
	check "$name: GL test suites" sh -c "go test -count=1 -v ${gl_packages[*]} >'$log/$name-tests.log' 2>&1"
	grep -E '^(ok|FAIL)' "$log/$name-tests.log" | sed 's/^/        /'
	# A failure's report, or a crashed test binary's (no "--- FAIL" line).
	# Under -v a test's t.Errorf lines stream before its "--- FAIL" line:
	# each failed top-level test's output from its "=== RUN" is kept too.
	grep -E -A12 -- '--- FAIL|^panic:|^SIGSEGV|^fatal error:|^signal: ' "$log/$name-tests.log" | head -60 || true
	for t in $(sed -n 's/^--- FAIL: \([^ ]*\) .*/\1/p' "$log/$name-tests.log"); do
		echo "        -- $t, its output:"
		awk -v t="$t" '$0 == "=== RUN   " t {on = 1} on {print} on && $0 ~ "^--- FAIL: " t " " {exit}' "$log/$name-tests.log" | tail -40
	done
	# The hazard rig's own figures: 0 wrong frames fenced, the controls wrong.
	grep -E 'hazard_test.go.*(fenced|unfenced|overwrite) +frames' "$log/$name-tests.log" | sed 's/^ */        /' || true
	check "$name: glbuf.New picked map-range on OpenGL $version" \
		grep -q "$version (Core Profile) Mesa.*: New picked map-range" "$log/$name-tests.log"
	check "$name: glarray.New picked arrays bound to edit on OpenGL $version" \
		grep -q "$version (Core Profile) Mesa.*: New picked arrays bound to edit" "$log/$name-tests.log"

	check "$name: examples/renderer -verify -guard" sh -c "'$log/renderer' -frames 480 -verify -guard -hidden >'$log/$name-renderer.log' 2>&1"
	grep -E '^(renderer|verify|guard):' "$log/$name-renderer.log" | sed 's/^/        /'
	check "$name: the renderer ran on OpenGL $version" grep -q "^renderer: 480 frames on OpenGL $version " "$log/$name-renderer.log"
	check "$name: 0 mismatches" grep -q '^verify: 8 textures, 0 mismatches' "$log/$name-renderer.log"

	check "$name: steady-frame gate" sh -c "'$log/stress' -workers 4 -frames 900 -audio oto -report '$log/$name-report' >'$log/$name-stress.log' 2>&1"
	grep -E '^  (run|guard|verdict) ' "$log/$name-stress.log" | sed 's/^/      /'
	check "$name: the gate ran on OpenGL $version, upload map-range" \
		grep -q "($version (Core Profile) Mesa[^)]*), upload map-range, textures bound to edit" "$log/$name-stress.log"

	# The texture-array sprite path (scripts/ci-arrays.sh's gate): one draw
	# a frame from glarray's arrays, made and filled bound to edit.
	check "$name: steady-frame gate, -sprite-path array" sh -c "'$log/stress' -workers 4 -frames 900 -audio offline -sprite-path array >'$log/$name-arrays.log' 2>&1"
	grep -E '^  (run|guard|sprites|verdict) ' "$log/$name-arrays.log" | sed 's/^/      /'
	check "$name: the array gate ran on OpenGL $version, one sprite draw a frame" sh -c \
		"grep -q '($version (Core Profile) Mesa[^)]*), upload map-range, textures bound to edit' '$log/$name-arrays.log' &&
		grep -q '^  sprites    path array: .* 1.00 draws a frame' '$log/$name-arrays.log'"
	unset MESA_GL_VERSION_OVERRIDE MESA_GLSL_VERSION_OVERRIDE MESA_EXTENSION_OVERRIDE
}

contexts() {
	go build -o "$log/stress" ./stress
	(cd examples/renderer && go build -o "$log/renderer" .)
	on_context 4.1 410 macos
	on_context 3.3 330 gl33
}

# cgo_free GOOS GOARCH lists the module's packages that neither have
# cgo files nor depend on a package that has (go list needs no SDK).
cgo_free() {
	GOOS=$1 GOARCH=$2 CGO_ENABLED=1 go list -deps -f '{{.ImportPath}}|{{if .CgoFiles}}cgo{{end}}|{{.Module}}|{{join .Deps " "}}' ./... |
		awk -F'|' '
			{ line[NR] = $0; if ($2 == "cgo") cgo[$1] = 1 }
			END {
				for (i = 1; i <= NR; i++) {
					split(line[i], f, "|")
					if (f[3] !~ /^github.com\/steadyframe\/steadyframe/ || f[2] == "cgo") continue
					n = split(f[4], deps, " "); bad = 0
					for (j = 1; j <= n; j++) if (deps[j] in cgo) { bad = 1; break }
					if (!bad) print f[1]
				}
			}'
}

darwin() {
	local arch pkgs
	for arch in arm64 amd64; do
		mapfile -t pkgs < <(cgo_free darwin $arch)
		# go vet type-checks the test files too; linking every test
		# binary would add minutes on two cores and check nothing more
		# that runs here.
		echo "== darwin/$arch: ${#pkgs[@]} cgo-free packages: build, vet (tests included)"
		check "darwin/$arch build" env GOOS=darwin GOARCH=$arch CGO_ENABLED=0 go build "${pkgs[@]}"
		check "darwin/$arch vet" env GOOS=darwin GOARCH=$arch CGO_ENABLED=0 go vet "${pkgs[@]}"
	done
}

windows() {
	if ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
		if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
			echo "== installing gcc-mingw-w64-x86-64"
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gcc-mingw-w64-x86-64 >/dev/null
		else
			echo "   FAIL windows: x86_64-w64-mingw32-gcc missing; sudo apt-get install gcc-mingw-w64-x86-64"
			failed=$((failed + 1))
			return
		fi
	fi
	local w=(env GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc CXX=x86_64-w64-mingw32-g++)
	local out=$log/windows
	mkdir -p "$out"
	echo "== windows/amd64 with mingw-w64: every package, both commands, both examples, go vet"
	check "windows build ./..." "${w[@]}" go build ./...
	check "windows stress.exe, demo.exe" sh -c "${w[*]} go build -o '$out/stress.exe' ./stress && ${w[*]} go build -o '$out/demo.exe' ./cmd/demo"
	check "windows examples" sh -c "cd examples/renderer && ${w[*]} go build -o '$out/renderer.exe' . && cd ../ebiten && ${w[*]} go build -o '$out/ebiten.exe' ."
	# Test binaries are not linked for windows: go vet type-checks the test
	# files, the cgo-free ones are built (and run) by the wine stage, and
	# compiling go-gl's C three more times with mingw costs minutes.
	check "windows vet" "${w[@]}" go vet ./...
	file "$out"/*.exe 2>/dev/null | sed 's|.*/||; s/^/        /' || true
}

# wine_run DIR EXE ARGS...: runs a Windows program under Wine in DIR.
wine_run() {
	local dir=$1
	shift
	(cd "$dir" && WINEDEBUG=-all timeout 600 "$wine" "$@")
}

# on_wine: the windows/amd64 builds run under Debian's Wine (wine64): the
# cgo-free packages' test binaries, the stress tool headless with
# -audio offline, and a try of the GL renderer on the Xvfb display.
on_wine() {
	wine=/usr/lib/wine/wine64
	if [ ! -x "$wine" ]; then
		if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
			echo "== installing wine64"
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wine64 >/dev/null
		else
			echo "   FAIL wine: $wine missing; sudo apt-get install wine64"
			failed=$((failed + 1))
			return
		fi
	fi
	local out=$log/windows pkgs p name
	mkdir -p "$out/tests"
	if [ ! -f "$out/stress.exe" ] || [ ! -f "$out/renderer.exe" ]; then # run without the windows stage
		local w="env GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc"
		check "wine: stress.exe and renderer.exe built" sh -c "$w go build -o '$out/stress.exe' ./stress && cd examples/renderer && $w go build -o '$out/renderer.exe' ."
	fi
	export WINEPREFIX=$log/wineprefix
	echo "== wine: $("$wine" --version 2>/dev/null)"
	# Go 1.22+ needs bcryptprimitives.dll, which Wine 8.0 lacks: a
	# forwarder to RtlGenRandom (scripts/wine), put in system32, where Go
	# looks for it.
	WINEDEBUG=-all "$wine" wineboot --init >/dev/null 2>&1 || true
	check "wine: bcryptprimitives.dll" x86_64-w64-mingw32-gcc -shared -O2 -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
		scripts/wine/bcryptprimitives.c scripts/wine/bcryptprimitives.def -ladvapi32
	# Every cgo-free package runs but four: internal/deps and
	# internal/testenv run the go command (Wine has none; the checks of
	# testenv.Go in other packages skip under STEADYFRAME_CROSS_RUN),
	# internal/xvfb starts Linux's Xvfb, and voices/otodev (cgo-free on
	# Windows, where oto calls WASAPI) captures through ALSA.
	mapfile -t pkgs < <(cgo_free windows amd64 | grep -v -e '/internal/deps$' -e '/internal/testenv$' -e '/internal/xvfb$' -e '/voices/otodev$')
	# Two voices tests fail under Wine 8.0 and are skipped there by name:
	# TestStatsFields sees a last mix time of 0 (Wine's clock did not
	# advance across one short mix), and TestErrorsIsPastFirstComparison's
	# t.TempDir cleanup gets "Invalid function" from Wine's unlinkat.
	local skip_voices='TestStatsFields|TestErrorsIsPastFirstComparison'
	# lifetime/guard's Example prints the sites of its guarded frames.
	# Under Wine the test binary's output copier, writing a file on the
	# runtime's Windows path, can refill its sync.Pool after the guard's
	# GC inside those frames, adding an internal/poll site to the output
	# (docs/platforms.md); its other tests run.
	local skip_guard='^Example$'
	check "wine: ${#pkgs[@]} test binaries built" env GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -c -o "$out/tests/" "${pkgs[@]}"
	for p in "${pkgs[@]}"; do
		name=${p##*/}
		[ -f "$out/tests/$name.test.exe" ] || continue # no test files
		local args=-test.count=1
		[ "$p" = github.com/steadyframe/steadyframe/voices ] && args="$args '-test.skip=$skip_voices'"
		[ "$p" = github.com/steadyframe/steadyframe/lifetime/guard ] && args="$args '-test.skip=$skip_guard'"
		check "wine: $p" sh -c "cd '$(go list -f '{{.Dir}}' "$p")' && STEADYFRAME_CROSS_RUN=wine WINEDEBUG=-all timeout 600 '$wine' '$out/tests/$name.test.exe' $args >'$log/wine-$name.log' 2>&1 || { tail -20 '$log/wine-$name.log'; exit 1; }"
	done
	# The gate's allocation verdict may fail under Wine: the runtime's
	# Windows file path refills a sync.Pool after each GC, and the guard
	# names the file read or write that did (docs/platforms.md).
	# Required: the run completes its 900 frames with every request
	# accounted, and its verdict fails for nothing but an allocation (a
	# teardown error, for one, fails the stage); the verdict is printed.
	WINEDEBUG=-all timeout 600 "$wine" "$out/stress.exe" -headless -audio offline -workers 4 -frames 900 -report "$log/wine-report" >"$log/wine-stress.log" 2>&1 || true
	grep -E '^  (run|frames|guard|verdict) ' "$log/wine-stress.log" | sed 's/^/      /' || tail -20 "$log/wine-stress.log"
	check "wine: stress.exe -headless -audio offline ran 900 frames" grep -q '^  frames     900 total' "$log/wine-stress.log"
	check "wine: stress.exe accounted every request" sh -c "! grep -E '^  requests ' '$log/wine-stress.log' | grep -vq ' ok\$'"
	check "wine: stress.exe verdict PASS, or FAIL for an allocation alone" sh -c \
		"grep -qE '^  verdict    (PASS|FAIL: steady-state allocation): ' '$log/wine-stress.log' && ! grep -E '^  error ' '$log/wine-stress.log'"
	# GL under Wine: its opengl32 goes to the host's GLX, Mesa llvmpipe on
	# the Xvfb display, on the 4.5 context and on the macOS-like one.
	check "wine: renderer.exe -verify" sh -c "WINEDEBUG=-all timeout 300 '$wine' '$out/renderer.exe' -frames 120 -verify -hidden >'$log/wine-renderer.log' 2>&1"
	grep -E '^(renderer|verify)' "$log/wine-renderer.log" | sed 's/^/        /' || tail -5 "$log/wine-renderer.log"
	check "wine: renderer.exe -verify: 0 mismatches" grep -q '^verify: 8 textures, 0 mismatches' "$log/wine-renderer.log"
	check "wine: renderer.exe -verify on the macOS-like 4.1 context" sh -c "MESA_GL_VERSION_OVERRIDE=4.1 MESA_GLSL_VERSION_OVERRIDE=410 MESA_EXTENSION_OVERRIDE='$hide' WINEDEBUG=-all timeout 300 '$wine' '$out/renderer.exe' -frames 120 -verify -hidden 2>&1 | grep -q '^verify: 8 textures, 0 mismatches'"
}

stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=(contexts darwin windows wine)
for s in "${stages[@]}"; do
	case "$s" in
	contexts | darwin | windows) "$s" ;;
	wine) on_wine ;;
	*) echo "ci-platforms.sh: unknown stage $s" >&2; exit 2 ;;
	esac
done
echo "platforms: $failed failed"
[ "$failed" -eq 0 ]
