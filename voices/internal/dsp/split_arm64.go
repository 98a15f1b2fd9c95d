//go:build !steadyframe_scalar

package dsp

import "unsafe"

// The converters on NEON (split_arm64.s).

//go:noescape
func splitS16MonoNEON(l *float32, roff int, src *byte, n int)

//go:noescape
func splitS16StereoNEON(l *float32, roff int, src *byte, n int)

//go:noescape
func splitF32MonoNEON(l *float32, roff int, src *byte, n int)

//go:noescape
func splitF32StereoNEON(l *float32, roff int, src *byte, n int)

// splitNEON is convertScalar with NEON, eight frames at a time, into
// planes anywhere: the NEON set's converter for the sinc (whose planes
// sit at the Planes' stride) and for pitched voices alike. The kernels
// take the right plane's distance from the left; the slices' lengths
// are their only bounds, so it checks them first. The scalar loop does
// the last len(l) mod 8 frames.
func splitNEON(k Kind, l, r []float32, run []byte) {
	v := len(l) &^ 7
	fb := kindFrameBytes[k]
	stereo := k == KindS16Stereo || k == KindF32Stereo
	if v > 0 {
		_ = run[v*fb-1]
		switch k {
		case KindS16Mono:
			splitS16MonoNEON(&l[0], 0, &run[0], v)
		case KindF32Mono:
			splitF32MonoNEON(&l[0], 0, &run[0], v)
		default:
			_ = r[v-1]
			roff := int(uintptr(unsafe.Pointer(&r[0])) - uintptr(unsafe.Pointer(&l[0])))
			if k == KindS16Stereo {
				splitS16StereoNEON(&l[0], roff, &run[0], v)
			} else {
				splitF32StereoNEON(&l[0], roff, &run[0], v)
			}
		}
	}
	if stereo {
		r = r[v:]
	}
	convertScalar(k, l[v:], r, run[v*fb:])
}
