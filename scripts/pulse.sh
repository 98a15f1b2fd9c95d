# A paced sound device for the scripts: a private PulseAudio server with a
# null sink (it consumes audio at the rate of the system clock, as a sound
# card would) and ALSA's default routed to it, so oto plays against a real
# clock. Sourced by scripts/lib.sh, not run. See docs/audio-device.md.

# The Debian packages the paced device needs, and the file proving each.
steadyframe_pulse_packages=(
	"pulseaudio:/usr/bin/pulseaudio"
	"pulseaudio-utils:/usr/bin/parec"
	"libasound2-plugins:/usr/lib/x86_64-linux-gnu/alsa-lib/libasound_module_pcm_pulse.so"
)

# sf_paced_audio starts a PulseAudio server of its own (a null sink named
# steadyframe, the native protocol on a private socket), exports
# PULSE_SERVER for its clients and points ALSA's default PCM and control
# at it through ALSA_CONFIG_PATH. It installs the packages when root;
# otherwise it prints what to install. sf_cleanup stops the server.
sf_paced_audio() {
	local saved=("${steadyframe_packages[@]}")
	steadyframe_packages=("${steadyframe_pulse_packages[@]}")
	sf_install_packages || { steadyframe_packages=("${saved[@]}"); return 1; }
	steadyframe_packages=("${saved[@]}")
	sf_pulse_dir=$(mktemp -d /tmp/steadyframe-pulse.XXXXXX)
	chmod 700 "$sf_pulse_dir"
	cat >"$sf_pulse_dir/default.pa" <<'CONF'
load-module module-null-sink sink_name=steadyframe rate=48000 channels=2
load-module module-native-protocol-unix auth-anonymous=1
set-default-sink steadyframe
CONF
	cat >"$sf_pulse_dir/asound.conf" <<'CONF'
pcm.!default { type pulse }
ctl.!default { type pulse }
CONF
	# HOME and XDG_RUNTIME_DIR point at the private directory so the
	# server touches nothing of the user's (cookie, runtime socket).
	HOME=$sf_pulse_dir XDG_RUNTIME_DIR=$sf_pulse_dir PULSE_RUNTIME_PATH=$sf_pulse_dir \
		pulseaudio --daemonize=yes --exit-idle-time=-1 --system=false -n --high-priority=yes --realtime=yes \
		-F "$sf_pulse_dir/default.pa" --use-pid-file=yes \
		--log-target="file:$sf_pulse_dir/pulse.log" || {
		echo "steadyframe: pulseaudio did not start; see $sf_pulse_dir/pulse.log" >&2
		return 1
	}
	export PULSE_SERVER="unix:$sf_pulse_dir/native"
	local i
	for i in $(seq 1 50); do
		if pactl info >/dev/null 2>&1; then
			export ALSA_CONFIG_PATH="/usr/share/alsa/alsa.conf:$sf_pulse_dir/asound.conf"
			return 0
		fi
		sleep 0.1
	done
	echo "steadyframe: pulseaudio did not answer on $PULSE_SERVER" >&2
	return 1
}

# sf_paced_audio_stop stops the server sf_paced_audio started and deletes
# its directory; sf_cleanup calls it.
sf_paced_audio_stop() {
	[ -n "${sf_pulse_dir:-}" ] || return 0
	local pid i
	pid=$(cat "$sf_pulse_dir/pid" 2>/dev/null || true)
	if [ -n "$pid" ] && kill "$pid" 2>/dev/null; then
		# The server touches its directory as it exits: wait, then delete.
		for i in $(seq 1 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
	fi
	rm -rf "$sf_pulse_dir"
	sf_pulse_dir=
}
