package dsp_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/steadyframe/steadyframe/internal/pcmcheck"
	"github.com/steadyframe/steadyframe/voices/internal/dsp"
)

// TestLimiter checks the output protection: everything within full scale
// passes bit for bit, Delay frames late; nothing ever leaves [-1, 1];
// and the gain recovers to exactly unity after an over.
func TestLimiter(t *testing.T) {
	lim := dsp.NewLimiter(48000)
	d := lim.Delay()
	if d != 72 {
		t.Fatalf("Delay %d frames at 48 kHz, want 72 (1.5 ms, as the doc says)", d)
	}
	var in, out []dsp.Frame
	for x := float32(-1); x <= 1; x += 1.0 / 4096 {
		in = append(in, dsp.Frame{x, -x})
	}
	out = append(out, in...)
	lim.Run(out, 1, 0)
	for i := d; i < len(in); i++ {
		if out[i] != in[i-d] {
			t.Fatalf("frame %d: %v, want %v %d frames late: changed a sample within full scale", i, out[i], in[i-d], d)
		}
	}
	hostile := make([]dsp.Frame, 0, 600)
	for x := float32(-100); x <= 100; x += 0.37 {
		hostile = append(hostile, dsp.Frame{x, x / 3})
	}
	lim.Run(hostile, 1, 0)
	for i, f := range hostile {
		if f[0] < -1 || f[0] > 1 || f[1] < -1 || f[1] > 1 {
			t.Fatalf("frame %d: %v outside [-1, 1]", i, f)
		}
	}
	// 50 ms time constant: after a second of silence the gain is back at
	// exactly one, and a sample just under full scale passes unchanged.
	lim.Run(make([]dsp.Frame, 48000), 1, 0)
	f := make([]dsp.Frame, d+1)
	f[0] = dsp.Frame{0.999, -1}
	lim.Run(f, 1, 0)
	if lim.Cut() != 0 || f[d] != (dsp.Frame{0.999, -1}) {
		t.Fatalf("after recovery: gain reduction %v, (0.999, -1) -> %v", lim.Cut(), f[d])
	}
}

// TestLimiterOver drives a 1 kHz tone 6 dB over full scale through the
// limiter: no sample reaches full scale (the longest run there is 0),
// and the tone comes out with its THD+N logged and bounded, against a
// hard clip's for comparison.
func TestLimiterOver(t *testing.T) {
	const rate, amp = 48000, 2.0 // +6 dB
	lim := dsp.NewLimiter(rate)
	mix := make([]dsp.Frame, 2*rate)
	clip := make([]float32, len(mix))
	for i := range mix {
		s := float32(amp * math.Sin(2*math.Pi*1000*float64(i)/rate))
		mix[i] = dsp.Frame{s, s}
		clip[i] = max(-1, min(1, s))
	}
	for b := 0; b < len(mix); b += 256 {
		lim.Run(mix[b:b+256], 1, 0)
	}
	l := make([]float32, len(mix))
	run, longest, top := 0, 0, 0.0
	for i, f := range mix {
		l[i] = f[0]
		a := math.Abs(float64(f[0]))
		top = math.Max(top, a)
		if a >= 1 {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	x := l[rate/2:] // past the attack and the first release
	thdn := pcmcheck.FitTone(x, 1000, rate).THDN()
	hard := pcmcheck.FitTone(clip[rate/2:], 1000, rate).THDN()
	t.Logf("1 kHz 6 dB over: peak %.5f, longest run at full scale %d, THD+N %.1f dB (a hard clip: %.1f dB)", top, longest, thdn, hard)
	if longest != 0 {
		t.Errorf("%d samples in a row at full scale, want none", longest)
	}
	if thdn > -40 {
		t.Errorf("THD+N %.1f dB, want at most -40", thdn)
	}
}

// TestLimiterBursts drives the limiter with noise whose level jumps
// every few frames, from quiet to 40 dB over, at random: no sample may
// reach full scale, which it would if the window's least gain were ever
// missed (a limited sample is clamped to full scale only if its gain was
// too high).
func TestLimiterBursts(t *testing.T) {
	lim := dsp.NewLimiter(48000)
	rng := rand.New(rand.NewPCG(1, 2))
	mix := make([]dsp.Frame, 200000)
	level := float32(0.5)
	for i := range mix {
		if rng.IntN(40) == 0 {
			level = float32(math.Pow(10, rng.Float64()*2.3-0.3)) // 0.5 to 100
		}
		mix[i] = dsp.Frame{level * float32(rng.NormFloat64()), level * float32(rng.NormFloat64())}
	}
	for b := 0; b < len(mix); b += 100 {
		lim.Run(mix[b:b+100], 1, 0)
	}
	for i, f := range mix {
		if math.Abs(float64(f[0])) >= 1 || math.Abs(float64(f[1])) >= 1 {
			t.Fatalf("frame %d: %v reaches full scale", i, f)
		}
	}
}

// BenchmarkLimiter times the limiter on 1024-frame blocks: quiet, a mix
// within full scale (the delay alone); loud, a tone 6 dB over (the gain
// at work on every frame); and chord, 32 tones of random frequencies
// and phases summed to about 12 dB over, whose overs come irregularly as
// a game's loud mix's do.
func BenchmarkLimiter(b *testing.B) {
	for _, c := range []struct {
		name  string
		amp   float64
		tones int
	}{{"quiet", 0.5, 1}, {"loud", 2, 1}, {"chord", 0.25, 32}} {
		b.Run(c.name, func(b *testing.B) {
			lim := dsp.NewLimiter(48000)
			src := make([]dsp.Frame, 1024)
			rng := rand.New(rand.NewPCG(7, 8))
			for range c.tones {
				hz, ph := 1000.0, 0.0
				if c.tones > 1 {
					hz, ph = 100+rng.Float64()*2000, rng.Float64()*2*math.Pi
				}
				for i := range src {
					s := float32(c.amp * math.Sin(2*math.Pi*hz*float64(i)/48000+ph))
					src[i][0] += s
					src[i][1] += s
				}
			}
			mix := make([]dsp.Frame, len(src))
			b.ReportAllocs()
			for b.Loop() {
				copy(mix, src)
				lim.Run(mix, 1, 0)
			}
		})
	}
}
