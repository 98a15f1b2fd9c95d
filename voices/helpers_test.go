package voices

import (
	"encoding/binary"
	"math"
	"testing"
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

// stereo decodes float32 LE stereo bytes into left and right.
func stereo(b []byte) (l, r []float32) {
	n := len(b) / 8
	l, r = make([]float32, n), make([]float32, n)
	for i := 0; i < n; i++ {
		l[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[i*8:]))
		r[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[i*8+4:]))
	}
	return l, r
}

// frequency estimates x's frequency at rate from its rising zero
// crossings, interpolated to sub-sample precision.
func frequency(x []float32, rate int) float64 {
	first, last, n := -1.0, -1.0, 0
	for i := 1; i < len(x); i++ {
		if x[i-1] < 0 && x[i] >= 0 {
			t := float64(i-1) + float64(-x[i-1])/float64(x[i]-x[i-1])
			if first < 0 {
				first = t
			}
			last = t
			n++
		}
	}
	if n < 2 {
		return 0
	}
	return float64(n-1) * float64(rate) / (last - first)
}

// peak and rms of x.
func peak(x []float32) float64 {
	p := 0.0
	for _, v := range x {
		p = math.Max(p, math.Abs(float64(v)))
	}
	return p
}

func rms(x []float32) float64 {
	s := 0.0
	for _, v := range x {
		s += float64(v) * float64(v)
	}
	return math.Sqrt(s / float64(len(x)))
}

// maxStep is the largest jump between consecutive samples of x.
func maxStep(x []float32) float64 {
	m := 0.0
	for i := 1; i < len(x); i++ {
		m = math.Max(m, math.Abs(float64(x[i]-x[i-1])))
	}
	return m
}

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
