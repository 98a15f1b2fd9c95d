#!/usr/bin/env bash
# The main job: the stress tool. A render goroutine (real OpenGL), the audio
# goroutine (oto) and worker goroutines hammer every manager while the
# allocation guard and the descriptor occupancy log watch. Arguments are
# passed to the stress tool (go run ./stress -h lists them); the default runs
# every scenario in turn (-scenario all: a leak to exhaustion, a voice storm,
# an upload flood, a churn storm, steady phases between; about 25 seconds)
# with 4 workers, gated on 0 allocations, writing its report to
# ./stress-report.
# Installs what it needs when run as root; otherwise prints what to install.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
trap sf_cleanup EXIT

sf_require_go
sf_install_packages
# Without a display the window goes to Xvfb (Mesa llvmpipe).
sf_start_display
# Without a sound card oto plays into a PulseAudio null sink, paced by the
# system clock as a card would be (scripts/pulse.sh).
if [ ! -e /dev/snd/controlC0 ] && [ -z "${ALSA_CONFIG_PATH:-}" ]; then
	echo "steadyframe: no sound card; oto plays through ALSA into a PulseAudio null sink" >&2
	sf_paced_audio
fi

if [ $# -eq 0 ]; then
	set -- -workers 4 -scenario all -report stress-report
fi
go run ./stress "$@"
