package otodev

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/voices"
)

// The paced test plays through oto into a PulseAudio null sink, which
// consumes audio at the rate of the system clock as a sound card would
// (scripts/pulse.sh starts one; OTODEV_PULSE_SERVER names it), and
// records the sink's monitor with parec to time clicks from Play to
// output.

// pulseMargin is what Pulse may add to MaxLatency on the way to the
// null sink: the server's queue for the ALSA pulse plugin's stream (one
// ALSA buffer, 10.7 ms, the size the plugin asks for), the sink's render
// block (no longer than the shortest latency a client asks, so at most
// one more buffer), and 10 ms for the scheduling of the server's threads
// and parec on a loaded machine.
const pulseMargin = 2*DefaultBufferFrames*time.Second/48000 + 10*time.Millisecond

// Click timing: clicks clicks, clickGap apart, each clickFrames of a
// clickAmp square pulse over a clickBed looping tone that keeps the
// mixer busy (steady play) between them. Centred mono plays at
// cos(π/4) of its level on each side: 0.64 for a click.
const (
	clicks      = 8
	clickGap    = 300 * time.Millisecond
	clickFrames = 48
	clickAmp    = 0.9
	clickBed    = 0.02
	clickFind   = 0.5 // the capture level that marks a click
)

// envPulse names the PulseAudio server of the paced test; scripts/test.sh
// sets it to the one sf_paced_audio started. The test does not use
// PULSE_SERVER itself: with it set, ALSA's pulse hook (libasound2-plugins'
// pulse_load_if_running) routes every other test's default device to
// the server, over their file-plugin captures.
const envPulse = "OTODEV_PULSE_SERVER"

// pacedEnv returns the environment that routes ALSA's default to the
// Pulse server OTODEV_PULSE_SERVER names, or skips (fails in CI) without
// one. It sets PULSE_SERVER in this process too, for pactl and the
// child's parec.
func pacedEnv(t *testing.T, dir string) []string {
	t.Helper()
	main := alsaConf(t)
	server := os.Getenv(envPulse)
	if server == "" {
		testenv.SkipOrFail(t, envPulse+" names no PulseAudio server (scripts/test.sh starts one with scripts/pulse.sh)")
	}
	for _, tool := range []string{"pactl", "parec"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.SkipOrFail(t, "no "+tool+" (install pulseaudio-utils): "+err.Error())
		}
	}
	t.Setenv("PULSE_SERVER", server)
	if out, err := exec.Command("pactl", "info").CombinedOutput(); err != nil {
		testenv.SkipOrFail(t, fmt.Sprintf("the PulseAudio server %s does not answer: %v: %s", server, err, out))
	}
	conf := filepath.Join(dir, "asound.conf")
	if err := os.WriteFile(conf, []byte("pcm.!default { type pulse }\nctl.!default { type pulse }\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return []string{"ALSA_CONFIG_PATH=" + main + ":" + conf, "PULSE_SERVER=" + server}
}

// pacedTries bounds the attempts of TestOtoPacedLatency: an attempt
// during which the sink played silence, because other processes held the
// CPUs, measures the machine, not the engine, and is made again. On an
// idle 2-core CI machine two of three tries once came out starved.
const pacedTries = 6

// TestOtoPacedLatency plays clicks through oto at the default buffer
// sizes into a PulseAudio null sink, finds each in the sink's monitor,
// and checks that Play-to-output stays within MaxLatency, the limiter's
// look-ahead and pulseMargin. Over the few seconds of steady play it
// checks that the device is paced (one read a buffer's time), that its
// underrun count stays at most 1, and that the mixer kept up with the
// sink's clock: the audio rendered falls short of the time elapsed (the
// sink played silence) by at most a tenth of it, and by no more than the
// buffers unless the device counted the gap. An attempt that lost
// clicks, underran or fell behind was starved of CPU and is tried
// again, up to pacedTries times. Under the race detector, which slows
// the mixer several times over, the figures are logged, not checked.
func TestOtoPacedLatency(t *testing.T) {
	env := pacedEnv(t, t.TempDir())
	f := voices.DefaultDeviceFormat
	max := MaxLatency(f, DefaultBufferFrames, voices.DefaultBlockFrames)
	r := func(d time.Duration) time.Duration { return d.Round(10 * time.Microsecond) }
	var starved []string
	for try := 1; try <= pacedTries; try++ {
		res := child(t, "paced", env)
		if res.DeviceErr != "" || res.DeviceName != "oto" {
			t.Fatalf("oto could not open ALSA's pulse device: %s", res.DeviceErr)
		}
		// res.MixMax carries the limiter's look-ahead (Stats.DeviceLatency
		// less the device's own).
		limit := max + res.MixMax + pulseMargin
		lat := slices.Clone(res.Latencies)
		slices.Sort(lat)
		if len(lat) == 0 {
			lat = []time.Duration{0}
		}
		t.Logf("try %d: Play-to-output on the PulseAudio null sink, %d of %d clicks found: min %v, median %v, max %v (MaxLatency %v, limit %v)",
			try, len(res.Latencies), clicks, r(lat[0]), r(lat[len(lat)/2]), r(lat[len(lat)-1]), r(max), r(limit))
		t.Logf("try %d: steady play over %v: %d underruns counted in %d device reads; the mix fell %v short of the clock",
			try, r(res.Steady), res.Underruns, res.Reads, r(res.Shortfall))
		// A paced device reads one player buffer at a time at the sink's
		// rate (the unpaced file plugin reads thousands a second).
		want := float64(res.Steady) / float64(f.Duration(DefaultBufferFrames))
		if got := float64(res.Reads); got > 1.2*want {
			t.Fatalf("the device made %d reads in %v, want about %.0f (one %d-frame buffer at a time): it is not paced",
				res.Reads, res.Steady, want, DefaultBufferFrames)
		}
		if testenv.Race {
			t.Log("race detector on: the timing is logged, not checked")
			return
		}
		// The mixer renders ahead of the sink by what the buffers hold, so
		// it falls short of the clock by more only when the sink played
		// silence, which the device's count must have seen.
		if slack := f.Duration(2*DefaultBufferFrames + voices.DefaultBlockFrames); res.Shortfall > slack && res.Underruns == 0 {
			t.Errorf("try %d: the sink played %v of silence (beyond the buffers' %v) and the device counted no underrun",
				try, r(res.Shortfall), r(slack))
		}
		if len(res.Latencies) < clicks || res.Underruns > 1 || res.Shortfall > res.Steady/10 {
			starved = append(starved, fmt.Sprintf("try %d: %d of %d clicks found; %d underruns; the sink played %v of silence in %v",
				try, len(res.Latencies), clicks, res.Underruns, r(res.Shortfall), r(res.Steady)))
			continue
		}
		for i, l := range res.Latencies {
			if l <= 0 || l > limit {
				t.Errorf("click %d: Play to output %v, want within (0, %v]", i, l, limit)
			}
		}
		return
	}
	t.Fatalf("every try lost clicks, counted more than 1 underrun or left the sink playing silence for over a tenth of the time:\n%s",
		strings.Join(starved, "\n"))
}

// capture is parec's output with the arrival time of each read.
type capture struct {
	mu      sync.Mutex
	samples []float32 // left channel
	origin  time.Time // earliest wall time consistent with every arrival
	err     error
}

// record reads float32 stereo frames from r until EOF. A read's last
// frame was played no later than its arrival, so the capture's first
// frame was played no later than arrival − frames so far ÷ rate; the
// earliest such bound is the capture's origin.
func (c *capture) record(r io.Reader, rate int) {
	br := bufio.NewReaderSize(r, 4096)
	buf := make([]byte, 4096)
	var part []byte
	for {
		n, err := br.Read(buf)
		now := time.Now()
		part = append(part, buf[:n]...)
		c.mu.Lock()
		for len(part) >= 8 {
			c.samples = append(c.samples, math.Float32frombits(binary.LittleEndian.Uint32(part)))
			part = part[8:]
		}
		if len(c.samples) > 0 {
			o := now.Add(-time.Duration(len(c.samples)) * time.Second / time.Duration(rate))
			if c.origin.IsZero() || o.Before(c.origin) {
				c.origin = o
			}
		}
		c.mu.Unlock()
		if err != nil {
			if err != io.EOF {
				c.err = err
			}
			return
		}
	}
}

// lag is how far the capture trails the wall clock: the time since its
// origin less the audio it holds.
func (c *capture) lag(rate int) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.origin.IsZero() {
		return time.Hour
	}
	return time.Since(c.origin) - time.Duration(len(c.samples))*time.Second/time.Duration(rate)
}

// caughtUp waits until the capture has trailed the clock by under 20 ms
// for 200 ms in a row, at most 10 s. The null sink renders in blocks as
// long as the longest latency its clients allow (2 s with none), and
// takes a shorter one only at the end of the block under way.
func (c *capture) caughtUp(rate int) error {
	var since time.Time
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if c.lag(rate) >= 20*time.Millisecond {
			since = time.Time{}
			continue
		}
		if since.IsZero() {
			since = time.Now()
		}
		if time.Since(since) > 200*time.Millisecond {
			return nil
		}
	}
	return fmt.Errorf("the capture of the sink's monitor still trails the clock by %v after 10 s", c.lag(rate))
}

// runPaced is the child of TestOtoPacedLatency.
func runPaced() childResult {
	var res childResult
	eng, err := voices.NewEngine(voices.EngineDesc{
		Device: New(Desc{}),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		res.Fail = err.Error()
		return res
	}
	defer eng.Close()
	res.DeviceName = eng.Stats().Device.Name
	if err := eng.Err(); err != nil {
		res.DeviceErr = err.Error()
		return res
	}
	if err := playPaced(eng, &res); err != nil {
		res.Fail = err.Error()
	}
	return res
}

func playPaced(eng *voices.Engine, res *childResult) error {
	f := eng.Format()
	rec := exec.Command("parec", "-d", "@DEFAULT_MONITOR@", "--raw", "--format=float32le",
		fmt.Sprintf("--rate=%d", f.Rate), "--channels=2", "--latency-msec=5")
	out, err := rec.StdoutPipe()
	if err != nil {
		return err
	}
	rec.Stderr = os.Stderr
	if err := rec.Start(); err != nil {
		return fmt.Errorf("parec: %w", err)
	}
	var c capture
	done := make(chan struct{})
	go func() { c.record(out, f.Rate); close(done) }()
	stop := func() { _ = rec.Process.Kill(); <-done; _ = rec.Wait() }

	mono := voices.Format{Rate: f.Rate, Channels: 1, Encoding: voices.EncodingFloat32LE}
	bed := make([]byte, f.Rate/100*4) // 10 ms of a 400 Hz tone
	for i := range f.Rate / 100 {
		binary.LittleEndian.PutUint32(bed[4*i:], math.Float32bits(float32(clickBed*math.Sin(2*math.Pi*400*float64(i)/float64(f.Rate)))))
	}
	click := make([]byte, clickFrames*4)
	for i := range clickFrames {
		binary.LittleEndian.PutUint32(click[4*i:], math.Float32bits(clickAmp))
	}
	bedClip, err := eng.NewClip("bed", bed, mono)
	if err != nil {
		stop()
		return err
	}
	clickClip, err := eng.NewClip("click", click, mono)
	if err != nil {
		stop()
		return err
	}
	if _, err := eng.Play(bedClip, voices.PlayDesc{Loop: true}); err != nil {
		stop()
		return err
	}
	// Let the capture and the device settle, then count from here.
	if err := c.caughtUp(f.Rate); err != nil {
		stop()
		return err
	}
	s0 := eng.Stats()
	t0 := time.Now()
	played := make([]time.Time, clicks)
	for i := range played {
		time.Sleep(clickGap)
		played[i] = time.Now()
		if _, err := eng.Play(clickClip, voices.PlayDesc{}); err != nil {
			stop()
			return err
		}
	}
	time.Sleep(clickGap)
	s1 := eng.Stats()
	res.Steady = time.Since(t0)
	stop()
	if c.err != nil {
		return fmt.Errorf("reading parec: %w", c.err)
	}
	res.Underruns = s1.Underruns - s0.Underruns
	res.Reads = s1.Device.Reads - s0.Device.Reads
	// Every block the mixer passed, rendered or played silent, went to
	// the device.
	blocks := s1.Blocks + s1.Skipped - s0.Blocks - s0.Skipped
	res.Shortfall = res.Steady - f.Duration(int(blocks)*voices.DefaultBlockFrames)
	res.DevLatency = s1.DeviceLatency
	res.MixMax = s1.DeviceLatency - s1.Device.Latency
	frame := func(d time.Duration) int { return int(d * time.Duration(f.Rate) / time.Second) }
	from := 0
	for _, p := range played {
		i := max(from, frame(p.Sub(c.origin)))
		end := min(len(c.samples), i+frame(clickGap/2))
		for i < end && math.Abs(float64(c.samples[i])) < clickFind {
			i++
		}
		if i == end {
			continue // not found: the parent counts the clicks
		}
		at := c.origin.Add(f.Duration(i))
		res.Latencies = append(res.Latencies, at.Sub(p))
		from = i + clickFrames
	}
	return nil
}
