//go:build (amd64 || arm64) && !steadyframe_scalar

package dsp

// unityVec returns the vector version of a unity-rate loop: the assembly
// loop vec (AVX2 on amd64, NEON on arm64) over the run's multiple of 8
// frames, the scalar loop over the rest. fb is a source frame's bytes,
// scale what vec needs the gains multiplied by (s16Scale for 16-bit
// sources, 1 for float32: exact). The slice lengths are vec's only
// bounds, so it checks src holds the run before passing pointers on.
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
