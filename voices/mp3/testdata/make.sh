#!/bin/sh
# Rebuilds the test files: 0.25 s of a 1 kHz sine at half scale, mono,
# encoded by LAME 3.100 as MPEG-1 (44100 Hz, 64 kbit/s), MPEG-2
# (22050 Hz, 64 kbit/s) and MPEG-2.5 (11025 Hz, 16 kbit/s, which go-mp3
# refuses). Needs sox and lame (Debian: apt-get install sox lame).
set -e
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for spec in 44100:44.1:64 22050:22.05:64 11025:11.025:16; do
	rate=${spec%%:*} rest=${spec#*:}
	khz=${rest%%:*} kbps=${rest#*:}
	sox -n -r "$rate" -c 1 -b 16 "$tmp/t.wav" synth 0.25 sine 1000 vol 0.5
	lame --quiet --resample "$khz" -b "$kbps" -m m "$tmp/t.wav" "tone-1k-$rate-mono.mp3"
done
