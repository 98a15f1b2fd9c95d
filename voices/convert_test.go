package voices

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/steadyframe/steadyframe/voices/internal/dsp"
)

// every source format, for table tests.
func allFormats() []Format { return DefaultFormats() }

// testVoice returns a voice configured as a pool would for f, playing
// pcm, for a 48 kHz device.
func testVoice(f Format, pcm []byte, loop bool) *voice {
	v := &voice{kind: kindOf(f), step: uint64(f.Rate) << 32 / 48000, kern: dsp.ScalarKernels(), mono: f.Channels == 1}
	v.data = pcm
	v.end = len(pcm) / f.FrameBytes()
	v.loop = loop
	return v
}

// testSincVoice returns a voice configured as a pool of an engine with
// the band-limited resampler would for f, on a device at rate dev, playing
// pcm with the scalar kernels.
func testSincVoice(f Format, pcm []byte, loop bool, dev int) *voice {
	v := testVoice(f, pcm, loop)
	v.step = uint64(f.Rate) << 32 / uint64(dev)
	if f.Rate != dev {
		v.sinc = dsp.TableFor(f.Rate, dev)
		v.planes = dsp.NewPlanes()
	}
	return v
}

// TestConverters decodes known sample values in every encoding and
// channel layout.
func TestConverters(t *testing.T) {
	s16 := func(vals ...int16) []byte {
		b := make([]byte, 2*len(vals))
		for i, v := range vals {
			binary.LittleEndian.PutUint16(b[2*i:], uint16(v))
		}
		return b
	}
	f32 := func(vals ...float32) []byte {
		b := make([]byte, 4*len(vals))
		for i, v := range vals {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
		}
		return b
	}
	nan := float32(math.NaN())
	cases := []struct {
		name string
		f    Format
		pcm  []byte
		want [][2]float32
	}{
		{"s16 mono", Format{48000, 1, EncodingInt16LE}, s16(0, 16384, -32768, 32767),
			[][2]float32{{0, 0}, {0.5, 0.5}, {-1, -1}, {32767.0 / 32768, 32767.0 / 32768}}},
		{"s16 stereo", Format{48000, 2, EncodingInt16LE}, s16(16384, -16384, -32768, 8192),
			[][2]float32{{0.5, -0.5}, {-1, 0.25}}},
		{"f32 mono", Format{48000, 1, EncodingFloat32LE}, f32(0.25, -0.75, 2, nan),
			[][2]float32{{0.25, 0.25}, {-0.75, -0.75}, {1, 1}, {0, 0}}},
		{"f32 stereo", Format{48000, 2, EncodingFloat32LE}, f32(0.5, -0.5, -3, nan),
			[][2]float32{{0.5, -0.5}, {-1, 0}}},
	}
	for _, c := range cases {
		v := testVoice(c.f, c.pcm, false)
		dec := make([]float32, 2*len(c.want)+4)
		v.decode(dec, 0, len(c.want)+2) // two frames past the end read as silence
		for i, w := range c.want {
			if dec[2*i] != w[0] || dec[2*i+1] != w[1] {
				t.Errorf("%s frame %d = (%v, %v), want %v", c.name, i, dec[2*i], dec[2*i+1], w)
			}
		}
		for i := 2 * len(c.want); i < len(dec); i++ {
			if dec[i] != 0 {
				t.Errorf("%s: decoded sample %d past the end = %v, want 0", c.name, i, dec[i])
			}
		}
		// Unity rate: pull returns the frames unchanged, then silence.
		dst := make([]float32, 2*(len(c.want)+3))
		v.pull(dst)
		for i, w := range c.want {
			if dst[2*i] != w[0] || dst[2*i+1] != w[1] {
				t.Errorf("%s pulled frame %d = (%v, %v), want %v", c.name, i, dst[2*i], dst[2*i+1], w)
			}
		}
		if !v.ended {
			t.Errorf("%s: voice not ended after its last frame", c.name)
		}
		for i := 2 * len(c.want); i < len(dst); i++ {
			if dst[i] != 0 {
				t.Errorf("%s: sample %d after the end = %v, want 0", c.name, i, dst[i])
			}
		}
	}
}

// TestResampler plays a 440 Hz sine of every source format into a 48 kHz
// stream in blocks, through each resampler, and checks its frequency,
// level, that nothing jumps (block edges are seamless) and that the
// blocked output equals one long pull.
func TestResampler(t *testing.T) {
	const freq, amp = 440.0, 0.8
	for _, rs := range []Resampler{ResamplerLinear, ResamplerSinc} {
		for _, f := range allFormats() {
			pcm := tone(f, f.Rate, freq, amp) // one second
			mk := func() *voice {
				if rs == ResamplerSinc {
					return testSincVoice(f, pcm, false, 48000)
				}
				return testVoice(f, pcm, false)
			}
			v := mk()
			const block = 256
			out := make([]float32, 0, 2*48000)
			buf := make([]float32, 2*block)
			for len(out) < 2*20000 {
				v.pull(buf)
				out = append(out, buf...)
			}
			whole := make([]float32, len(out))
			mk().pull(whole)
			for i := range out {
				if out[i] != whole[i] {
					t.Fatalf("%v %v: sample %d differs between blocked (%v) and whole (%v) pulls", rs, f, i, out[i], whole[i])
				}
			}
			l := make([]float32, len(out)/2)
			for i := range l {
				l[i] = out[2*i]
				if out[2*i+1] != l[i] {
					t.Fatalf("%v %v: channels differ at %d", rs, f, i)
				}
			}
			if got := frequency(l, 48000); math.Abs(got-freq) > 0.05 {
				t.Errorf("%v %v: frequency %.3f Hz, want %v", rs, f, got, freq)
			}
			// Linear interpolation loses a little level at 440 Hz: well
			// under 0.1 dB from 22050 Hz up, 0.1 dB from 8 kHz. The sinc
			// loses nothing measurable.
			tol := 0.001
			if rs == ResamplerLinear {
				tol = 0.005
				if f.Rate < 22050 {
					tol = 0.01
				}
			}
			// The sinc's output starts with its window half in the
			// silence before the clip: measure from 10 ms on.
			if got := rms(l[480:]) * math.Sqrt2; math.Abs(got-amp) > tol {
				t.Errorf("%v %v: level %.4f, want %v", rs, f, got, amp)
			}
			// A 440 Hz sine of amplitude 0.8 moves at most 2π·440·0.8/48000
			// per sample (past the sinc's band-limited onset).
			if got, lim := maxStep(l[480:]), 2*math.Pi*freq*amp/48000*1.01; got > lim {
				t.Errorf("%v %v: a step of %.5f between samples, want at most %.5f (a discontinuity)", rs, f, got, lim)
			}
		}
	}
}

// TestResamplerLoop checks that a looped clip wraps without a click: one
// whole number of sine periods, looped, stays a clean sine.
func TestResamplerLoop(t *testing.T) {
	f := Format{Rate: 22050, Channels: 1, Encoding: EncodingFloat32LE}
	// 441 Hz: exactly 50 frames per period at 22050 Hz; loop 4 periods.
	pcm := tone(f, 200, 441, 0.5)
	v := testVoice(f, pcm, true)
	out := make([]float32, 2*48000)
	v.pull(out)
	l := make([]float32, 48000)
	for i := range l {
		l[i] = out[2*i]
	}
	if v.ended {
		t.Fatal("looped voice ended")
	}
	if got := frequency(l, 48000); math.Abs(got-441) > 0.05 {
		t.Errorf("frequency %.3f, want 441", got)
	}
	if got, lim := maxStep(l), 2*math.Pi*441*0.5/48000*1.02; got > lim {
		t.Errorf("step %.5f at the loop seam, want at most %.5f", got, lim)
	}
}
