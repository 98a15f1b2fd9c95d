// Package pcmcheck measures audio the way the audio tests judge it. It
// decodes the device's float32 LE stereo bytes. It estimates a tone's
// frequency, peak and RMS level, and the largest sample-to-sample jump (a
// click). It fits a sine of known frequency by least squares to read its
// level, and what is left once it is subtracted: THD+N, images, clicks.
// voices' unit tests and otodev's capture tests share it, so both judge
// sound by the same rules.
//
// # Ownership
//
// Every function is pure and safe from any goroutine.
//
// # Lifetime
//
// Stereo, FitTone (its Residual) and Float32 return new slices the caller
// owns. Nothing is retained.
package pcmcheck

import (
	"encoding/binary"
	"math"
)

// Stereo decodes float32 LE interleaved stereo bytes into left and right.
// A trailing partial frame is ignored.
func Stereo(b []byte) (l, r []float32) {
	n := len(b) / 8
	l, r = make([]float32, n), make([]float32, n)
	for i := 0; i < n; i++ {
		l[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[i*8:]))
		r[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[i*8+4:]))
	}
	return l, r
}

// Frequency estimates x's frequency at rate from its rising zero
// crossings, interpolated to sub-sample precision. It returns 0 when x
// has fewer than two rising crossings.
func Frequency(x []float32, rate int) float64 {
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

// Peak returns the largest absolute sample of x.
func Peak(x []float32) float64 {
	p := 0.0
	for _, v := range x {
		p = math.Max(p, math.Abs(float64(v)))
	}
	return p
}

// RMS returns the root mean square of x, or 0 for an empty x.
func RMS(x []float32) float64 {
	if len(x) == 0 {
		return 0
	}
	s := 0.0
	for _, v := range x {
		s += float64(v) * float64(v)
	}
	return math.Sqrt(s / float64(len(x)))
}

// MaxStep returns the largest jump between consecutive samples of x.
func MaxStep(x []float32) float64 {
	m := 0.0
	for i := 1; i < len(x); i++ {
		m = math.Max(m, math.Abs(float64(x[i]-x[i-1])))
	}
	return m
}

// Tone is a sine of known frequency fitted to a signal by least squares
// (with a DC term): its amplitude, and the signal with it subtracted.
type Tone struct {
	Freq     float64
	Amp      float64   // peak amplitude of the fitted sine
	DC       float64   // the fitted offset
	Residual []float64 // the signal less the fitted sine and offset
}

// FitTone fits a sine of freq Hz (and an offset) to x sampled at rate.
// The fit is exact for any length and phase, and another tone in x
// leaves the fit all but unchanged over a few hundred periods.
func FitTone(x []float32, freq float64, rate int) Tone {
	// Normal equations of x ≈ a·sin + b·cos + c.
	var m [3][3]float64
	var v [3]float64
	w := 2 * math.Pi * freq / float64(rate)
	for i, s := range x {
		sn, cs := math.Sincos(w * float64(i))
		r := [3]float64{sn, cs, 1}
		for p := range r {
			v[p] += r[p] * float64(s)
			for q := range r {
				m[p][q] += r[p] * r[q]
			}
		}
	}
	c := solve3(m, v)
	t := Tone{Freq: freq, Amp: math.Hypot(c[0], c[1]), DC: c[2], Residual: make([]float64, len(x))}
	for i, s := range x {
		sn, cs := math.Sincos(w * float64(i))
		t.Residual[i] = float64(s) - (c[0]*sn + c[1]*cs + c[2])
	}
	return t
}

// solve3 solves m·x = v by Gaussian elimination with partial pivoting.
// A singular m (a signal too short to tell the terms apart) gives zeros.
func solve3(m [3][3]float64, v [3]float64) [3]float64 {
	for col := 0; col < 3; col++ {
		p := col
		for r := col + 1; r < 3; r++ {
			if math.Abs(m[r][col]) > math.Abs(m[p][col]) {
				p = r
			}
		}
		if m[p][col] == 0 {
			return [3]float64{}
		}
		m[col], m[p] = m[p], m[col]
		v[col], v[p] = v[p], v[col]
		for r := col + 1; r < 3; r++ {
			f := m[r][col] / m[col][col]
			for c := col; c < 3; c++ {
				m[r][c] -= f * m[col][c]
			}
			v[r] -= f * v[col]
		}
	}
	var x [3]float64
	for r := 2; r >= 0; r-- {
		s := v[r]
		for c := r + 1; c < 3; c++ {
			s -= m[r][c] * x[c]
		}
		x[r] = s / m[r][r]
	}
	return x
}

// THDN returns the total harmonic distortion plus noise in dB: the RMS of
// the residual (everything but the tone and the offset: harmonics,
// images, aliases, noise) over the tone's RMS.
func (t Tone) THDN() float64 {
	s := 0.0
	for _, r := range t.Residual {
		s += r * r
	}
	return DB(math.Sqrt(s/float64(len(t.Residual))) / (t.Amp / math.Sqrt2))
}

// MaxResidual returns the largest absolute residual sample and its index:
// a click shows as a spike here long before it shows in THD+N.
func (t Tone) MaxResidual() (float64, int) {
	m, at := 0.0, 0
	for i, r := range t.Residual {
		if a := math.Abs(r); a > m {
			m, at = a, i
		}
	}
	return m, at
}

// DB returns ratio in decibels; 0 gives -Inf.
func DB(ratio float64) float64 { return 20 * math.Log10(ratio) }

// Float32 converts x, such as a Tone's Residual, for the other measures.
func Float32(x []float64) []float32 {
	y := make([]float32, len(x))
	for i, v := range x {
		y[i] = float32(v)
	}
	return y
}
