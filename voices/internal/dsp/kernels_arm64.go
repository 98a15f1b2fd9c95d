//go:build !steadyframe_scalar

package dsp

import "unsafe"

// On arm64 the sinc's group filter runs on NEON (kernels_arm64.s), a
// quarter of a group (four outputs) at a time, and so do the pitched
// filter (pitch_arm64.s), the unity-rate mixers (mix_arm64.s), the linear
// resamplers (linear_arm64.s) and the converters (split_arm64.s). The
// sinc's per-output kernels are the scalar ones. Every
// arm64 CPU has NEON (Advanced SIMD is part of ARMv8-A), so the set needs
// no feature check. The NEON kernels give the scalar kernels' bits
// (TestVectorKernelsMatchScalar, TestVectorPitchMatchesScalar and the
// edge tests of vector_edges_test.go under qemu-aarch64). How fast they run on real arm64 hardware is not
// measured here: scripts/kernel-insns.sh counts their instructions
// instead (docs/kernels.md).
var (
	neonKernels = &Kernels{
		name:    "neon",
		mix:     neonMix,
		linear:  neonLinear,
		convert: splitNEON,
		filter:  filterNEON,
		pitch:   filterStepsNEON,
		split:   splitNEON,
		deint:   deinterleaveScalar, // a copy: Go's loop, not measured for NEON
	}
	vectorSets = []*Kernels{neonKernels}
)

//go:noescape
func sincQuartersMonoNEON(out *Frame, nq int, x *float32, coef *float32, terms int, gains *[4]float32)

//go:noescape
func sincQuartersStereoNEON(out *Frame, nq int, x *float32, coef *float32, terms int, gains *[4]float32)

// filterNEON is filterScalar with the group layout's whole quarters on
// NEON: the outputs before the first quarter boundary and after the
// last whole quarter run through filterScalar, which sums them in the
// same order. A quarter reads its group's whole span, from the group's
// first window start: up to 15 frames before the run's first window and
// 15 past its last, in the planes' margins (see sincLead), always
// finite, and multiplied by zero coefficients.
func filterNEON(stereo bool, out []Frame, l, r []float32, t *SincTable, seq uint32, gl, gr float32) {
	g := t.grp
	if g == nil {
		filterScalar(stereo, out, l, r, t, seq, gl, gr)
		return
	}
	// The kernels are called directly, not through a function value: the
	// gains they take by pointer then stay on the stack.
	gains := [4]float32{gl, gr, gl, gr}
	j := 0 // the window start of out[0], in frames from l[0]
	for len(out) > 0 {
		if seq%4 != 0 || len(out) < 4 {
			filterScalar(stereo, out[:1], l[j:], r[j:], t, seq, gl, gr)
			j += int(t.adv[seq])
			if seq++; seq == t.phases {
				seq = 0
			}
			out = out[1:]
			continue
		}
		// Whole quarters to the end of this group or of out.
		gi, qi := seq/16, seq%16/4
		nq := min(int(4-qi), len(out)/4)
		start := j - int(g.lane[seq])
		x := (*float32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(l)), 4*start))
		c := &g.coef[int(gi)*g.terms*16+int(qi)*4]
		if stereo {
			sincQuartersStereoNEON(&out[0], nq, x, c, g.terms, &gains)
		} else {
			sincQuartersMonoNEON(&out[0], nq, x, c, g.terms, &gains)
		}
		if nq == 4 {
			// A whole group: its window moves on by g.adv[gi].
			j += int(g.adv[gi])
			if seq += 16; seq == t.phases {
				seq = 0
			}
		} else {
			for range 4 * nq {
				j += int(t.adv[seq])
				if seq++; seq == t.phases {
					seq = 0
				}
			}
		}
		out = out[4*nq:]
	}
}
