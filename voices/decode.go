package voices

import (
	"encoding/binary"
	"math"
)

// decode converts count source frames, starting at frame idx and
// following the loop (or reading silence past the end of a one-shot
// clip), into dst as stereo float32. It is the reference converter: the
// mixer's inner loops (kernels.go) compute the same samples without the
// intermediate buffer (the s16 resamplers within one rounding; see
// TestKernelsMatchReference), and the mixer uses decode itself only for
// the frame that interpolates across a loop seam or past the end.
func (v *voice) decode(dst []float32, idx, count int) {
	k := 0
	for k < count {
		if idx >= v.end {
			if !v.loop {
				clear(dst[2*k : 2*count])
				return
			}
			idx = v.loopStart
		}
		run := min(count-k, v.end-idx)
		out := dst[2*k : 2*(k+run)]
		fb := kindFrameBytes[v.kind]
		src := v.data[fb*idx : fb*(idx+run)]
		switch v.kind {
		case kindS16Mono:
			for i := 0; i < run; i++ {
				s := float32(int16(binary.LittleEndian.Uint16(src[2*i:]))) * s16Scale
				out[2*i], out[2*i+1] = s, s
			}
		case kindS16Stereo:
			for i := 0; i < 2*run; i++ {
				out[i] = float32(int16(binary.LittleEndian.Uint16(src[2*i:]))) * s16Scale
			}
		case kindF32Mono:
			for i := 0; i < run; i++ {
				s := sanitize(math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:])))
				out[2*i], out[2*i+1] = s, s
			}
		default:
			for i := 0; i < 2*run; i++ {
				out[i] = sanitize(math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:])))
			}
		}
		k += run
		idx += run
	}
}

// sanitize clamps float samples and reads NaN as silence, so hostile PCM
// cannot poison the mix.
func sanitize(s float32) float32 {
	switch {
	case s != s:
		return 0
	case s > 1:
		return 1
	case s < -1:
		return -1
	}
	return s
}

// clamp is sanitize for the inner loops: one integer compare screens out
// everything sanitize would change (NaN, infinities, magnitudes over 1),
// so the common case costs a mask and a branch that is never taken.
func clamp(s float32) float32 {
	if math.Float32bits(s)&0x7fffffff > 0x3f800000 {
		return sanitize(s)
	}
	return s
}
