package dsp

import (
	"encoding/binary"
	"math"
)

// Decode converts the source frames src of kind k, len(dst)/2 of them,
// into dst as interleaved stereo float32: 16-bit samples scaled into
// [-1, 1), float ones through Sanitize, a mono sample on both channels.
// It is the reference converter: the kernels compute the same samples
// without the intermediate buffer, and voices uses it for the frames
// that interpolate across a loop seam or past a clip's end.
func Decode(k Kind, dst []float32, src []byte) {
	run := len(dst) / 2
	src = src[:run*kindFrameBytes[k]]
	switch k {
	case KindS16Mono:
		for i := 0; i < run; i++ {
			s := float32(int16(binary.LittleEndian.Uint16(src[2*i:]))) * s16Scale
			dst[2*i], dst[2*i+1] = s, s
		}
	case KindS16Stereo:
		for i := 0; i < 2*run; i++ {
			dst[i] = float32(int16(binary.LittleEndian.Uint16(src[2*i:]))) * s16Scale
		}
	case KindF32Mono:
		for i := 0; i < run; i++ {
			s := Sanitize(math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:])))
			dst[2*i], dst[2*i+1] = s, s
		}
	default:
		for i := 0; i < 2*run; i++ {
			dst[i] = Sanitize(math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:])))
		}
	}
}

// Sanitize clamps a float sample to [-1, 1] and reads NaN as silence, so
// hostile PCM cannot poison the mix.
func Sanitize(s float32) float32 {
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

// clamp is Sanitize for the inner loops: one integer compare screens out
// everything Sanitize would change (NaN, infinities, magnitudes over 1),
// so the common case costs a mask and a branch that is never taken.
func clamp(s float32) float32 {
	if math.Float32bits(s)&0x7fffffff > 0x3f800000 {
		return Sanitize(s)
	}
	return s
}

// PutS16 stores s, a sample in [-1, 1], as signed 16-bit little-endian
// PCM into o[0:2], rounded to nearest.
func PutS16(o []byte, s float32) {
	binary.LittleEndian.PutUint16(o, uint16(int16(math.Round(float64(s)*32767))))
}

// PutF32 stores s as 32-bit float little-endian PCM into o[0:4].
func PutF32(o []byte, s float32) {
	binary.LittleEndian.PutUint32(o, math.Float32bits(s))
}
