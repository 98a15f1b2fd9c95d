//go:build !steadyframe_scalar

package dsp

// The unity-rate mixers on NEON (mix_arm64.s), eight frames a pass.

//go:noescape
func mixS16MonoNEON(out *Frame, src *byte, n int, gl, gr float32)

//go:noescape
func mixS16StereoNEON(out *Frame, src *byte, n int, gl, gr float32)

//go:noescape
func mixF32MonoNEON(out *Frame, src *byte, n int, gl, gr float32)

//go:noescape
func mixF32StereoNEON(out *Frame, src *byte, n int, gl, gr float32)

// neonMix is the NEON set's Kernels.mix, indexed by Kind.
var neonMix = [4]func([]Frame, []byte, float32, float32){
	unityVec(mixS16MonoNEON, mixS16Mono, 2, s16Scale),
	unityVec(mixS16StereoNEON, mixS16Stereo, 4, s16Scale),
	unityVec(mixF32MonoNEON, mixF32Mono, 4, 1),
	unityVec(mixF32StereoNEON, mixF32Stereo, 8, 1),
}

// unityVec returns the NEON version of a unity-rate loop: the assembly
// loop vec over the run's multiple of 8 frames, the scalar loop over the
// rest. fb is a source frame's bytes, scale what vec needs the gains
// multiplied by (s16Scale for 16-bit sources, 1 for float32: exact). The
// slice lengths are vec's only bounds, so it checks src holds the run
// before passing pointers on.
func unityVec(vec func(out *Frame, src *byte, n int, gl, gr float32), scalar func([]Frame, []byte, float32, float32), fb int, scale float32) func([]Frame, []byte, float32, float32) {
	return func(out []Frame, src []byte, gl, gr float32) {
		if len(out) < 8 {
			scalar(out, src, gl, gr)
			return
		}
		_ = src[len(out)*fb-1]
		n := len(out) &^ 7
		vec(&out[0], &src[0], n, gl*scale, gr*scale)
		scalar(out[n:], src[fb*n:], gl, gr)
	}
}
