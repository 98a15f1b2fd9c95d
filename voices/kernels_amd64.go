//go:build !steadyframe_scalar

package voices

import "golang.org/x/sys/cpu"

// The vector kernels (kernels_amd64.s) need AVX2 (gathers, 256-bit
// integer converts and permutes). They multiply and add separately, as
// the scalar loops do, rather than fuse: each result is rounded as the
// scalar code rounds it, so the unity-rate, f32 linear and every sinc
// kernel give the same bits as the scalar one on any input, NaN and
// infinities included (TestVectorKernelsMatchScalar); only the s16
// linear resamplers, which interpolate in floats where the scalar ones
// use integers, differ, by a rounding (under 1e-7). AVX-512 was not used:
// at 1024-frame blocks the sinc kernels are bound by loads and the
// conversion of s16 samples, not by the vector width.
var hasAVX2 = cpu.X86.HasAVX2

// vectorKernels are the AVX2 kernels, nil where the CPU lacks AVX2.
var vectorKernels = func() *kernelSet {
	if !hasAVX2 {
		return nil
	}
	return &kernelSet{
		name:   "avx2",
		mix:    [4]func([]frame, []byte, float32, float32){mixS16MonoVec, mixS16StereoVec, mixF32MonoVec, mixF32StereoVec},
		linear: [4]func([]frame, []byte, uint64, uint64, float32, float32){resampleS16MonoVec, resampleS16StereoVec, resampleF32MonoVec, resampleF32StereoVec},
		sinc:   [4]func([]frame, []byte, *sincTable, uint32, float32, float32){sincS16MonoVec, sincS16StereoVec, sincF32MonoVec, sincF32StereoVec},
	}
}()

// bestKernels returns the fastest kernels this build has for this CPU.
func bestKernels() *kernelSet {
	if vectorKernels != nil {
		return vectorKernels
	}
	return &scalarKernels
}

// The assembly loops take a multiple of 8 frames; each wrapper runs them
// over as many as it can and the scalar loop over the rest. The slices'
// lengths are the loops' only bounds, so each wrapper checks src holds
// what its run reads before it passes pointers on.

//go:noescape
func mixS16MonoAVX2(out *frame, src *byte, n int, gl, gr float32)

//go:noescape
func mixS16StereoAVX2(out *frame, src *byte, n int, gl, gr float32)

//go:noescape
func mixF32MonoAVX2(out *frame, src *byte, n int, gl, gr float32)

//go:noescape
func mixF32StereoAVX2(out *frame, src *byte, n int, gl, gr float32)

// unityRun checks src holds n frames of fb bytes and returns the vector
// part of n.
func unityRun(n int, src []byte, fb int) int {
	_ = src[n*fb-1]
	return n &^ 7
}

func mixS16MonoVec(out []frame, src []byte, gl, gr float32) {
	if len(out) < 8 {
		mixS16Mono(out, src, gl, gr)
		return
	}
	n := unityRun(len(out), src, 2)
	mixS16MonoAVX2(&out[0], &src[0], n, gl*s16Scale, gr*s16Scale)
	mixS16Mono(out[n:], src[2*n:], gl, gr)
}

func mixS16StereoVec(out []frame, src []byte, gl, gr float32) {
	if len(out) < 8 {
		mixS16Stereo(out, src, gl, gr)
		return
	}
	n := unityRun(len(out), src, 4)
	mixS16StereoAVX2(&out[0], &src[0], n, gl*s16Scale, gr*s16Scale)
	mixS16Stereo(out[n:], src[4*n:], gl, gr)
}

func mixF32MonoVec(out []frame, src []byte, gl, gr float32) {
	if len(out) < 8 {
		mixF32Mono(out, src, gl, gr)
		return
	}
	n := unityRun(len(out), src, 4)
	mixF32MonoAVX2(&out[0], &src[0], n, gl, gr)
	mixF32Mono(out[n:], src[4*n:], gl, gr)
}

func mixF32StereoVec(out []frame, src []byte, gl, gr float32) {
	if len(out) < 8 {
		mixF32Stereo(out, src, gl, gr)
		return
	}
	n := unityRun(len(out), src, 8)
	mixF32StereoAVX2(&out[0], &src[0], n, gl, gr)
	mixF32Stereo(out[n:], src[8*n:], gl, gr)
}

//go:noescape
func resampleS16MonoAVX2(out *frame, src *byte, n int, pos *[8]uint64, step8 uint64, gl, gr float32)

//go:noescape
func resampleS16StereoAVX2(out *frame, src *byte, n int, pos *[8]uint64, step8 uint64, gl, gr float32)

//go:noescape
func resampleF32MonoAVX2(out *frame, src *byte, n int, pos *[8]uint64, step8 uint64, gl, gr float32)

//go:noescape
func resampleF32StereoAVX2(out *frame, src *byte, n int, pos *[8]uint64, step8 uint64, gl, gr float32)

// linearRun checks src holds every frame the first n&^7 outputs from
// position p read (the last one's frame and the next), and returns that
// count and the positions of its first eight outputs. The gathers index
// frames with 32-bit signed lanes, so a run is also cut short of 2^31
// bytes.
func linearRun(n int, src []byte, p, step uint64, fb int) (int, [8]uint64) {
	n &^= 7
	var pos [8]uint64
	if n == 0 {
		return 0, pos
	}
	for k := range pos {
		pos[k] = p + uint64(k)*step
	}
	last := int((p+uint64(n-1)*step)>>32) + 1
	if last >= 1<<31/fb {
		return 0, pos
	}
	_ = src[(last+1)*fb-1]
	return n, pos
}

func resampleS16MonoVec(out []frame, src []byte, p, step uint64, gl, gr float32) {
	n, pos := linearRun(len(out), src, p, step, 2)
	if n > 0 {
		resampleS16MonoAVX2(&out[0], &src[0], n, &pos, 8*step, gl*s16Scale, gr*s16Scale)
	}
	resampleS16Mono(out[n:], src, p+uint64(n)*step, step, gl, gr)
}

func resampleS16StereoVec(out []frame, src []byte, p, step uint64, gl, gr float32) {
	n, pos := linearRun(len(out), src, p, step, 4)
	if n > 0 {
		resampleS16StereoAVX2(&out[0], &src[0], n, &pos, 8*step, gl*s16Scale, gr*s16Scale)
	}
	resampleS16Stereo(out[n:], src, p+uint64(n)*step, step, gl, gr)
}

func resampleF32MonoVec(out []frame, src []byte, p, step uint64, gl, gr float32) {
	n, pos := linearRun(len(out), src, p, step, 4)
	if n > 0 {
		resampleF32MonoAVX2(&out[0], &src[0], n, &pos, 8*step, gl, gr)
	}
	resampleF32Mono(out[n:], src, p+uint64(n)*step, step, gl, gr)
}

func resampleF32StereoVec(out []frame, src []byte, p, step uint64, gl, gr float32) {
	n, pos := linearRun(len(out), src, p, step, 8)
	if n > 0 {
		resampleF32StereoAVX2(&out[0], &src[0], n, &pos, 8*step, gl, gr)
	}
	resampleF32Stereo(out[n:], src, p+uint64(n)*step, step, gl, gr)
}

//go:noescape
func sincS16MonoAVX2(out *frame, n int, src *byte, coef *float32, taps int, phase, phases, stepInt, stepNum uint32, gl, gr, bound float32)

//go:noescape
func sincS16StereoAVX2(out *frame, n int, src *byte, coef *float32, taps int, phase, phases, stepInt, stepNum uint32, gl, gr, bound float32)

//go:noescape
func sincF32MonoAVX2(out *frame, n int, src *byte, coef *float32, taps int, phase, phases, stepInt, stepNum uint32, gl, gr, bound float32)

//go:noescape
func sincF32StereoAVX2(out *frame, n int, src *byte, coef *float32, taps int, phase, phases, stepInt, stepNum uint32, gl, gr, bound float32)

// sincRun checks src holds every window of n outputs from phase on.
func sincRun(n int, src []byte, t *sincTable, phase uint32, fb int) {
	k, _ := t.advance(0, phase, n-1)
	_ = src[(k+t.taps)*fb-1]
}

func sincS16MonoVec(out []frame, src []byte, t *sincTable, phase uint32, gl, gr float32) {
	if len(out) == 0 {
		return
	}
	sincRun(len(out), src, t, phase, 2)
	sincS16MonoAVX2(&out[0], len(out), &src[0], &t.coef[0], t.taps, phase, t.phases, t.stepInt, t.stepNum, gl*s16Scale, gr*s16Scale, t.bound)
}

func sincS16StereoVec(out []frame, src []byte, t *sincTable, phase uint32, gl, gr float32) {
	if len(out) == 0 {
		return
	}
	sincRun(len(out), src, t, phase, 4)
	sincS16StereoAVX2(&out[0], len(out), &src[0], &t.coef[0], t.taps, phase, t.phases, t.stepInt, t.stepNum, gl*s16Scale, gr*s16Scale, t.bound)
}

func sincF32MonoVec(out []frame, src []byte, t *sincTable, phase uint32, gl, gr float32) {
	if len(out) == 0 {
		return
	}
	sincRun(len(out), src, t, phase, 4)
	sincF32MonoAVX2(&out[0], len(out), &src[0], &t.coef[0], t.taps, phase, t.phases, t.stepInt, t.stepNum, gl, gr, t.bound)
}

func sincF32StereoVec(out []frame, src []byte, t *sincTable, phase uint32, gl, gr float32) {
	if len(out) == 0 {
		return
	}
	sincRun(len(out), src, t, phase, 8)
	sincF32StereoAVX2(&out[0], len(out), &src[0], &t.coef[0], t.taps, phase, t.phases, t.stepInt, t.stepNum, gl, gr, t.bound)
}
