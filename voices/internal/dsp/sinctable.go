package dsp

import (
	"fmt"
	"math"
	"sync"
	"unsafe"
)

// The sinc filter's design, checked by voices' TestSincQuality. The numbers came
// from a search over taps, cutoff and Kaiser β for the fewest taps that
// meet the targets from a 22050 Hz source (the hardest ratio: the least
// room between 10 kHz and its first image at 12.05 kHz): 40 taps reach at
// best 72 dB of stopband, 48 reach 88, 56 reach 105 for 17% more work.
const (
	// sincTaps is the filter length in source frames when upsampling; a
	// multiple of 8, the vector kernels' width.
	sincTaps = 48
	// sincCutoff is the -6 dB point as a fraction of the lower of the
	// two rates: a little under half (Nyquist), so the transition band
	// lies mostly above 10 kHz for a 22050 Hz source and the first image
	// falls in the stopband.
	sincCutoff = 0.4875
	// sincBeta is the Kaiser window's shape.
	sincBeta = 8.75
)

// SincTable is a polyphase filter for one source rate to one device rate:
// the immutable coefficients, shared by every engine of the process with
// the same pair of rates (TableFor), read by the audio goroutines
// only.
//
// The ratio of the rates is exact. A device frame advances the source
// position by stepInt + stepNum/phases frames. The fraction of the
// position is a phase, a whole number of 1/phases. So each device frame
// takes the filter at its exact delay. No phase is rounded and the
// position never drifts. A 22050 Hz source on a 48 kHz device has 320
// phases, 44100 Hz 160; the most, 1280, are for 11025 Hz to 96 kHz. For
// the vector group kernels (sincGroups) the phases of an upsampling
// table are counted up to a multiple of 16 (8 kHz to 48 kHz: 48 rather
// than 6, each row 8 times), which changes no coefficient.
//
// Consecutive device frames visit the phases in a fixed cycle: phase
// s·stepNum mod phases at the s-th frame, since stepNum and phases are
// coprime. The rows are stored in that order. A voice keeps its place s
// in the cycle (its seq), and each output reads the row after the last
// one. So the coefficients stream through the cache in order instead of
// jumping 147 rows at a time (22050 Hz). Jumping left the vector
// kernels waiting on the L2 cache once the tables outgrew the L1.
type SincTable struct {
	taps    int // filter length in source frames: a multiple of 8
	half    int // source frames the filter reads before the position's own: taps/2 - 1
	phases  uint32
	stepInt uint32
	stepNum uint32
	coef    []float32 // phases rows of taps coefficients, in visiting order
	adv     []uint32  // source frames the position advances after each row

	// grp is the filter laid out for the vector kernels' groups, or nil
	// (see sincGroups).
	grp *sincGroups
}

// sincGroups is an upsampling filter laid out for the vector kernels,
// which compute 16 consecutive outputs at once, one per lane (8 with
// AVX2 alone). Upsampling, the 16 outputs' windows start at most 15
// frames apart, so together they read at most terms consecutive source
// frames: for each of those frames, the kernel broadcasts its sample to
// every lane and multiplies it by the frame's coefficient for each
// output (the tap it is in that output's window, or 0 outside it), so a
// sample is loaded once for all 16 outputs, and no lane waits on a
// permute. A dot product per lane needs no horizontal sum: the lanes are
// the outputs.
//
// Groups start at rows that are multiples of 16 (the table's cycle of
// rows is one: newSincTable repeats the phases up to a multiple of 16),
// so that the coefficient loads are aligned: a run starting at another
// row begins with a group whose first lanes are masked off.
type sincGroups struct {
	// terms is how many source frames a group reads, counted from its
	// output 0's window start: 48 taps and the last output's lane offset,
	// rounded up to 56 or 64.
	terms int
	// coef[(g*terms+m)*16+i] is the coefficient of frame m for output i
	// of group g: tap m-lane[16g+i] of row 16g+i, or 0 outside that
	// window. 64-byte aligned.
	coef []float32
	// lane[16g+i] is how many source frames output i of group g starts
	// after output 0 of the group: 0 to 15.
	lane []int32
	// adv[g] is how many source frames the window moves on after group
	// g's 16 outputs; there are phases/16 groups.
	adv []uint32
}

// maxSincCols bounds a group layout's cycle: rates whose phases cycle
// longer (16 or 32 kHz to a 44.1 kHz device: 7056 rows) keep the
// per-output kernels rather than a table of a megabyte or more.
const maxSincCols = 2048

// row returns the coefficients of the seq-th phase of the cycle.
func (t *SincTable) row(seq uint32) []float32 {
	i := int(seq) * t.taps
	return t.coef[i : i+t.taps : i+t.taps]
}

// phase returns the phase (in 1/phases of a frame) of the seq-th row.
func (t *SincTable) phase(seq uint32) uint32 {
	return uint32(uint64(seq) * uint64(t.stepNum) % uint64(t.phases))
}

// Fraction returns the fraction of a frame, num/den, at which the
// position of row seq lies past its whole frame.
func (t *SincTable) Fraction(seq uint32) (num, den uint32) { return t.phase(seq), t.phases }

// Taps returns the filter's length in source frames: a multiple of 8.
func (t *SincTable) Taps() int { return t.taps }

// Half returns how many source frames the filter reads before the
// position's own frame: Taps()/2 - 1.
func (t *SincTable) Half() int { return t.half }

// Advance moves the rational position (frame k, row seq) on by n device
// frames.
func (t *SincTable) Advance(k int, seq uint32, n int) (int, uint32) { return t.advance(k, seq, n) }

// OutputsUpTo returns how many consecutive device frames, from the
// position (frame k, row seq) on, lie in frames up to last (k <= last).
func (t *SincTable) OutputsUpTo(k int, seq uint32, last int) int { return t.outputsUpTo(k, seq, last) }

// Step1 is Advance by one frame, from the table, without dividing.
func (t *SincTable) Step1(k int, seq uint32) (int, uint32) { return t.step1(k, seq) }

// advance moves the rational position (frame k, row seq) on by n device
// frames.
func (t *SincTable) advance(k int, seq uint32, n int) (int, uint32) {
	p := uint64(t.phase(seq)) + uint64(n)*uint64(t.stepNum)
	return k + n*int(t.stepInt) + int(p/uint64(t.phases)), uint32((uint64(seq) + uint64(n)) % uint64(t.phases))
}

// outputsUpTo returns how many consecutive device frames, from the
// position (frame k, row seq) on, lie in frames up to last (k <= last).
// It counts in 1/phases of a frame, so exactly.
func (t *SincTable) outputsUpTo(k int, seq uint32, last int) int {
	at := uint64(k)*uint64(t.phases) + uint64(t.phase(seq))
	step := uint64(t.stepInt)*uint64(t.phases) + uint64(t.stepNum)
	return int((uint64(last+1)*uint64(t.phases)-1-at)/step) + 1
}

// step1 is advance by one frame, from the table, without dividing: the
// path of every frame at a seam (voices' sincEdges).
func (t *SincTable) step1(k int, seq uint32) (int, uint32) {
	k += int(t.adv[seq])
	if seq++; seq == t.phases {
		seq = 0
	}
	return k, seq
}

// sincTables caches the tables built so far, one per pair of rates: an
// engine builds what it lacks in NewEngine, never in the mix.
var sincTables struct {
	mu sync.Mutex
	m  map[[2]int]*SincTable
}

// TableFor returns the table from rate src to rate dev, building it on
// first use; any goroutine may call it. Build tables before the mix
// starts: the first call for a pair of rates allocates and computes.
func TableFor(src, dev int) *SincTable {
	sincTables.mu.Lock()
	defer sincTables.mu.Unlock()
	key := [2]int{src, dev}
	if t := sincTables.m[key]; t != nil {
		return t
	}
	if sincTables.m == nil {
		sincTables.m = map[[2]int]*SincTable{}
	}
	t := newSincTable(src, dev)
	sincTables.m[key] = t
	return t
}

// maxSincPhases bounds a table's phases. A pair of rates whose exact
// ratio needs more (44101 Hz to 48 kHz needs 48000 rows, 9 MB) takes an
// Interp instead. Every rate of voices' default formats, and every rate
// whose greatest common divisor with a 48 kHz device is 12 or more (such
// as 12000, 24000 or 37800 Hz), gets a table: at most 4000 rows there.
const maxSincPhases = 4096

// Exact reports whether the rates src and dev have a SincTable: whether
// their exact ratio needs at most maxSincPhases phases. The others take
// an Interp.
func Exact(src, dev int) bool { return dev/gcd(src, dev) <= maxSincPhases }

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// newSincTable designs the filter from rate src to rate dev. Downsampling
// by r scales the cutoff by 1/r, to the device's Nyquist frequency, and
// the length by r, to keep the transition band as narrow.
func newSincTable(src, dev int) *SincTable {
	if !Exact(src, dev) {
		panic(fmt.Sprintf("dsp: a table from %d to %d Hz would need %d phases (an Interp's rates)", src, dev, dev/gcd(src, dev)))
	}
	g := gcd(src, dev)
	L, M := dev/g, src/g
	ratio := max(1, float64(src)/float64(dev))
	K := int(math.Ceil(sincTaps*ratio/8)) * 8
	// For the group kernels the cycle of rows is a multiple of 16 (the
	// phases' rows repeated): a voice's place in it then decides which
	// lane of which group each of its outputs is, and so the order of its
	// sums (sincDotGroup), whatever block a run starts in.
	if cols := L * 16 / gcd(L, 16); M < L && K == sincTaps && cols <= maxSincCols {
		L, M = cols, M*(cols/L)
	}
	fc := sincCutoff / ratio // cycles per source frame
	t := &SincTable{
		taps: K, half: K/2 - 1, phases: uint32(L),
		stepInt: uint32(M / L), stepNum: uint32(M % L),
		coef: make([]float32, L*K), adv: make([]uint32, L),
	}
	row := make([]float64, K)
	for seq := 0; seq < L; seq++ {
		// Tap k reads source frame (position's frame) - half + k (sincRow).
		ph := int(t.phase(uint32(seq)))
		t.adv[seq] = uint32((ph + M) / L)
		sincRow(row, float64(ph)/float64(L), t.half, fc)
		for k, c := range row {
			t.coef[seq*K+k] = float32(c)
		}
	}
	t.grp = newSincGroups(t)
	return t
}

// newSincGroups lays t out for the vector kernels' groups, or returns nil
// when t downsamples (16 outputs may then span more than 16 frames, and
// the filter is longer than 48 taps) or its cycle is longer than
// maxSincCols.
func newSincGroups(t *SincTable) *sincGroups {
	P := int(t.phases)
	if t.stepInt != 0 || t.taps != sincTaps || P%16 != 0 {
		return nil // the group kernels are written for 48 taps
	}
	G, K := P/16, t.taps
	g := &sincGroups{lane: make([]int32, P), adv: make([]uint32, G)}
	maxLane := 0
	for gi := range G {
		d := 0
		for i := range 16 {
			row := 16*gi + i
			g.lane[row] = int32(d)
			maxLane = max(maxLane, d)
			d += int(t.adv[row])
		}
		g.adv[gi] = uint32(d)
	}
	g.terms = 64
	if maxLane+K <= 56 {
		g.terms = 56
	}
	// Align the coefficients to 64 bytes: the slice is cut from a larger
	// one at the first aligned float.
	n := G * g.terms * 16
	buf := make([]float32, n+16)
	off := int(-uintptr(unsafe.Pointer(&buf[0])) & 63 / 4)
	g.coef = buf[off : off+n : off+n]
	for gi := range G {
		for i := range 16 {
			row := 16*gi + i
			d := int(g.lane[row])
			for k := range K {
				g.coef[(gi*g.terms+d+k)*16+i] = t.coef[row*K+k]
			}
		}
	}
	return g
}

// besselI0 is the modified Bessel function of the first kind, order 0,
// by its power series (converges quickly for the window's arguments).
func besselI0(x float64) float64 {
	s, term := 1.0, 1.0
	for k := 1; k < 500; k++ {
		h := x / (2 * float64(k))
		term *= float64(h * h)
		s += float64(term)
		if term < 1e-17*s {
			break
		}
	}
	return s
}
