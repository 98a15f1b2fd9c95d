#!/usr/bin/env bash
# The steady-frame gate on the texture-array sprite path (issue 22): the
# stress tool with real GL draws its sprites in one draw a frame from a
# texture array whose textures churn every frame, and must allocate
# nothing in its steady frames. Usage: scripts/ci-arrays.sh STRESS_BINARY
# LOGDIR, with DISPLAY set (test.sh has started Xvfb).
set -euo pipefail
stress=$1
logdir=$2
if "$stress" -workers 4 -frames 900 -audio offline -sprite-path array >"$logdir/arrays.log" 2>&1 &&
	grep -q '^  sprites    path array: .* 1.00 draws a frame' "$logdir/arrays.log"; then
	grep -E '^  (frame time|guard  |sprites  |verdict)' "$logdir/arrays.log"
else
	tail -n 60 "$logdir/arrays.log"
	exit 1
fi
