//go:build !steadyframe_scalar

package dsp

import (
	"slices"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// The vector kernels need AVX2 (kernels_amd64.s: the unity-rate mixers,
// the linear resamplers by gathers, the per-output sinc; sinc_avx2_amd64.s:
// the sinc's group kernel) and use AVX-512F where the CPU has it
// (sinc_avx512_amd64.s, linear_avx512_amd64.s: the sinc's group kernels
// and the linear resamplers for upsampling). They multiply and add
// separately, as the scalar loops do, rather than fuse: each result is
// rounded as the scalar code rounds it, so every kernel gives the same
// bits as the scalar one on any input, NaN and infinities included
// (TestVectorKernelsMatchScalar), and the mix does not depend on the CPU
// (voices' TestRenderGolden). Fused multiply-adds in the sinc's group kernels
// would cost that equality: they gained about 9% of
// BenchmarkMix32/impl=vector-sinc, all of it in the stereo kernels, with
// outputs within 7e-7 of the scalar ones (measured, not adopted).
//
// A kernel set is chosen once per mixer (Kernels): avx2Kernels run the
// AVX2 kernels alone, nil where the CPU lacks AVX2; avx512Kernels the
// AVX-512 ones where they apply and the AVX2 ones elsewhere, nil where
// the CPU lacks either. vectorSets lists those the CPU runs, the better
// first.
var (
	avx2Kernels   = newVectorKernels("avx2", cpu.X86.HasAVX2, false)
	avx512Kernels = newVectorKernels("avx512", cpu.X86.HasAVX2 && cpu.X86.HasAVX512F, true)
	vectorSets    = slices.DeleteFunc([]*Kernels{avx512Kernels, avx2Kernels}, func(ks *Kernels) bool { return ks == nil })
)

// newVectorKernels returns the vector kernel set, with the AVX-512
// kernels if wide, or nil if the CPU cannot run it (ok false).
func newVectorKernels(name string, ok, wide bool) *Kernels {
	if !ok {
		return nil
	}
	return &Kernels{
		name: name,
		mix: [4]func([]Frame, []byte, float32, float32){
			unityVec(mixS16MonoAVX2, mixS16Mono, 2, s16Scale),
			unityVec(mixS16StereoAVX2, mixS16Stereo, 4, s16Scale),
			unityVec(mixF32MonoAVX2, mixF32Mono, 4, 1),
			unityVec(mixF32StereoAVX2, mixF32Stereo, 8, 1),
		},
		linear: [4]func([]Frame, []byte, uint64, uint64, float32, float32){
			resampleS16MonoVec(wide), resampleS16StereoVec(wide), resampleF32MonoVec(wide), resampleF32StereoVec(wide),
		},
		convert: convertVec,
		filter:  filterVec(wide),
	}
}

// The assembly loops take a multiple of 8 frames; each wrapper runs them
// over as many as it can and the scalar loop over the rest. The slices'
// lengths are the loops' only bounds, so each wrapper checks src holds
// what its run reads before it passes pointers on.

//go:noescape
func mixS16MonoAVX2(out *Frame, src *byte, n int, gl, gr float32)

//go:noescape
func mixS16StereoAVX2(out *Frame, src *byte, n int, gl, gr float32)

//go:noescape
func mixF32MonoAVX2(out *Frame, src *byte, n int, gl, gr float32)

//go:noescape
func mixF32StereoAVX2(out *Frame, src *byte, n int, gl, gr float32)

// unityVec returns the vector version of a unity-rate loop: the AVX2
// loop vec over the run's multiple of 8 frames, the scalar loop over the
// rest. fb is a source frame's bytes, scale what vec needs the gains
// multiplied by (s16Scale for 16-bit sources, 1 for float32: exact).
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

//go:noescape
func resampleS16MonoAVX2(out *Frame, src *byte, n int, pos *[8]uint64, step8 uint64, gl, gr float32)

//go:noescape
func resampleS16StereoAVX2(out *Frame, src *byte, n int, pos *[8]uint64, step8 uint64, gl, gr float32)

//go:noescape
func resampleF32MonoAVX2(out *Frame, src *byte, n int, pos *[8]uint64, step8 uint64, gl, gr float32)

//go:noescape
func resampleF32StereoAVX2(out *Frame, src *byte, n int, pos *[8]uint64, step8 uint64, gl, gr float32)

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

//go:noescape
func resampleS16MonoAVX512(out *Frame, src *byte, n int, p uint64, offs *[16]uint64, step16 uint64, gl, gr float32)

//go:noescape
func resampleS16StereoAVX512(out *Frame, src *byte, n int, p uint64, offs *[16]uint64, step16 uint64, gl, gr float32)

//go:noescape
func resampleF32MonoAVX512(out *Frame, src *byte, n int, p uint64, offs *[16]uint64, step16 uint64, gl, gr float32)

//go:noescape
func resampleF32StereoAVX512(out *Frame, src *byte, n int, p uint64, offs *[16]uint64, step16 uint64, gl, gr float32)

// linearRun16 returns how many of the first n outputs from position p the
// AVX-512 kernels take: a multiple of 16, 0 unless wide (the AVX-512 set)
// or when downsampling, and short of the end of src, since each group of
// 16 loads the 17 frames from its first output's.
func linearRun16(wide bool, n int, src []byte, p, step uint64, fb int) int {
	if !wide || step >= FracOne {
		return 0
	}
	n &^= 15
	frames := len(src) / fb
	for n > 0 && int((p+uint64(n-16)*step)>>32)+17 > frames {
		n -= 16
	}
	return n
}

// linearOffsets returns the positions of 16 consecutive outputs relative
// to the first.
func linearOffsets(step uint64) [16]uint64 {
	var o [16]uint64
	for i := range o {
		o[i] = uint64(i) * step
	}
	return o
}

// The linear wrappers run the AVX-512 kernels (if wide), upsampling,
// over as many groups of 16 as src allows, then the AVX2 kernels over
// what is left in groups of 8, then the scalar loop. Each calls its
// assembly directly, not through a function value: the positions it
// passes by pointer then stay on the stack.

func resampleS16MonoVec(wide bool) func([]Frame, []byte, uint64, uint64, float32, float32) {
	return func(out []Frame, src []byte, p, step uint64, gl, gr float32) {
		if n := linearRun16(wide, len(out), src, p, step, 2); n > 0 {
			offs := linearOffsets(step)
			resampleS16MonoAVX512(&out[0], &src[0], n, p, &offs, 16*step, gl*s16Scale, gr*s16Scale)
			out, p = out[n:], p+uint64(n)*step
		}
		n, pos := linearRun(len(out), src, p, step, 2)
		if n > 0 {
			resampleS16MonoAVX2(&out[0], &src[0], n, &pos, 8*step, gl*s16Scale, gr*s16Scale)
		}
		resampleS16Mono(out[n:], src, p+uint64(n)*step, step, gl, gr)
	}
}

func resampleS16StereoVec(wide bool) func([]Frame, []byte, uint64, uint64, float32, float32) {
	return func(out []Frame, src []byte, p, step uint64, gl, gr float32) {
		if n := linearRun16(wide, len(out), src, p, step, 4); n > 0 {
			offs := linearOffsets(step)
			resampleS16StereoAVX512(&out[0], &src[0], n, p, &offs, 16*step, gl*s16Scale, gr*s16Scale)
			out, p = out[n:], p+uint64(n)*step
		}
		n, pos := linearRun(len(out), src, p, step, 4)
		if n > 0 {
			resampleS16StereoAVX2(&out[0], &src[0], n, &pos, 8*step, gl*s16Scale, gr*s16Scale)
		}
		resampleS16Stereo(out[n:], src, p+uint64(n)*step, step, gl, gr)
	}
}

func resampleF32MonoVec(wide bool) func([]Frame, []byte, uint64, uint64, float32, float32) {
	return func(out []Frame, src []byte, p, step uint64, gl, gr float32) {
		if n := linearRun16(wide, len(out), src, p, step, 4); n > 0 {
			offs := linearOffsets(step)
			resampleF32MonoAVX512(&out[0], &src[0], n, p, &offs, 16*step, gl, gr)
			out, p = out[n:], p+uint64(n)*step
		}
		n, pos := linearRun(len(out), src, p, step, 4)
		if n > 0 {
			resampleF32MonoAVX2(&out[0], &src[0], n, &pos, 8*step, gl, gr)
		}
		resampleF32Mono(out[n:], src, p+uint64(n)*step, step, gl, gr)
	}
}

func resampleF32StereoVec(wide bool) func([]Frame, []byte, uint64, uint64, float32, float32) {
	return func(out []Frame, src []byte, p, step uint64, gl, gr float32) {
		if n := linearRun16(wide, len(out), src, p, step, 8); n > 0 {
			offs := linearOffsets(step)
			resampleF32StereoAVX512(&out[0], &src[0], n, p, &offs, 16*step, gl, gr)
			out, p = out[n:], p+uint64(n)*step
		}
		n, pos := linearRun(len(out), src, p, step, 8)
		if n > 0 {
			resampleF32StereoAVX2(&out[0], &src[0], n, &pos, 8*step, gl, gr)
		}
		resampleF32Stereo(out[n:], src, p+uint64(n)*step, step, gl, gr)
	}
}

// sincStereoAVX2 and the AVX-512 stereo kernel find the right plane
// 8448 bytes after the left: the two arrays fail to compile unless that
// is sincStride floats.
var (
	_ [sincStride*4 - 8448]struct{}
	_ [8448 - sincStride*4]struct{}
)

//go:noescape
func sincMonoAVX2(out *Frame, n int, x unsafe.Pointer, coef *float32, adv *uint32, taps int, seq, phases uint32, gl, gr float32)

//go:noescape
func sincMono48AVX2(out *Frame, n int, x unsafe.Pointer, coef *float32, adv *uint32, taps int, seq, phases uint32, gl, gr float32)

//go:noescape
func sincStereo48AVX2(out *Frame, n int, l unsafe.Pointer, coef *float32, adv *uint32, taps int, seq, phases uint32, gl, gr float32)

//go:noescape
func sincStereoAVX2(out *Frame, n int, l unsafe.Pointer, coef *float32, adv *uint32, taps int, seq, phases uint32, gl, gr float32)

// The group kernels, for spans of 56 and 64 frames (sincGroups.terms).

//go:noescape
func sincMonoGroups56AVX512(out *Frame, n int, x *float32, coef *float32, lane *int32, adv *uint32, groups, seq uint32, gl, gr float32)

//go:noescape
func sincMonoGroups64AVX512(out *Frame, n int, x *float32, coef *float32, lane *int32, adv *uint32, groups, seq uint32, gl, gr float32)

//go:noescape
func sincStereoGroups56AVX512(out *Frame, n int, x *float32, coef *float32, lane *int32, adv *uint32, groups, seq uint32, gl, gr float32)

//go:noescape
func sincStereoGroups64AVX512(out *Frame, n int, x *float32, coef *float32, lane *int32, adv *uint32, groups, seq uint32, gl, gr float32)

//go:noescape
func sincGroups56AVX2(out *Frame, n int, x *float32, coef *float32, lane *int32, adv *uint32, groups, seq uint32, gl, gr float32, chans *[8]uint32)

//go:noescape
func sincGroups64AVX2(out *Frame, n int, x *float32, coef *float32, lane *int32, adv *uint32, groups, seq uint32, gl, gr float32, chans *[8]uint32)

// sincChans are the AVX2 group kernels' channel masks over four frames:
// both channels, the left, the right.
var sincChans = [3][8]uint32{
	{^uint32(0), ^uint32(0), ^uint32(0), ^uint32(0), ^uint32(0), ^uint32(0), ^uint32(0), ^uint32(0)},
	{^uint32(0), 0, ^uint32(0), 0, ^uint32(0), 0, ^uint32(0), 0},
	{0, ^uint32(0), 0, ^uint32(0), 0, ^uint32(0), 0, ^uint32(0)},
}

//go:noescape
func s16ToFloatAVX2(dst *float32, src *byte, n int)

//go:noescape
func s16SplitAVX2(l *float32, roff int, src *byte, n int)

//go:noescape
func f32PlaneAVX2(dst *float32, src *byte, n int)

//go:noescape
func f32SplitAVX2(l *float32, roff int, src *byte, n int)

// convertVec is convertScalar with AVX2, eight frames at a time.
func convertVec(k Kind, l, r []float32, run []byte) {
	v := len(l) &^ 7
	if v > 0 {
		switch k {
		case KindS16Mono:
			s16ToFloatAVX2(&l[0], &run[0], v)
		case KindF32Mono:
			f32PlaneAVX2(&l[0], &run[0], v)
		case KindS16Stereo:
			s16SplitAVX2(&l[0], 4*sincStride, &run[0], v)
		default:
			f32SplitAVX2(&l[0], 4*sincStride, &run[0], v)
		}
	}
	fb := kindFrameBytes[k]
	convertScalar(k, l[v:], r[v:], run[v*fb:])
}

// filterVec returns the vector filter: the group kernels (AVX-512 if
// wide, else AVX2) for the filters sincGroups lays out, and the
// per-output AVX2 kernels for the rest. The assembly finds
// the right plane sincStride floats after the left one, where
// Kernels.sinc cut it.
func filterVec(wide bool) sincFilter {
	return func(stereo bool, out []Frame, l, r []float32, t *SincTable, seq uint32, gl, gr float32) {
		n := len(out)
		if g := t.grp; g != nil {
			groups, c := uint32(len(g.adv)), &g.coef[0]
			short := g.terms == 56
			switch {
			case wide && stereo && short:
				sincStereoGroups56AVX512(&out[0], n, &l[0], c, &g.lane[0], &g.adv[0], groups, seq, gl, gr)
			case wide && stereo:
				sincStereoGroups64AVX512(&out[0], n, &l[0], c, &g.lane[0], &g.adv[0], groups, seq, gl, gr)
			case wide && short:
				sincMonoGroups56AVX512(&out[0], n, &l[0], c, &g.lane[0], &g.adv[0], groups, seq, gl, gr)
			case wide:
				sincMonoGroups64AVX512(&out[0], n, &l[0], c, &g.lane[0], &g.adv[0], groups, seq, gl, gr)
			default:
				pass := sincGroups64AVX2
				if short {
					pass = sincGroups56AVX2
				}
				if !stereo {
					pass(&out[0], n, &l[0], c, &g.lane[0], &g.adv[0], groups, seq, gl, gr, &sincChans[0])
					return
				}
				pass(&out[0], n, &l[0], c, &g.lane[0], &g.adv[0], groups, seq, gl, gr, &sincChans[1])
				pass(&out[0], n, &r[0], c, &g.lane[0], &g.adv[0], groups, seq, gl, gr, &sincChans[2])
			}
			return
		}
		x := unsafe.Pointer(&l[0])
		switch {
		case stereo && t.taps == 48:
			sincStereo48AVX2(&out[0], n, x, &t.coef[0], &t.adv[0], t.taps, seq, t.phases, gl, gr)
		case stereo:
			sincStereoAVX2(&out[0], n, x, &t.coef[0], &t.adv[0], t.taps, seq, t.phases, gl, gr)
		case t.taps == 48:
			sincMono48AVX2(&out[0], n, x, &t.coef[0], &t.adv[0], t.taps, seq, t.phases, gl, gr)
		default:
			sincMonoAVX2(&out[0], n, x, &t.coef[0], &t.adv[0], t.taps, seq, t.phases, gl, gr)
		}
	}
}
