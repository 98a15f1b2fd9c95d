package dsp

import (
	"math"
	"sync"
)

// interpBits sets an Interp's phases: 2^interpBits rows, and one more so
// that every position has a row on either side. With 512 the error of
// interpolating between rows lies below the filter's own stopband: a
// -6 dBFS 1 kHz tone from 44101 Hz keeps a THD+N under -100 dB
// (voices' TestSourceRates).
const (
	interpBits   = 9
	interpPhases = 1 << interpBits
)

// Interp is the band-limited resampler for any pair of rates: the
// windowed sinc of SincTable (the same taps, cutoff and Kaiser window)
// sampled at interpPhases+1 evenly spaced delays, the coefficients of a
// delay between two of them interpolated linearly. Positions are 32.32
// fixed point, so a rate is kept to within 2^-32 of a frame per device
// frame. It serves the rates whose exact ratio would need a SincTable of
// more than maxSincPhases rows (Exact). Filter is scalar Go; the pitched
// voices' Kernels.FilterSteps has vector kernels. Each product is
// rounded to float32 before it is added (the explicit conversions stop
// Go from fusing a multiply-add), so its bits are the same on every CPU.
// An Interp is immutable, shared by every engine of the process with the
// same pair of rates (InterpFor), read by the audio goroutines only.
type Interp struct {
	taps int // filter length in source frames: a multiple of 8
	half int // source frames the filter reads before the position's own
	// coef holds a row of taps coefficients per phase, and one more (the
	// delay of a whole frame). A table of each phase's differences to
	// the next would spare a subtraction a tap: no faster in the mix
	// (docs/kernels.md), at twice the memory.
	coef []float32
}

// Taps returns the filter's length in source frames.
func (t *Interp) Taps() int { return t.taps }

// Half returns how many source frames the filter reads before the
// position's own frame: Taps()/2 - 1.
func (t *Interp) Half() int { return t.half }

var interps struct {
	mu sync.Mutex
	m  map[[2]int]*Interp
}

// InterpFor returns the shared Interp from rate src to rate dev, building
// it on first use: 513 rows of 48 taps when upsampling, more taps when
// downsampling (192 from 192 kHz to 48 kHz), 98 KB to 394 KB.
func InterpFor(src, dev int) *Interp {
	interps.mu.Lock()
	defer interps.mu.Unlock()
	key := [2]int{src, dev}
	if t := interps.m[key]; t != nil {
		return t
	}
	if interps.m == nil {
		interps.m = map[[2]int]*Interp{}
	}
	t := newInterp(max(1, float64(src)/float64(dev)))
	interps.m[key] = t
	return t
}

// newInterp builds an Interp for ratio source frames per output frame (at
// least 1): sincTaps×ratio taps, rounded up to a multiple of 8, with the
// cutoff divided by ratio.
func newInterp(ratio float64) *Interp {
	return newInterpTaps(ratio, int(math.Ceil(sincTaps*ratio/8))*8)
}

// newInterpTaps is newInterp with a filter of K taps.
func newInterpTaps(ratio float64, K int) *Interp {
	t := &Interp{taps: K, half: K/2 - 1, coef: make([]float32, (interpPhases+1)*K)}
	row := make([]float64, K)
	for ph := 0; ph <= interpPhases; ph++ {
		sincRow(row, float64(ph)/interpPhases, t.half, sincCutoff/ratio)
		for k, c := range row {
			t.coef[ph*K+k] = float32(c)
		}
	}
	return t
}

// sincRow fills row with the windowed sinc at the delay frac past the
// position's frame, for a filter of len(row) taps reading half frames
// before it (tap k reads the frame that lies u = frac + half - k frames
// before the output instant), with cutoff fc in cycles per source frame, scaled so that
// the row's gain at DC is exactly 1.
func sincRow(row []float64, frac float64, half int, fc float64) {
	K := len(row)
	i0b := besselI0(sincBeta)
	sum := 0.0
	for k := range row {
		u := frac + float64(half-k)
		x := u / (float64(K) / 2)
		w := 0.0
		if x*x < 1 {
			w = besselI0(sincBeta*math.Sqrt(1-float64(x*x))) / i0b // unfused, as everywhere (kernels.md)
		}
		s := 2 * fc
		if u != 0 {
			s = math.Sin(2*math.Pi*fc*u) / (math.Pi * u)
		}
		row[k] = float64(s * w)
		sum += row[k]
	}
	// Each phase's gain at DC is exactly 1: otherwise the gain would
	// wobble from frame to frame by the window's ripple, which is noise
	// on a steady tone.
	for k := range row {
		row[k] /= sum
	}
}

// Filter adds len(out) outputs of t, filtered from the converted planes l
// and r (stereo), times the gains gl and gr, into out, and returns the
// position after the last one. Output i lies at the 32.32 position p +
// i×step, counted from l[0]: its window is the taps frames from the
// position's whole part, and its fraction picks the coefficients. l and
// r must hold every frame the windows read.
func (t *Interp) Filter(out []Frame, l, r []float32, p, step uint64, gl, gr float32) uint64 {
	for i := range out {
		sl, sr := t.at(l, r, p)
		out[i][0] += float32(sl * gl)
		out[i][1] += float32(sr * gr)
		p += step
	}
	return p
}

// at returns the filter's stereo output at the 32.32 position p, counted
// from l[0] and r[0].
func (t *Interp) at(l, r []float32, p uint64) (sl, sr float32) {
	c0, c1, w, j := t.rows(p)
	K := len(c0)
	wl := l[j : j+K : j+K]
	wr := r[j : j+K : j+K]
	c1, wl, wr = c1[:K], wl[:K], wr[:K] // one bounds check, not one a tap
	for k := range c0 {
		c := c0[k] + float32(w*float32(c1[k]-c0[k]))
		sl += float32(c * wl[k])
		sr += float32(c * wr[k])
	}
	return sl, sr
}
