#!/usr/bin/env bash
# The platforms stage of scripts/test.sh: what runs beyond the default
# OpenGL 4.5 context.
#
#   contexts  the GL test suites (the hazard check and its unfenced
#             controls included), examples/renderer with -verify and
#             -guard, the steady-frame gate and the demo's test, on Mesa
#             llvmpipe made macOS-like (OpenGL 4.1 core, GLSL 4.10, no
#             post-4.1 extension) and at OpenGL 3.3 core. Each run checks
#             that the context really was that version and that the
#             backends took their 4.1 paths (upload map-range, textures
#             bound to edit).
#   darwin    every cgo-free package cross-built and vetted for
#             darwin/arm64 and darwin/amd64. The cgo ones (GL, oto) need
#             Apple's SDK, which Linux cannot have: not built.
#   windows   every package, both commands and both examples cross-built
#             for windows/amd64 with mingw-w64, go vet for windows.
#
# Usage: scripts/ci-platforms.sh [contexts] [darwin] [windows]
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
	./internal/quads/... ./internal/scene/ ./cmd/demo/ ./stress/)

# on_context VERSION GLSL NAME: one context's runs.
on_context() {
	local version=$1 glsl=$2 name=$3
	export MESA_GL_VERSION_OVERRIDE=$version MESA_GLSL_VERSION_OVERRIDE=$glsl MESA_EXTENSION_OVERRIDE=$hide
	echo "== OpenGL $version core ($name): MESA_GL_VERSION_OVERRIDE=$version, post-4.1 extensions hidden"
	check "$name: GL test suites" sh -c "go test -count=1 -v ${gl_packages[*]} >'$log/$name-tests.log' 2>&1"
	grep -E '^(ok|FAIL)' "$log/$name-tests.log" | sed 's/^/        /'
	grep -E -- '--- FAIL' -A12 "$log/$name-tests.log" | head -60 || true
	# The hazard rig's own figures: 0 wrong frames fenced, the controls wrong.
	grep -E 'hazard_test.go.*(fenced|unfenced|overwrite) +frames' "$log/$name-tests.log" | sed 's/^ */        /'
	check "$name: the backends took the $name paths" \
		grep -q "own context: ok: $version (Core Profile).*upload map-range, textures bound to edit" "$log/$name-tests.log"

	check "$name: examples/renderer -verify -guard" sh -c "'$log/renderer' -frames 480 -verify -guard -hidden >'$log/$name-renderer.log' 2>&1"
	grep -E '^(renderer|verify|guard):' "$log/$name-renderer.log" | sed 's/^/        /'
	check "$name: the renderer ran on OpenGL $version" grep -q "^renderer: 480 frames on OpenGL $version " "$log/$name-renderer.log"
	check "$name: 0 mismatches" grep -q '^verify: 8 textures, 0 mismatches' "$log/$name-renderer.log"

	check "$name: steady-frame gate" sh -c "'$log/stress' -workers 4 -frames 900 -audio oto -report '$log/$name-report' >'$log/$name-stress.log' 2>&1"
	grep -E '^  (run|guard|verdict) ' "$log/$name-stress.log" | sed 's/^/      /'
	check "$name: the gate ran on OpenGL $version, upload map-range" \
		grep -q "($version (Core Profile) Mesa[^)]*), upload map-range, textures bound to edit" "$log/$name-stress.log"
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
	check "windows test binaries" "${w[@]}" go test -c -o "$out/tests/" ./...
	check "windows vet" "${w[@]}" go vet ./...
	file "$out"/*.exe 2>/dev/null | sed 's|.*/||; s/^/        /' || true
}

stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=(contexts darwin windows)
for s in "${stages[@]}"; do
	case "$s" in
	contexts | darwin | windows) "$s" ;;
	*) echo "ci-platforms.sh: unknown stage $s" >&2; exit 2 ;;
	esac
done
echo "platforms: $failed failed"
[ "$failed" -eq 0 ]
