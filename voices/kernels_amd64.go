//go:build !steadyframe_scalar

package voices

import (
	"encoding/binary"
	"math"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// The vector kernels (kernels_amd64.s) need AVX2 (gathers, 256-bit
// integer converts and permutes). They multiply and add separately, as
// the scalar loops do, rather than fuse: each result is rounded as the
// scalar code rounds it, so the unity-rate, f32 linear and every sinc
// kernel give the same bits as the scalar one on any input, NaN and
// infinities included (TestVectorKernelsMatchScalar); only the s16
// linear resamplers, which interpolate in floats where the scalar ones
// use integers, differ, by a rounding (under 1e-7). FMA would save about
// a sixth of the sinc's instructions at the price of that equality;
// AVX-512 kernels have not been written.
var hasAVX2 = cpu.X86.HasAVX2

// hasAVX512 selects the AVX-512 versions of the 48-tap sinc kernels,
// which give the same bits in half the multiplies and adds (a 16-lane
// chunk is two of the AVX2 kernels' 8-lane chunks side by side).
var hasAVX512 = cpu.X86.HasAVX512F

// vectorKernels are the AVX2 kernels, nil where the CPU lacks AVX2.
var vectorKernels = func() *kernelSet {
	if !hasAVX2 {
		return nil
	}
	return &kernelSet{
		name:   "avx2",
		mix:    [4]func([]frame, []byte, float32, float32){mixS16MonoVec, mixS16StereoVec, mixF32MonoVec, mixF32StereoVec},
		linear: [4]func([]frame, []byte, uint64, uint64, float32, float32){resampleS16MonoVec, resampleS16StereoVec, resampleF32MonoVec, resampleF32StereoVec},
		sinc:   [4]func([]frame, []byte, *sincTable, uint32, float32, float32, []float32){sincS16MonoVec, sincS16StereoVec, sincF32MonoVec, sincF32StereoVec},
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

// sincStereoAVX2 finds the right plane 8192 bytes after the left: the
// two arrays fail to compile unless that is sincPlane floats.
var (
	_ [sincPlane*4 - 8192]struct{}
	_ [8192 - sincPlane*4]struct{}
)

//go:noescape
func sincMonoAVX2(out *frame, n int, x unsafe.Pointer, coef *float32, adv *uint32, taps int, seq, phases uint32, gl, gr, bound float32)

//go:noescape
func sincMono48AVX2(out *frame, n int, x unsafe.Pointer, coef *float32, adv *uint32, taps int, seq, phases uint32, gl, gr, bound float32)

//go:noescape
func sincStereo48AVX2(out *frame, n int, l unsafe.Pointer, coef *float32, adv *uint32, taps int, seq, phases uint32, gl, gr, bound float32)

//go:noescape
func sincMono48AVX512(out *frame, n int, x unsafe.Pointer, coef *float32, adv *uint32, taps int, seq, phases uint32, gl, gr, bound float32)

//go:noescape
func sincStereo48AVX512(out *frame, n int, l unsafe.Pointer, coef *float32, adv *uint32, taps int, seq, phases uint32, gl, gr, bound float32)

//go:noescape
func sincStereoAVX2(out *frame, n int, l unsafe.Pointer, coef *float32, adv *uint32, taps int, seq, phases uint32, gl, gr, bound float32)

//go:noescape
func s16ToFloatAVX2(dst *float32, src *byte, n int)

//go:noescape
func s16SplitAVX2(l *float32, roff int, src *byte, n int)

//go:noescape
func f32SplitAVX2(l *float32, roff int, src *byte, n int)

// sincVec is the vector sinc for every source kind. The filter reads each
// source frame about taps/step times, so rather than convert a sample
// (and, for stereo, shuffle coefficients to its layout) on every read,
// it converts the run's frames once into planes of floats in the mixer's
// scratch, a plane per channel, and filters the planes; a float32 mono
// source is a plane already. The 16-bit samples go in unscaled, exact,
// and their scale joins the gains, as in the scalar loops; their bound
// is infinite (they cannot be NaN, and the scalar loops do not clamp
// them). A run longer than a plane is filtered a plane at a time.
func sincVec(k sourceKind, out []frame, src []byte, t *sincTable, seq uint32, gl, gr float32, planes []float32) {
	fb := kindFrameBytes[k]
	bound := t.bound
	if k == kindS16Mono || k == kindS16Stereo {
		gl, gr, bound = gl*s16Scale, gr*s16Scale, float32(math.Inf(1))
	}
	plane := len(planes) / 2
	mono, stereo := sincMonoAVX2, sincStereoAVX2
	if t.taps == 48 {
		mono, stereo = sincMono48AVX2, sincStereo48AVX2
		if hasAVX512 {
			mono, stereo = sincMono48AVX512, sincStereo48AVX512
		}
	}
	step := uint64(t.stepInt)*uint64(t.phases) + uint64(t.stepNum)
	for len(out) > 0 {
		n := len(out)
		if k != kindF32Mono {
			// The most outputs whose windows fit a plane: the last one
			// starts at most plane-taps frames in.
			fit := (uint64(plane-t.taps)*uint64(t.phases) + uint64(t.phases) - 1 - uint64(t.phase(seq))) / step
			n = min(n, int(fit)+1)
		}
		last, _ := t.advance(0, seq, n-1)
		span := last + t.taps
		run := src[: span*fb : span*fb]
		switch k {
		case kindF32Mono:
			mono(&out[0], n, unsafe.Pointer(&run[0]), &t.coef[0], &t.adv[0], t.taps, seq, t.phases, gl, gr, bound)
		case kindS16Mono:
			x := planes[:span]
			v := span &^ 7
			if v > 0 {
				s16ToFloatAVX2(&x[0], &run[0], v)
			}
			for j := v; j < span; j++ {
				x[j] = float32(int16(binary.LittleEndian.Uint16(run[2*j:])))
			}
			mono(&out[0], n, unsafe.Pointer(&x[0]), &t.coef[0], &t.adv[0], t.taps, seq, t.phases, gl, gr, bound)
		default:
			l, r := planes[:span], planes[plane:plane+span]
			v := span &^ 7
			if k == kindS16Stereo {
				if v > 0 {
					s16SplitAVX2(&l[0], 4*plane, &run[0], v)
				}
				for j := v; j < span; j++ {
					u := binary.LittleEndian.Uint32(run[4*j:])
					l[j], r[j] = float32(int16(u)), float32(int16(u>>16))
				}
			} else {
				if v > 0 {
					f32SplitAVX2(&l[0], 4*plane, &run[0], v)
				}
				for j := v; j < span; j++ {
					u := binary.LittleEndian.Uint64(run[8*j:])
					l[j], r[j] = math.Float32frombits(uint32(u)), math.Float32frombits(uint32(u>>32))
				}
			}
			stereo(&out[0], n, unsafe.Pointer(&l[0]), &t.coef[0], &t.adv[0], t.taps, seq, t.phases, gl, gr, bound)
		}
		adv, next := t.advance(0, seq, n)
		src, seq, out = src[adv*fb:], next, out[n:]
	}
}

func sincS16MonoVec(out []frame, src []byte, t *sincTable, seq uint32, gl, gr float32, planes []float32) {
	sincVec(kindS16Mono, out, src, t, seq, gl, gr, planes)
}

func sincS16StereoVec(out []frame, src []byte, t *sincTable, seq uint32, gl, gr float32, planes []float32) {
	sincVec(kindS16Stereo, out, src, t, seq, gl, gr, planes)
}

func sincF32MonoVec(out []frame, src []byte, t *sincTable, seq uint32, gl, gr float32, planes []float32) {
	sincVec(kindF32Mono, out, src, t, seq, gl, gr, planes)
}

func sincF32StereoVec(out []frame, src []byte, t *sincTable, seq uint32, gl, gr float32, planes []float32) {
	sincVec(kindF32Stereo, out, src, t, seq, gl, gr, planes)
}
