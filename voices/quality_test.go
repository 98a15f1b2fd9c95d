package voices

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/steadyframe/steadyframe/internal/pcmcheck"
)

// The resampler's quality targets, measured on the offline device's
// output as a listener gets it: every figure is the mixer end to end
// (kernels, seams, limiter, encoder), fitted by internal/pcmcheck.

// played plays pcm in format f once (or looped) on a fresh 48 kHz engine
// with resampler rs and returns the left channel of frames device frames.
// A mono source is panned hard left, which is unity gain on the left.
func played(t testing.TB, rs Resampler, f Format, pcm []byte, loop bool, d ClipDesc, frames int) []float32 {
	t.Helper()
	e, dev := offlineEngine(t, EngineDesc{Resampler: rs, Formats: []Format{f}})
	_, c := clipOf(t, e, "tone", f, pcm, d)
	pan := float32(0)
	if f.Channels == 1 {
		pan = -1
	}
	if _, err := e.Play(c, PlayDesc{Loop: loop, Pan: pan}); err != nil {
		t.Fatal(err)
	}
	l, _ := render(t, dev, frames)
	return l
}

// steady cuts the onset and the end off a rendered tone: 100 ms each.
func steady(l []float32) []float32 { return l[4800 : len(l)-4800] }

// TestSincQuality checks the targets for the default resampler:
// a -6 dBFS 1 kHz tone from 22050 and 44100 Hz comes out with THD+N at
// most -90 dB, and a 10 kHz tone from 22050 Hz within 0.5 dB of its level
// with everything else (its images at 12.05, 32.05, 34.1 kHz... folded
// into the band) at least 80 dB below it. The linear resampler's figures
// are logged beside them for comparison.
func TestSincQuality(t *testing.T) {
	const amp = 0.5 // -6.02 dBFS
	for _, c := range []struct {
		rate       int
		freq, thdn float64
	}{
		{22050, 1000, -90}, {44100, 1000, -90}, {22050, 10000, -80},
	} {
		for _, enc := range []Encoding{EncodingInt16LE, EncodingFloat32LE} {
			for ch := 1; ch <= 2; ch++ {
				f := Format{Rate: c.rate, Channels: ch, Encoding: enc}
				pcm := tone(f, c.rate*6/5, c.freq, amp)
				x := steady(played(t, ResamplerSinc, f, pcm, false, ClipDesc{}, 57600))
				ft := pcmcheck.FitTone(x, c.freq, 48000)
				lin := pcmcheck.FitTone(steady(played(t, ResamplerLinear, f, pcm, false, ClipDesc{}, 57600)), c.freq, 48000)
				level := pcmcheck.DB(ft.Amp / amp)
				t.Logf("%v %.0f Hz: sinc level %+.3f dB THD+N %.1f dB; linear level %+.2f dB THD+N %.1f dB",
					f, c.freq, level, ft.THDN(), pcmcheck.DB(lin.Amp/amp), lin.THDN())
				if math.Abs(level) > 0.5 {
					t.Errorf("%v %.0f Hz: level %+.3f dB, want within 0.5 dB", f, c.freq, level)
				}
				if got := ft.THDN(); got > c.thdn {
					t.Errorf("%v %.0f Hz: THD+N %.1f dB, want at most %.0f", f, c.freq, got, c.thdn)
				}
				if c.freq == 10000 {
					img := pcmcheck.FitTone(pcmcheck.Float32(ft.Residual), 12050, 48000).Amp
					t.Logf("%v: image at 12.05 kHz %.1f dB below the tone (linear: %.1f)", f,
						pcmcheck.DB(ft.Amp/img), pcmcheck.DB(lin.Amp/pcmcheck.FitTone(pcmcheck.Float32(lin.Residual), 12050, 48000).Amp))
				}
			}
		}
	}
}

// TestSourceRates plays a 1 kHz tone from every default source rate, and
// from rates outside them (12, 24 and 37.8 kHz, a prime rate, the
// extremes), and checks it arrives at 1 kHz and at its level, cleanly.
func TestSourceRates(t *testing.T) {
	const amp = 0.5
	for _, rate := range append(defaultRates[:], 12000, 24000, 37800, 44101, MinRate+1, 191999, MaxRate) {
		for _, enc := range []Encoding{EncodingInt16LE, EncodingFloat32LE} {
			f := Format{Rate: rate, Channels: 2, Encoding: enc}
			x := steady(played(t, ResamplerSinc, f, tone(f, rate*6/5, 1000, amp), false, ClipDesc{}, 57600))
			if got := frequency(x, 48000); math.Abs(got-1000) > 0.01 {
				t.Errorf("%v: %.4f Hz, want 1000", f, got)
			}
			ft := pcmcheck.FitTone(x, 1000, 48000)
			if level := pcmcheck.DB(ft.Amp / amp); math.Abs(level) > 0.01 {
				t.Errorf("%v: level %+.4f dB, want 0", f, level)
			}
			if got := ft.THDN(); got > -88 {
				t.Errorf("%v: THD+N %.1f dB, want at most -88", f, got)
			}
			t.Logf("%v: THD+N %.1f dB", f, ft.THDN())
		}
	}
}

// TestDownsampleAntiAlias plays a 30 kHz tone from 96 and 88.2 kHz
// sources: above the device's Nyquist frequency, it must be filtered out
// (at least 80 dB down), not folded back to 18 kHz.
func TestDownsampleAntiAlias(t *testing.T) {
	const amp = 0.5
	for _, rate := range []int{88200, 96000} {
		f := Format{Rate: rate, Channels: 1, Encoding: EncodingFloat32LE}
		x := steady(played(t, ResamplerSinc, f, tone(f, rate*6/5, 30000, amp), false, ClipDesc{}, 57600))
		got := pcmcheck.DB(rms(x) / (amp / math.Sqrt2))
		lin := pcmcheck.DB(rms(steady(played(t, ResamplerLinear, f, tone(f, rate*6/5, 30000, amp), false, ClipDesc{}, 57600))) / (amp / math.Sqrt2))
		t.Logf("%v: 30 kHz comes out at %.1f dB (linear: %.1f dB)", f, got, lin)
		if got > -80 {
			t.Errorf("%v: 30 kHz comes out at %.1f dB, want at most -80", f, got)
		}
	}
}

// TestSincLoopSeams loops whole periods of a sine: the output must be the
// same sine, with nothing at the seams. An intro before the loop, and a
// loop shorter than the filter (which then reads across several seams
// at once), are both covered.
func TestSincLoopSeams(t *testing.T) {
	const amp = 0.5
	for _, c := range []struct {
		rate              int
		freq              float64
		intro, loopFrames int // whole periods
	}{
		{22050, 441, 50, 200}, // 50 frames a period
		{44100, 441, 0, 100},
		{11025, 441, 25, 25}, // a loop of 25 frames under a 48-tap filter
		{96000, 480, 200, 400},
	} {
		f := Format{Rate: c.rate, Channels: 1, Encoding: EncodingFloat32LE}
		pcm := tone(f, c.intro+c.loopFrames, c.freq, amp)
		x := played(t, ResamplerSinc, f, pcm, true, ClipDesc{LoopStart: c.intro}, 48000)[480:]
		ft := pcmcheck.FitTone(x, c.freq, 48000)
		m, at := ft.MaxResidual()
		t.Logf("%v loop of %d frames: THD+N %.1f dB, largest residual %.2e at frame %d", f, c.loopFrames, ft.THDN(), m, 480+at)
		if m > 1e-4 || ft.THDN() > -90 {
			t.Errorf("%v loop of %d frames: residual %.2e at frame %d, THD+N %.1f dB: want at most 1e-4 and -90 dB",
				f, c.loopFrames, m, 480+at, ft.THDN())
		}
	}
}

// TestSincBlockEdges renders the same voices with blocks of 16 frames
// (with the default fade, which must adapt to the block) and of 1000
// frames: the outputs must be identical, so a block edge does nothing.
func TestSincBlockEdges(t *testing.T) {
	var outs [2][]byte
	for i, block := range []int{16, 1000} {
		e, dev := offlineEngine(t, EngineDesc{BlockFrames: block}) // no FadeFrames
		for _, f := range []Format{{22050, 2, EncodingInt16LE}, {44100, 1, EncodingFloat32LE}, {96000, 2, EncodingFloat32LE}} {
			_, c := clipOf(t, e, f.String(), f, tone(f, f.Rate/3, 1000, 0.2), ClipDesc{})
			if _, err := e.Play(c, PlayDesc{Loop: true}); err != nil {
				t.Fatal(err)
			}
		}
		outs[i] = make([]byte, 16000*8)
		if _, err := dev.Render(outs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Fatal("blocks of 16 and of 1000 frames render different output")
	}
}

// TestSincRateChanges passes one continuous 1 kHz tone from source rate
// to source rate: it is cut into 40 ms pieces under Hann windows that
// overlap by half (so they sum to the tone), each piece from another rate
// (up, down and unity), each started on its own block 20 ms after the
// last. The pieces sum back to the tone only if every rate's voice keeps
// the tone's level and phase and starts on time: the sinc is linear
// phase with no delay, so no rate shifts its voice, and there is nothing
// where the rate changes.
func TestSincRateChanges(t *testing.T) {
	const amp, freq, hop = 0.5, 1000.0, 960 // 20 ms at 48 kHz
	rates := []int{22050, 44100, 96000, 48000, 8000, 88200, 11025, 32000, 16000, 22050, 48000, 44100}
	e, dev := offlineEngine(t, EngineDesc{BlockFrames: hop})
	var all []float32
	for i, rate := range rates {
		f := Format{Rate: rate, Channels: 1, Encoding: EncodingFloat32LE}
		n := 2 * rate * hop / 48000
		pcm := make([]byte, 4*n)
		for j := 0; j < n; j++ {
			w := 0.5 - 0.5*math.Cos(2*math.Pi*float64(j)/float64(n))
			s := amp * w * math.Sin(2*math.Pi*freq*(0.02*float64(i)+float64(j)/float64(rate)))
			binary.LittleEndian.PutUint32(pcm[4*j:], math.Float32bits(float32(s)))
		}
		_, c := clipOf(t, e, f.String(), f, pcm, ClipDesc{})
		if _, err := e.Play(c, PlayDesc{Pan: -1}); err != nil {
			t.Fatal(err)
		}
		l, _ := render(t, dev, hop)
		all = append(all, l...)
	}
	// The first hop is the first piece's rise alone; the limiter's
	// look-ahead delays everything.
	l, _ := render(t, dev, e.limDelay())
	out := append(all, l...)[hop+e.limDelay():]
	ft := pcmcheck.FitTone(out, freq, 48000)
	m, at := ft.MaxResidual()
	t.Logf("level %+.4f dB; THD+N %.1f dB; largest residual %.1f dB re the tone, at frame %d after the change to %d Hz",
		pcmcheck.DB(ft.Amp/amp), ft.THDN(), pcmcheck.DB(m/amp), at%hop, rates[at/hop+1])
	if pcmcheck.DB(m/amp) > -80 || ft.THDN() > -90 {
		t.Errorf("residual %.1f dB re the tone at frame %d after the change to %d Hz, THD+N %.1f dB: want -80 and -90 at most",
			pcmcheck.DB(m/amp), at%hop, rates[at/hop+1], ft.THDN())
	}
}

// TestCleanAudioUntouched plays a source peaking at -0.1 dBFS at unity:
// the limiter must leave it bit for bit (the former soft clip bent
// everything above -2.5 dBFS). A mono device plays a centred mono voice
// at unity too.
func TestCleanAudioUntouched(t *testing.T) {
	const amp = 0.98855 // -0.1 dBFS
	f := Format{Rate: 48000, Channels: 2, Encoding: EncodingFloat32LE}
	pcm := tone(f, 4800, 997, amp)
	e, dev := offlineEngine(t, EngineDesc{})
	_, c := clipOf(t, e, "loud", f, pcm, ClipDesc{})
	if _, err := e.Play(c, PlayDesc{}); err != nil {
		t.Fatal(err)
	}
	d := e.limDelay() * 8 // the limiter's look-ahead, in bytes
	out := make([]byte, d+len(pcm))
	if _, err := dev.Render(out); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out[d:], pcm) || !bytes.Equal(out[:d], make([]byte, d)) {
		t.Fatal("a -0.1 dBFS source at unity was changed on its way to the device")
	}

	for _, f := range []Format{{48000, 1, EncodingFloat32LE}, {48000, 2, EncodingFloat32LE}, {44100, 1, EncodingInt16LE}} {
		e, mono := offlineEngine(t, EngineDesc{Format: Format{Rate: 48000, Channels: 1, Encoding: EncodingFloat32LE}})
		_, c := clipOf(t, e, "tone", f, tone(f, f.Rate, 1000, 0.5), ClipDesc{})
		if _, err := e.Play(c, PlayDesc{}); err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 48000*4)
		if _, err := mono.Render(b); err != nil {
			t.Fatal(err)
		}
		x := make([]float32, len(b)/4)
		for i := range x {
			x[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
		if level := pcmcheck.DB(pcmcheck.FitTone(x[4800:43200], 1000, 48000).Amp / 0.5); math.Abs(level) > 0.01 {
			t.Errorf("%v centred on a mono device: %+.3f dB, want unity", f, level)
		}
	}
}

// TestSmallBlocksDefaultFade checks that every block of 16 to 127 frames
// works without FadeFrames (the default fade shortens to the block), and
// that Stop still fades out and ends the voice within a block.
func TestSmallBlocksDefaultFade(t *testing.T) {
	f := Format{Rate: 48000, Channels: 1, Encoding: EncodingFloat32LE}
	pcm := make([]byte, 4800*4)
	fill(f, pcm, 0.5)
	for block := 16; block < 128; block++ {
		e, dev := offlineEngine(t, EngineDesc{BlockFrames: block})
		if e.mix.fade != block {
			t.Fatalf("BlockFrames %d: fade of %d frames, want %d", block, e.mix.fade, block)
		}
		_, c := clipOf(t, e, "dc", f, pcm, ClipDesc{})
		h, _ := e.Play(c, PlayDesc{Loop: true, Pan: -1})
		render(t, dev, block+e.limDelay()) // past the look-ahead's silence
		if err := e.Stop(h); err != nil {
			t.Fatal(err)
		}
		l, _ := render(t, dev, 3*block+e.limDelay())
		if got, lim := maxStep(l), 0.5/float64(block)*1.01; got > lim {
			t.Fatalf("BlockFrames %d: step %.5f in the fade, want at most %.5f", block, got, lim)
		}
		if l[len(l)-1] != 0 || e.Playing(h) {
			t.Fatalf("BlockFrames %d: voice still sounding after its fade", block)
		}
	}
}
