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
