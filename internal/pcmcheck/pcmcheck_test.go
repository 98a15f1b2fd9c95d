package pcmcheck

import (
	"encoding/binary"
	"math"
	"testing"
)

func sine(freq float64, rate, n int, amp float64) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(amp * math.Sin(2*math.Pi*freq*float64(i)/float64(rate)))
	}
	return x
}

func TestMeasuresASine(t *testing.T) {
	x := sine(440, 48000, 48000, 0.5)
	if f := Frequency(x, 48000); math.Abs(f-440) > 0.01 {
		t.Errorf("Frequency = %.4f, want 440", f)
	}
	if p := Peak(x); math.Abs(p-0.5) > 1e-3 {
		t.Errorf("Peak = %.5f, want 0.5", p)
	}
	if r := RMS(x); math.Abs(r-0.5/math.Sqrt2) > 1e-3 {
		t.Errorf("RMS = %.5f, want %.5f", r, 0.5/math.Sqrt2)
	}
	// The largest step of a sine is amp * 2π f / rate.
	if s, want := MaxStep(x), 0.5*2*math.Pi*440/48000; math.Abs(s-want) > 1e-4 {
		t.Errorf("MaxStep = %.6f, want %.6f", s, want)
	}
}

func TestDegenerateInputs(t *testing.T) {
	if f := Frequency([]float32{0.1, 0.2, 0.3}, 48000); f != 0 {
		t.Errorf("Frequency of a ramp = %v, want 0", f)
	}
	if r := RMS(nil); r != 0 {
		t.Errorf("RMS(nil) = %v, want 0", r)
	}
	if s := MaxStep([]float32{1}); s != 0 {
		t.Errorf("MaxStep of one sample = %v, want 0", s)
	}
}

func TestStereoDecodesInterleavedFrames(t *testing.T) {
	b := make([]byte, 2*8+3) // two frames and a partial one
	for i, v := range []float32{0.25, -0.5, 1, -1} {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	l, r := Stereo(b)
	if len(l) != 2 || l[0] != 0.25 || r[0] != -0.5 || l[1] != 1 || r[1] != -1 {
		t.Errorf("Stereo = %v %v", l, r)
	}
}

// TestFitTone fits a tone under a second, quieter one plus an offset: the
// fit reads the first tone's amplitude, the residual holds the second
// (its THD+N is their level ratio), and fitting the residual at the
// second's frequency reads its amplitude. These are the measures of the
// resampler's THD+N and images.
func TestFitTone(t *testing.T) {
	const rate = 48000
	x := sine(1000, rate, rate, 0.5)
	img := sine(12050, rate, rate, 0.5e-4) // -80 dB
	for i := range x {
		x[i] += img[i] + 0.01
	}
	ft := FitTone(x, 1000, rate)
	if math.Abs(ft.Amp-0.5) > 1e-6 || math.Abs(ft.DC-0.01) > 1e-6 {
		t.Fatalf("amp %v dc %v, want 0.5 and 0.01", ft.Amp, ft.DC)
	}
	if got := ft.THDN(); math.Abs(got+80) > 0.1 {
		t.Errorf("THD+N %.2f dB, want -80", got)
	}
	if got := FitTone(Float32(ft.Residual), 12050, rate).Amp; math.Abs(got-0.5e-4) > 1e-7 {
		t.Errorf("image amplitude %v, want 5e-5", got)
	}
	if m, _ := ft.MaxResidual(); math.Abs(m-0.5e-4) > 1e-6 {
		t.Errorf("largest residual %v, want 5e-5", m)
	}
	// A click: one sample off by 0.001.
	x[30000] += 0.001
	if m, at := FitTone(x, 1000, rate).MaxResidual(); at != 30000 || m < 0.001 {
		t.Errorf("click found at %d (%v), want 30000", at, m)
	}
	if got := FitTone([]float32{1}, 1000, rate); got.Amp != 0 {
		t.Errorf("fit of one sample: %v", got.Amp)
	}
	if math.Abs(DB(0.1)+20) > 1e-12 {
		t.Errorf("DB(0.1) = %v", DB(0.1))
	}
}
