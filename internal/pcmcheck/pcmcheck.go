// Package pcmcheck measures audio the way the audio tests judge it:
// decode the device's float32 LE stereo bytes, then estimate a tone's
// frequency, peak and RMS level, and the largest sample-to-sample jump (a
// click). voices' unit tests and otodev's capture tests share it, so both
// judge sound by the same rules.
//
// # Ownership
//
// Every function is pure and safe from any goroutine.
//
// # Lifetime
//
// Stereo returns new slices the caller owns; nothing is retained.
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
