//go:build !steadyframe_scalar

package dsp

// The unity-rate mixers on NEON (mix_arm64.s), eight frames a call's
// pass, through unityVec as on amd64.

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
