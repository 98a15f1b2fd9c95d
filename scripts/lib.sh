# Shared set-up for scripts/run.sh, test.sh, bench.sh and baseline.sh:
# system packages, a display, ALSA pointed at a file, and pinned Go tools.
# Sourced, not run.

# Debian packages the cgo builds and the device tests need, and the file or
# command that proves each one is present.
steadyframe_packages=(
	"gcc:/usr/bin/gcc"
	"pkg-config:/usr/bin/pkg-config"
	"xvfb:/usr/bin/Xvfb"
	"xauth:/usr/bin/xauth"
	"libgl1-mesa-dev:/usr/include/GL/gl.h"
	"libgl1-mesa-dri:/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so"
	"libx11-dev:/usr/include/X11/Xlib.h"
	"libxrandr-dev:/usr/include/X11/extensions/Xrandr.h"
	"libxinerama-dev:/usr/include/X11/extensions/Xinerama.h"
	"libxcursor-dev:/usr/include/X11/Xcursor/Xcursor.h"
	"libxi-dev:/usr/include/X11/extensions/XInput2.h"
	"libxxf86vm-dev:/usr/include/X11/extensions/xf86vmode.h"
	"libasound2-dev:/usr/include/alsa/asoundlib.h"
)

# sf_install_packages installs missing Debian packages when run as root with
# apt-get, and otherwise prints the command a user must run and fails.
sf_install_packages() {
	local missing=()
	local entry pkg path
	for entry in "${steadyframe_packages[@]}"; do
		pkg=${entry%%:*}
		path=${entry#*:}
		[ -e "$path" ] || missing+=("$pkg")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		echo "steadyframe: installing ${missing[*]}" >&2
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq >&2 || return 1
		apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 || return 1
		return 0
	fi
	echo "steadyframe: missing system packages; install them with:" >&2
	echo "  sudo apt-get install ${missing[*]}" >&2
	return 1
}

# sf_require_go fails unless a Go toolchain of at least 1.26 is on PATH.
sf_require_go() {
	if ! command -v go >/dev/null; then
		echo "steadyframe: Go 1.26 or newer is required (https://go.dev/dl/)" >&2
		return 1
	fi
	local v
	v=$(go env GOVERSION | sed 's/^go//')
	case "$v" in
	1.2[6-9]* | 1.[3-9]* | [2-9].*) return 0 ;;
	esac
	echo "steadyframe: Go $v is too old; 1.26 or newer is required" >&2
	return 1
}

# sf_start_display starts Xvfb when no display is set and exports DISPLAY.
# LIBGL_ALWAYS_SOFTWARE selects Mesa llvmpipe, the GL the tests are written
# against. The server is stopped by sf_cleanup.
sf_start_display() {
	if [ -n "${DISPLAY:-}" ]; then
		return 0
	fi
	local n
	for n in $(seq 90 120); do
		[ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] || break
	done
	Xvfb ":$n" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
	sf_xvfb_pid=$!
	export DISPLAY=":$n"
	export LIBGL_ALWAYS_SOFTWARE=1
	local i
	for i in $(seq 1 50); do
		[ -e "/tmp/.X11-unix/X$n" ] && return 0
		sleep 0.1
	done
	echo "steadyframe: Xvfb did not start on :$n" >&2
	return 1
}

# sf_alsa_to_file FILE points ALSA's default device at FILE, so oto runs for
# real without a sound card. Every script passes /dev/null: the null slave
# is unpaced, so oto writes about 150 MB/s, and the tests that check the
# samples (voices/otodev) write capture files of their own. The ALSA
# configuration lives in a temporary directory that sf_cleanup deletes.
sf_alsa_to_file() {
	sf_alsa_dir=$(mktemp -d /tmp/steadyframe-alsa.XXXXXX)
	cat >"$sf_alsa_dir/asound.conf" <<CONF
pcm.!default { type file slave.pcm "null" file "$1" format "raw" }
CONF
	export ALSA_CONFIG_PATH="/usr/share/alsa/alsa.conf:$sf_alsa_dir/asound.conf"
}

# sf_paced_audio: a PulseAudio null sink behind ALSA's default, paced by
# the system clock (scripts/pulse.sh).
. "$(dirname "${BASH_SOURCE[0]}")/pulse.sh"

# sf_go_tool NAME PACKAGE@VERSION puts GOPATH/bin on PATH and installs the
# command NAME there from PACKAGE@VERSION unless NAME is already on PATH.
sf_go_tool() {
	export PATH="$(go env GOPATH)/bin:$PATH"
	if ! command -v "$1" >/dev/null; then
		echo "== installing $1"
		go install "$2"
	fi
}

# sf_bench_env prepares a benchmark run: Go, the system packages, a display
# (GL benchmarks run under Xvfb), ALSA pointed at /dev/null (oto ones), and
# benchstat (golang.org/x/perf).
sf_bench_env() {
	sf_require_go
	sf_install_packages
	sf_start_display
	sf_alsa_to_file /dev/null
	sf_go_tool benchstat golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
}

sf_cleanup() {
	[ -n "${sf_xvfb_pid:-}" ] && kill "$sf_xvfb_pid" 2>/dev/null
	[ -n "${sf_alsa_dir:-}" ] && rm -rf "$sf_alsa_dir"
	sf_paced_audio_stop
	return 0
}
