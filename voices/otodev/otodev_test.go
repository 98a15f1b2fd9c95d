package otodev

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/pcmcheck"
	"github.com/steadyframe/steadyframe/internal/testenv"
)

// alsaConf returns ALSA's main configuration file: OTODEV_ALSA_CONF, or
// Debian's /usr/share/alsa/alsa.conf. Without it there is no ALSA to test:
// the test skips, or fails in CI.
func alsaConf(t testing.TB) string {
	t.Helper()
	path := os.Getenv("OTODEV_ALSA_CONF")
	if path == "" {
		path = "/usr/share/alsa/alsa.conf"
	}
	if _, err := os.Stat(path); err != nil {
		testenv.SkipOrFail(t, "no ALSA configuration (install libasound2, or set OTODEV_ALSA_CONF): "+err.Error())
	}
	return path
}

// alsaToFile returns the environment that points ALSA's default device at
// a file: the null slave discards, the file plugin keeps a raw float32 LE
// copy of everything played.
func alsaToFile(t testing.TB, dir, raw string) []string {
	t.Helper()
	main := alsaConf(t)
	conf := filepath.Join(dir, "asound.conf")
	body := `pcm.!default { type file slave.pcm "null" file "` + raw + `" format "raw" }` + "\n"
	if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return []string{"ALSA_CONFIG_PATH=" + main + ":" + conf}
}

// child runs a scenario in a child process with env added.
func child(t *testing.T, mode string, env []string) childResult {
	t.Helper()
	dir := t.TempDir()
	resPath := filepath.Join(dir, "result.json")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envChild+"="+mode, envResult+"="+resPath)
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child %s: %v\n%s", mode, err, out)
	}
	b, err := os.ReadFile(resPath)
	if err != nil {
		t.Fatalf("child %s wrote no result: %v\n%s", mode, err, out)
	}
	var res childResult
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if res.Fail != "" {
		t.Fatalf("child %s: %s", mode, res.Fail)
	}
	return res
}

// TestOtoToFile plays a 440 Hz tone through oto into an ALSA file and
// checks from the captured samples: its frequency and level, that StopAll
// silences it, and that the PCM overwritten after StopAll never appears.
func TestOtoToFile(t *testing.T) {
	dir := t.TempDir()
	raw := filepath.Join(dir, "out.raw")
	defer os.Remove(raw)
	res := child(t, "tone", append(alsaToFile(t, dir, raw), envRaw+"="+raw))
	if res.DeviceErr != "" || res.DeviceName != "oto" {
		testenv.SkipOrFail(t, "oto could not open the ALSA file device: "+res.DeviceErr)
	}
	data, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(data)%8 != 0 || res.StopOffset <= 0 || res.StopOffset > int64(len(data)) {
		t.Fatalf("raw file of %d bytes, StopAll at %d", len(data), res.StopOffset)
	}
	l, r := decode(data)
	stop := int(res.StopOffset / 8)

	// Before StopAll: the unpaced device plays silence whenever it
	// outruns oto's buffer; dropping exact-zero frames leaves the mixer's
	// stream, which must be a clean 440 Hz tone at the centred level.
	var tone []float32
	for i := 0; i < stop; i++ {
		if l[i] != r[i] {
			t.Fatalf("frame %d: left %v right %v differ for a centred mono tone", i, l[i], r[i])
		}
		if l[i] != 0 {
			tone = append(tone, l[i])
		}
	}
	if len(tone) < 48000 {
		t.Fatalf("only %d tone frames captured before StopAll", len(tone))
	}
	// The tone starts and ends band-limited: the resampler's ringing
	// before the first sample and after StopAll's fade, at a few millionths
	// of full scale, crosses zero at random (the count then read 445 Hz in
	// two CI runs). Trimmed, the rest must be 440 Hz across the joins
	// where the silent padding was dropped.
	if f := frequency(trimQuiet(tone, 1e-3), 48000); math.Abs(f-440) > 1 {
		t.Errorf("captured tone is %.2f Hz, want 440", f)
	}
	want := toneAmp * math.Cos(math.Pi/4)
	if p := peakOf(tone); math.Abs(p-want) > 0.01 {
		t.Errorf("captured tone peaks at %.4f, want %.4f", p, want)
	}

	// After StopAll: only what was already buffered in oto and ALSA may
	// still play (a few thousand frames), then silence.
	tail := 0
	for i := stop; i < len(l); i++ {
		if l[i] != 0 || r[i] != 0 {
			tail++
		}
	}
	if limit := 8192; tail > limit {
		t.Errorf("%d non-silent frames after StopAll returned, want at most %d buffered", tail, limit)
	}
	last := len(l) - (len(l)-stop)/4
	for i := last; i < len(l); i++ {
		if l[i] != 0 || r[i] != 0 {
			t.Fatalf("frame %d in the last quarter after StopAll is %v/%v: StopAll did not silence the tone", i, l[i], r[i])
		}
	}
	if len(l)-stop < 4*1024 {
		t.Errorf("only %d frames captured after StopAll", len(l)-stop)
	}
	// The marker: a run of equal non-zero samples never occurs in a 440 Hz
	// sine, and is what overwritten PCM (DC) would produce.
	for i, run := 1, 0; i < len(l); i++ {
		if l[i] != 0 && l[i] == l[i-1] {
			run++
		} else {
			run = 0
		}
		if run >= 16 {
			t.Fatalf("a constant %v at frame %d: PCM overwritten after StopAll reached the output", l[i], i)
		}
	}
	t.Logf("captured %d frames (%d tone); StopAll %v (fallbacks %d); Play-to-mix %v + device buffer %v; mix max %v; underruns %d",
		len(l), len(tone), res.StopAll, res.Fallbacks, res.PlayToMix, res.DevLatency, res.MixMax, res.Underruns)
}

// TestOtoResamplerQuality plays tones through the default (sinc)
// resampler and oto into an ALSA file, and measures the capture: a
// -6 dBFS 1 kHz tone from 22050 and 44100 Hz must come out with THD+N at
// most -90 dB, and a 10 kHz tone from 22050 Hz within 0.5 dB of its level
// with everything else (its images) at least 80 dB below it.
func TestOtoResamplerQuality(t *testing.T) {
	for _, c := range []struct {
		rate       int
		freq, thdn float64
	}{{22050, 1000, -90}, {44100, 1000, -90}, {22050, 10000, -80}} {
		dir := t.TempDir()
		raw := filepath.Join(dir, "out.raw")
		res := child(t, "quality", append(alsaToFile(t, dir, raw), envRaw+"="+raw, fmt.Sprintf("%s=%d %v", envTone, c.rate, c.freq)))
		if res.DeviceErr != "" || res.DeviceName != "oto" {
			testenv.SkipOrFail(t, "oto could not open the ALSA file device: "+res.DeviceErr)
		}
		data, err := os.ReadFile(raw)
		if err != nil {
			t.Fatal(err)
		}
		// The unpaced device plays runs of exact silence whenever it
		// outruns oto's buffer; dropping them leaves the mixer's stream.
		// (The tone starts off zero phase, so that no sample of it is
		// exactly zero: one beside a run would be dropped with it.)
		x := dropSilence(decode(data))
		if len(x) < 48000+9600 {
			t.Fatalf("%d Hz %v Hz: only %d tone frames captured", c.rate, c.freq, len(x))
		}
		x = x[4800 : len(x)-4800] // past the onset, before the fade-out
		ft := pcmcheck.FitTone(x, c.freq, 48000)
		level := pcmcheck.DB(ft.Amp / qualityAmp)
		// The first image lies at the source rate less the tone, folded
		// into the device's band: 21050 or 12050 Hz from 22050 Hz, 4900
		// Hz (43100 folded) from 44100 Hz.
		imgFreq := float64(c.rate) - c.freq
		if imgFreq > 24000 {
			imgFreq = 48000 - imgFreq
		}
		img := pcmcheck.FitTone(pcmcheck.Float32(ft.Residual), imgFreq, 48000).Amp
		t.Logf("%d Hz source, %v Hz: %d frames, level %+.3f dB, THD+N %.1f dB, image at %v Hz %.1f dB below",
			c.rate, c.freq, len(x), level, ft.THDN(), imgFreq, pcmcheck.DB(ft.Amp/img))
		if math.Abs(level) > 0.5 || ft.THDN() > c.thdn {
			t.Errorf("%d Hz source, %v Hz: level %+.3f dB, THD+N %.1f dB: want within 0.5 dB and at most %v dB",
				c.rate, c.freq, level, ft.THDN(), c.thdn)
		}
	}
}

// dropSilence returns l without its runs of 8 or more frames silent on
// both channels.
func dropSilence(l, r []float32) []float32 {
	var x []float32
	for i := 0; i < len(l); {
		j := i
		for j < len(l) && l[j] == 0 && r[j] == 0 {
			j++
		}
		if j-i >= 8 {
			i = j
			continue
		}
		if j == i {
			j++
		}
		x = append(x, l[i:j]...)
		i = j
	}
	return x
}

// TestOtoFallback points ALSA at a sound card that does not exist: the
// engine must log, fall back to the offline device, keep oto's error for
// Err, and still play.
func TestOtoFallback(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "asound.conf")
	body := "pcm.!default { type hw card 97 device 0 }\npcm.!sysdefault { type hw card 97 device 0 }\n"
	if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	res := child(t, "fallback", []string{"ALSA_CONFIG_PATH=" + alsaConf(t) + ":" + conf})
	if res.DeviceName != "offline" || res.DeviceErr == "" {
		t.Fatalf("device %q, Err %q: want the offline fallback with oto's error", res.DeviceName, res.DeviceErr)
	}
	t.Logf("fallback error: %s", res.DeviceErr)
}

// The capture is judged by internal/pcmcheck, as voices' own tests judge
// the offline device's output.
var (
	decode    = pcmcheck.Stereo
	frequency = pcmcheck.Frequency
	peakOf    = pcmcheck.Peak
)

// trimQuiet returns x without its leading and trailing samples quieter
// than level.
func trimQuiet(x []float32, level float64) []float32 {
	for len(x) > 0 && math.Abs(float64(x[0])) < level {
		x = x[1:]
	}
	for len(x) > 0 && math.Abs(float64(x[len(x)-1])) < level {
		x = x[:len(x)-1]
	}
	return x
}
