//go:build !steadyframe_scalar

package dsp

import "unsafe"

// The pitched filter's kernels (asmgen's pitch.go): AVX2, and AVX-512 in
// the wide set. Each runs the whole run of outputs, so a block costs one
// call per span rather than one per output.

//go:noescape
func pitchMonoAVX2(out *Frame, n int, l, r *float32, coef *float32, taps int, p uint64, steps *uint64, gl, gr float32, limit int) (next uint64, left int)

//go:noescape
func pitchStereoAVX2(out *Frame, n int, l, r *float32, coef *float32, taps int, p uint64, steps *uint64, gl, gr float32, limit int) (next uint64, left int)

//go:noescape
func pitchMonoPairsAVX2(out *Frame, n int, l, r *float32, coef *float32, taps int, p uint64, steps *uint64, gl, gr float32, limit int) (next uint64, left int)

//go:noescape
func pitchStereoPairsAVX2(out *Frame, n int, l, r *float32, coef *float32, taps int, p uint64, steps *uint64, gl, gr float32, limit int) (next uint64, left int)

//go:noescape
func pitchMonoAVX512(out *Frame, n int, l, r *float32, coef *float32, taps int, p uint64, steps *uint64, gl, gr float32, limit int) (next uint64, left int)

//go:noescape
func pitchStereoAVX512(out *Frame, n int, l, r *float32, coef *float32, taps int, p uint64, steps *uint64, gl, gr float32, limit int) (next uint64, left int)

// filterStepsVec returns the vector FilterSteps: the AVX-512 kernels if
// wide, else the AVX2 ones. The slices' lengths are the kernels' only
// bounds: each stops at the first output whose window would start past
// limit, the last frame a whole window can start at in both planes, and
// that is a caller's broken invariant.
func filterStepsVec(wide bool) pitchFilter {
	return func(t *Interp, out []Frame, l, r []float32, mono bool, p uint64, steps []uint64, gl, gr float32) uint64 {
		n := len(out)
		if n == 0 {
			return p
		}
		steps = steps[:n]
		if mono {
			r = l
		}
		limit := min(len(l), len(r)) - t.taps
		c := &t.coef[0]
		var left int
		switch {
		case wide && mono:
			p, left = pitchMonoAVX512(&out[0], n, &l[0], &r[0], c, t.taps, p, &steps[0], gl, gr, limit)
		case wide:
			p, left = pitchStereoAVX512(&out[0], n, &l[0], &r[0], c, t.taps, p, &steps[0], gl, gr, limit)
		default:
			// Two outputs at a time, then the last one if n is odd.
			if h := n / 2; h > 0 {
				if mono {
					p, left = pitchMonoPairsAVX2(&out[0], h, &l[0], &r[0], c, t.taps, p, &steps[0], gl, gr, limit)
				} else {
					p, left = pitchStereoPairsAVX2(&out[0], h, &l[0], &r[0], c, t.taps, p, &steps[0], gl, gr, limit)
				}
			}
			if n%2 == 1 && left == 0 {
				if mono {
					p, left = pitchMonoAVX2(&out[n-1], 1, &l[0], &r[0], c, t.taps, p, &steps[n-1], gl, gr, limit)
				} else {
					p, left = pitchStereoAVX2(&out[n-1], 1, &l[0], &r[0], c, t.taps, p, &steps[n-1], gl, gr, limit)
				}
			}
		}
		if left != 0 {
			pitchOverrun(t, l, r)
		}
		return p
	}
}

// splitVec is convertScalar with AVX2, eight frames at a time, into
// planes anywhere: the kernels take the right plane's distance from the
// left, which convertVec fixes at the Planes' stride.
func splitVec(k Kind, l, r []float32, run []byte) {
	v := len(l) &^ 7
	fb := kindFrameBytes[k]
	if v > 0 {
		_ = run[v*fb-1]
		switch k {
		case KindS16Mono:
			s16ToFloatAVX2(&l[0], &run[0], v)
		case KindF32Mono:
			f32PlaneAVX2(&l[0], &run[0], v)
		default:
			_ = r[v-1]
			roff := int(uintptr(unsafe.Pointer(&r[0])) - uintptr(unsafe.Pointer(&l[0])))
			if k == KindS16Stereo {
				s16SplitAVX2(&l[0], roff, &run[0], v)
			} else {
				f32SplitAVX2(&l[0], roff, &run[0], v)
			}
		}
	}
	if k == KindS16Stereo || k == KindF32Stereo {
		r = r[v:]
	}
	convertScalar(k, l[v:], r, run[v*fb:])
}
