package voices

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/internal/pcmcheck"
)

// pitched plays a looped tone of format f at pitch on a fresh 48 kHz
// offline engine and returns the steady part of the left channel of
// frames device frames, and the engine and handle.
func pitched(t *testing.T, f Format, freq, amp float64, pitch float32, frames int) []float32 {
	t.Helper()
	e, dev := offlineEngine(t, EngineDesc{Formats: []Format{f}})
	_, c := clipOf(t, e, "tone", f, tone(f, f.Rate, freq, amp), ClipDesc{}) // whole cycles: a seamless loop
	pan := float32(0)
	if f.Channels == 1 {
		pan = -1
	}
	if _, err := e.Play(c, PlayDesc{Loop: true, Pan: pan, Pitch: pitch}); err != nil {
		t.Fatal(err)
	}
	l, _ := render(t, dev, frames)
	return steady(l)
}

// TestPitchQuality: a -6 dBFS 1 kHz tone from 44100 Hz at pitch 1.5
// arrives at 1500 Hz within 0.01%, with THD+N at most -90 dB (f32
// sources; the 16-bit ones are logged).
func TestPitchQuality(t *testing.T) {
	const amp = 0.5
	for _, enc := range []Encoding{EncodingFloat32LE, EncodingInt16LE} {
		for ch := 1; ch <= 2; ch++ {
			f := Format{Rate: 44100, Channels: ch, Encoding: enc}
			x := pitched(t, f, 1000, amp, 1.5, 57600)
			hz := frequency(x, 48000)
			ft := pcmcheck.FitTone(x, 1500, 48000)
			t.Logf("%v at pitch 1.5: %.4f Hz, level %+.4f dB, THD+N %.1f dB", f, hz, pcmcheck.DB(ft.Amp/amp), ft.THDN())
			if math.Abs(hz-1500)/1500 > 1e-4 {
				t.Errorf("%v: %.4f Hz, want 1500 within 0.01%%", f, hz)
			}
			if enc == EncodingFloat32LE && ft.THDN() > -90 {
				t.Errorf("%v: THD+N %.1f dB, want at most -90", f, ft.THDN())
			}
			if math.Abs(pcmcheck.DB(ft.Amp/amp)) > 0.1 {
				t.Errorf("%v: level %+.3f dB, want within 0.1 dB", f, pcmcheck.DB(ft.Amp/amp))
			}
		}
	}
}

// TestPitchAntiAlias: pitch 4 on an 8 kHz tone from 48 kHz would land at
// 32 kHz, past the device's Nyquist frequency: it must be filtered out,
// not folded back to 16 kHz. Everything that comes out is at least 80 dB
// below the tone. A 5 kHz tone at pitch 4 (20 kHz) still passes.
func TestPitchAntiAlias(t *testing.T) {
	const amp = 0.5
	f := Format{Rate: 48000, Channels: 1, Encoding: EncodingFloat32LE}
	x := pitched(t, f, 8000, amp, 4, 57600)
	all := pcmcheck.DB(rms(x) * math.Sqrt2 / amp)
	alias := pcmcheck.DB(pcmcheck.FitTone(x, 16000, 48000).Amp / amp)
	t.Logf("8 kHz at pitch 4: everything %.1f dB, the 16 kHz alias %.1f dB below the tone", -all, -alias)
	if all > -80 || alias > -80 {
		t.Errorf("8 kHz at pitch 4: output %.1f dB, alias %.1f dB; want both at most -80", all, alias)
	}
	y := pitched(t, f, 5000, amp, 4, 57600)
	ft := pcmcheck.FitTone(y, 20000, 48000)
	t.Logf("5 kHz at pitch 4: 20 kHz at %+.2f dB, THD+N %.1f dB", pcmcheck.DB(ft.Amp/amp), ft.THDN())
	if lv := pcmcheck.DB(ft.Amp / amp); math.Abs(lv) > 1 {
		t.Errorf("5 kHz at pitch 4: 20 kHz at %+.2f dB, want within 1 dB", lv)
	}
}

// TestPitchSweep sets the pitch every block, from 1 to 1.5 and back, and
// holds the output to the tone at the position a step moving linearly
// across each block reaches, computed here in float64. A step that
// jumped at block edges would leave the tone up to several frames off
// that line (a zipper); the residual must stay 80 dB below the tone.
func TestPitchSweep(t *testing.T) {
	const (
		amp   = 0.5
		freq  = 1000
		block = 256
		n     = 300 // blocks
	)
	f := Format{Rate: 48000, Channels: 1, Encoding: EncodingFloat32LE}
	e, dev := offlineEngine(t, EngineDesc{Formats: []Format{f}, BlockFrames: block})
	_, c := clipOf(t, e, "tone", f, tone(f, f.Rate, freq, amp), ClipDesc{})
	h, err := e.Play(c, PlayDesc{Loop: true, Pan: -1, Pitch: 1})
	if err != nil {
		t.Fatal(err)
	}
	pitchAt := func(k int) float64 { return 1.25 - 0.25*math.Cos(2*math.Pi*float64(k)/n) }
	var out []float32
	for k := range n {
		if err := e.SetPitch(h, float32(pitchAt(k+1))); err != nil {
			t.Fatal(err)
		}
		l, _ := render(t, dev, block)
		out = append(out, l...)
	}
	// The reference: block k ramps from pitch(k) to pitch(k+1).
	ref := make([]float64, len(out))
	pos, prev := 0.0, float64(float32(pitchAt(0)))
	for k := range n {
		next := float64(float32(pitchAt(k + 1)))
		for i := range block {
			ref[k*block+i] = amp * math.Sin(2*math.Pi*freq*pos/48000)
			pos += prev + (next-prev)*float64(i+1)/block
		}
		prev = next
	}
	d := e.limDelay()
	var worst, sum float64
	cnt := 0
	for i := 4800; i+d < len(out); i++ {
		r := float64(out[i+d]) - ref[i]
		worst = max(worst, math.Abs(r))
		sum += r * r
		cnt++
	}
	res := pcmcheck.DB(math.Sqrt(sum/float64(cnt)) * math.Sqrt2 / amp)
	t.Logf("sweep 1..1.5 every %d frames: residual %.1f dB RMS, peak %.1f dB below the tone", block, res, -pcmcheck.DB(worst/amp))
	if res > -80 {
		t.Errorf("sweep: residual %.1f dB, want at most -80", res)
	}
}

// TestPitchErrors: a pitch out of range is ErrInvalid naming it, and
// SetPitch on a voice played without one is ErrNotPitched.
func TestPitchErrors(t *testing.T) {
	e, _ := offlineEngine(t, EngineDesc{})
	_, c := clipOf(t, e, "tone", mono44, tone(mono44, 4410, 440, 0.5), ClipDesc{})
	for _, p := range []float32{0.2, 4.5, float32(math.NaN()), -1} {
		_, err := e.Play(c, PlayDesc{Pitch: p})
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "Pitch") {
			t.Errorf("Play with Pitch %v: %v, want ErrInvalid naming Pitch", p, err)
		}
	}
	if s := e.Stats(); s.Active != 0 {
		t.Fatalf("refused Plays left %d voices", s.Active)
	}
	h, err := e.Play(c, PlayDesc{Loop: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetPitch(h, 1.2); err != ErrNotPitched {
		t.Errorf("SetPitch of an unpitched voice: %v, want ErrNotPitched", err)
	}
	hp, err := e.Play(c, PlayDesc{Loop: true, Pitch: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetPitch(hp, 5); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "pitch") {
		t.Errorf("SetPitch 5: %v, want ErrInvalid naming pitch", err)
	}
	if err := e.SetPitch(hp, 2); err != nil {
		t.Errorf("SetPitch 2: %v", err)
	}
	if err := e.SetPitch(0, 2); err != ErrStaleHandle {
		t.Errorf("SetPitch of the zero Handle: %v, want ErrStaleHandle", err)
	}
}

// TestPitchOneShotEnds: a pitched one-shot voice ends once its last
// frame has left the filter, and frees its slot's pitch mark.
func TestPitchOneShotEnds(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{})
	_, c := clipOf(t, e, "tone", mono44, tone(mono44, 4410, 440, 0.5), ClipDesc{})
	h, err := e.Play(c, PlayDesc{Pitch: 2})
	if err != nil {
		t.Fatal(err)
	}
	render(t, dev, 2400) // 4410 frames at pitch 2 from 44.1 kHz: 2400 device frames
	if !e.Playing(h) {
		t.Fatal("ended before its clip's end")
	}
	render(t, dev, 2048)
	if e.Playing(h) {
		t.Fatal("still playing well past its clip's end")
	}
	for s := range e.mix.pitchable {
		if e.mix.pitchable[s].Load() {
			t.Fatalf("slot %d still marked pitched", s)
		}
	}
}

// TestPitchAllocs: Play with a pitch, SetPitch and the mix of pitched
// voices allocate nothing.
func TestPitchAllocs(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{QueueSize: 4096})
	_, c := clipOf(t, e, "tone", mono44, tone(mono44, 4410, 440, 0.5), ClipDesc{})
	_, cl := clipOf(t, e, "loop", mono44, tone(mono44, 4410, 440, 0.2), ClipDesc{})
	for i := range 8 {
		if _, err := e.Play(cl, PlayDesc{Loop: true, Pitch: 0.5 + float32(i)/4}); err != nil {
			t.Fatal(err)
		}
	}
	buf := make([]byte, 1024*8)
	p := float32(1)
	wantNoAllocs(t, "Play with Pitch+SetPitch+mix", func() {
		h, err := e.Play(c, PlayDesc{Pitch: 1.5})
		if err != nil {
			t.Fatal(err)
		}
		p = 2.5 - p
		_ = e.SetPitch(h, p)
		_ = e.Stop(h)
		_, _ = dev.Render(buf)
	})
}
