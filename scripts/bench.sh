#!/usr/bin/env bash
# Side-by-side benchmarks of every package against what a user would
# otherwise write (sync.Pool, new, make, a map, glBufferSubData, one
# oto.Player per sound), printed as ratio tables. GL benchmarks run under
# Xvfb, oto ones with ALSA pointed at a file. Extra arguments go to go test
# (default: -benchtime=200ms -count=3).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
trap sf_cleanup EXIT

sf_require_go
sf_install_packages
sf_start_display
sf_alsa_to_file
if [ $# -eq 0 ]; then
	set -- -benchtime=200ms -count=3
fi
go test -run '^$' -bench . "$@" ./pools/ ./lifetime/ ./upload/... ./descriptors/... ./voices/... | go run ./internal/benchtable
