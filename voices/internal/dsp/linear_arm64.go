//go:build !steadyframe_scalar

package dsp

import "math/bits"

// The linear resamplers on NEON (linear_arm64.s), four outputs a pass.

//go:noescape
func resampleS16MonoNEON(out *Frame, src *byte, n int, p, step uint64, gl, gr float32)

//go:noescape
func resampleS16StereoNEON(out *Frame, src *byte, n int, p, step uint64, gl, gr float32)

//go:noescape
func resampleF32MonoNEON(out *Frame, src *byte, n int, p, step uint64, gl, gr float32)

//go:noescape
func resampleF32StereoNEON(out *Frame, src *byte, n int, p, step uint64, gl, gr float32)

// neonLinear is the NEON set's Kernels.linear, indexed by Kind.
var neonLinear = [4]func([]Frame, []byte, uint64, uint64, float32, float32){
	linearVec(resampleS16MonoNEON, resampleS16Mono, 2, s16Scale),
	linearVec(resampleS16StereoNEON, resampleS16Stereo, 4, s16Scale),
	linearVec(resampleF32MonoNEON, resampleF32Mono, 4, 1),
	linearVec(resampleF32StereoNEON, resampleF32Stereo, 8, 1),
}

// linearVec returns the NEON version of a linear resampler: the assembly
// loop vec over the run's multiple of 4 outputs, the scalar loop over
// the rest. fb is a source frame's bytes, scale what vec needs the gains
// multiplied by (s16Scale for 16-bit sources, 1 for float32: exact).
// The slice lengths are vec's only bounds: each output reads its
// position's frame and the next, and positions only grow, so it checks
// src holds the last output's two. A run whose positions would pass
// 2^64 goes to the scalar loop, which fails its bounds check.
func linearVec(vec func(out *Frame, src *byte, n int, p, step uint64, gl, gr float32), scalar func([]Frame, []byte, uint64, uint64, float32, float32), fb int, scale float32) func([]Frame, []byte, uint64, uint64, float32, float32) {
	return func(out []Frame, src []byte, p, step uint64, gl, gr float32) {
		n := len(out) &^ 3
		if n > 0 {
			hi, lo := bits.Mul64(uint64(n-1), step)
			last, carry := bits.Add64(lo, p, 0)
			if hi|carry != 0 {
				n = 0
			} else {
				_ = src[(int(last>>32)+2)*fb-1]
				vec(&out[0], &src[0], n, p, step, gl*scale, gr*scale)
			}
		}
		scalar(out[n:], src, p+uint64(n)*step, step, gl, gr)
	}
}
