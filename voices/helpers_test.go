package voices

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/steadyframe/steadyframe/internal/pcmcheck"
	"github.com/steadyframe/steadyframe/voices/internal/dsp"
)

// tone returns frames frames of a sine of freq Hz and amplitude amp in
// format f (the same signal on every channel).
func tone(f Format, frames int, freq, amp float64) []byte {
	b := make([]byte, frames*f.FrameBytes())
	for i := 0; i < frames; i++ {
		s := amp * math.Sin(2*math.Pi*freq*float64(i)/float64(f.Rate))
		for c := 0; c < f.Channels; c++ {
			o := b[i*f.FrameBytes()+c*f.Encoding.SampleBytes():]
			if f.Encoding == EncodingInt16LE {
				binary.LittleEndian.PutUint16(o, uint16(int16(math.Round(s*32767))))
			} else {
				binary.LittleEndian.PutUint32(o, math.Float32bits(float32(s)))
			}
		}
	}
	return b
}

// fill overwrites b with a constant sample value v (a DC marker) in f.
func fill(f Format, b []byte, v float64) {
	for o := 0; o+f.Encoding.SampleBytes() <= len(b); o += f.Encoding.SampleBytes() {
		if f.Encoding == EncodingInt16LE {
			binary.LittleEndian.PutUint16(b[o:], uint16(int16(math.Round(v*32767))))
		} else {
			binary.LittleEndian.PutUint32(b[o:], math.Float32bits(float32(v)))
		}
	}
}

// The device's output is judged by internal/pcmcheck, shared with
// otodev's capture tests.
var (
	stereo    = pcmcheck.Stereo
	frequency = pcmcheck.Frequency
	peak      = pcmcheck.Peak
	rms       = pcmcheck.RMS
	maxStep   = pcmcheck.MaxStep
)

// offlineEngine returns an engine on a manual Offline device, closed at
// the end of the test.
func offlineEngine(t testing.TB, d EngineDesc) (*Engine, *Offline) {
	t.Helper()
	dev := NewOffline(OfflineDesc{})
	d.Device = dev
	e, err := NewEngine(d)
	if err != nil {
		t.Fatalf("NewEngine: %v", err)
	}
	t.Cleanup(func() {
		if err := e.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return e, dev
}

// render pulls frames device frames (float32 stereo) from dev.
func render(t testing.TB, dev *Offline, frames int) (l, r []float32) {
	t.Helper()
	b := make([]byte, frames*8)
	if _, err := dev.Render(b); err != nil {
		t.Fatalf("Render: %v", err)
	}
	return stereo(b)
}

// renderMix renders frames from dev, as render does, but returns the mix
// those frames were made of, before the limiter's look-ahead delays it:
// frame i is the engine clock's frame at the render's start plus i. At a
// master gain of 1 with nothing to limit it is what the device gets,
// limDelay frames later.
func renderMix(t testing.TB, e *Engine, dev *Offline, frames int) (l, r []float32) {
	t.Helper()
	for _, f := range mixLeft[e] { // mixed by the last call, rendered by this one
		l, r = append(l, f[0]), append(r, f[1])
	}
	e.mix.tap = func(mix []frame) {
		for _, f := range mix {
			l, r = append(l, f[0]), append(r, f[1])
		}
	}
	defer func() { e.mix.tap = nil }()
	render(t, dev, frames)
	if len(l) < frames {
		t.Fatalf("renderMix: the mixer made %d frames for %d rendered", len(l), frames)
	}
	mixLeft[e] = mixLeft[e][:0]
	for i := frames; i < len(l); i++ {
		mixLeft[e] = append(mixLeft[e], frame{l[i], r[i]})
	}
	return l[:frames], r[:frames]
}

// mixLeft holds what renderMix's mixer made past the frames rendered.
var mixLeft = map[*Engine][]frame{}

// clipOf makes a one-clip bank over pcm.
func clipOf(t testing.TB, e *Engine, name string, f Format, pcm []byte, d ClipDesc) (*Bank, Clip) {
	t.Helper()
	b, err := e.NewBank(name, pcm)
	if err != nil {
		t.Fatalf("NewBank: %v", err)
	}
	d.Format = f
	c, err := b.Clip(d)
	if err != nil {
		t.Fatalf("Clip: %v", err)
	}
	return b, c
}

// pull converts and resamples the next len(dst)/2 device frames into dst
// (stereo, interleaved) at unity gain; past the end of a one-shot clip
// dst is silent. It is render without the mix, for the converter tests, and
// allocates its scratch bus.
func (v *voice) pull(dst []float32) {
	bus := make([]frame, len(dst)/2)
	v.gainL, v.gainR = 1, 1
	v.render(bus, nil, 1, 1)
	for i, f := range bus {
		dst[2*i], dst[2*i+1] = f[0], f[1]
	}
}

// setKernels makes every voice run the kernels ks (the benchmarks and
// tests compare the sets side by side). Call it only where the mixer is
// not running.
func (m *mixer) setKernels(ks *dsp.Kernels) {
	for i := range m.voices {
		m.voices[i].kern = ks
	}
	for _, b := range m.buses {
		b.kern = ks
	}
}

// perVoice makes the mixer resample every voice on its own, as it did
// before rate buses (and as a pitched voice must): each sinc voice gets
// its table instead of its bus. The tests compare the two paths and the
// benchmarks time them side by side. Call it before any voice plays.
func (m *mixer) perVoice() {
	for i := range m.voices {
		v := &m.voices[i]
		if v.bus == nil {
			continue
		}
		v.sinc = dsp.TableFor(v.pool.format.Rate, m.dev.Rate)
		v.step = uint64(v.pool.format.Rate) << 32 / uint64(m.dev.Rate)
		v.bus, v.fade = nil, m.fade
	}
	for i := range m.fixed {
		if f := &m.fixed[i]; f.bus != nil {
			f.sinc = dsp.TableFor(f.pool.format.Rate, m.dev.Rate)
			f.step = uint64(f.pool.format.Rate) << 32 / uint64(m.dev.Rate)
			f.bus, f.fade = nil, m.fade
		}
	}
	m.buses = nil
}

// defaultFormats is DefaultFormats, made once for index.
var defaultFormats = DefaultFormats()

// index returns f's position in DefaultFormats, so in the Stats.Formats of
// an engine with the default formats, or -1. It allocates nothing.
func (f Format) index() int {
	for i, g := range defaultFormats {
		if g == f {
			return i
		}
	}
	return -1
}

// limDelay returns the frames the limiter's look-ahead delays the mix.
func (e *Engine) limDelay() int { return e.mix.limDelay }
