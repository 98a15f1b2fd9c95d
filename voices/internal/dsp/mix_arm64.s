//go:build !steadyframe_scalar

#include "textflag.h"
#include "neon_arm64.h"

// The unity-rate mixers on NEON (mix_arm64.go), eight frames a pass:
// each source sample is converted (16-bit: sign-extended and converted,
// unscaled, its scale in the gains; float: clamped as clamp does), laid
// out as the bus's interleaved frames, multiplied by the gains and added
// into the bus. Each product is rounded before its sum, as the scalar
// loops in kernels.go round it, so the bits are theirs.

// MIXHEAD loads the arguments: R0 out, R1 src, R2 n, V30 the gains
// gl, gr, gl, gr (gl and gr are adjacent in the frame), V28 -1, V29 1.
#define MIXHEAD \
	MOVD out+0(FP), R0 \
	MOVD src+8(FP), R1 \
	MOVD n+16(FP), R2 \
	FMOVD gl+24(FP), F30 \
	VDUP V30.D[0], V30.D2 \
	FMOV4MINUSONE(28) \
	FMOV4ONE(29)

// MIXOUT4 multiplies Va..Vd, two frames each in the bus's layout, by
// the gains, adds them into the next eight frames of the bus at R0, and
// moves R0 on.
#define MIXOUT4(a, b, c, d) \
	FMUL4(a, a, 30) \
	FMUL4(b, b, 30) \
	FMUL4(c, c, 30) \
	FMUL4(d, d, 30) \
	VLD1 (R0), [V16.S4, V17.S4, V18.S4, V19.S4] \
	FADD4(16, 16, a) \
	FADD4(17, 17, b) \
	FADD4(18, 18, c) \
	FADD4(19, 19, d) \
	VST1.P [V16.S4, V17.S4, V18.S4, V19.S4], 64(R0)

// func mixS16MonoNEON(out *Frame, src *byte, n int, gl, gr float32)
//
// n frames, a positive multiple of 8. Like every kernel here, gl and gr
// already carry s16Scale for a 16-bit source.
TEXT ·mixS16MonoNEON(SB), NOSPLIT, $0-32
	MIXHEAD

m16mono:
	VLD1.P 16(R1), [V0.H8]
	SXTL4(1, 0)
	SXTL4HI(2, 0)
	SCVTF4(1, 1)
	SCVTF4(2, 2)
	VZIP1 V1.S4, V1.S4, V3.S4
	VZIP2 V1.S4, V1.S4, V4.S4
	VZIP1 V2.S4, V2.S4, V5.S4
	VZIP2 V2.S4, V2.S4, V6.S4
	MIXOUT4(3, 4, 5, 6)
	SUBS $8, R2, R2
	BNE m16mono
	RET

// func mixS16StereoNEON(out *Frame, src *byte, n int, gl, gr float32)
TEXT ·mixS16StereoNEON(SB), NOSPLIT, $0-32
	MIXHEAD

m16stereo:
	VLD1.P 32(R1), [V0.H8, V1.H8]
	SXTL4(2, 0)
	SXTL4HI(3, 0)
	SXTL4(4, 1)
	SXTL4HI(5, 1)
	SCVTF4(2, 2)
	SCVTF4(3, 3)
	SCVTF4(4, 4)
	SCVTF4(5, 5)
	MIXOUT4(2, 3, 4, 5)
	SUBS $8, R2, R2
	BNE m16stereo
	RET

// func mixF32MonoNEON(out *Frame, src *byte, n int, gl, gr float32)
TEXT ·mixF32MonoNEON(SB), NOSPLIT, $0-32
	MIXHEAD

m32mono:
	VLD1.P 32(R1), [V0.S4, V1.S4]
	CLAMP4(0, 7)
	CLAMP4(1, 8)
	VZIP1 V0.S4, V0.S4, V3.S4
	VZIP2 V0.S4, V0.S4, V4.S4
	VZIP1 V1.S4, V1.S4, V5.S4
	VZIP2 V1.S4, V1.S4, V6.S4
	MIXOUT4(3, 4, 5, 6)
	SUBS $8, R2, R2
	BNE m32mono
	RET

// func mixF32StereoNEON(out *Frame, src *byte, n int, gl, gr float32)
TEXT ·mixF32StereoNEON(SB), NOSPLIT, $0-32
	MIXHEAD

m32stereo:
	VLD1.P 64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	CLAMP4(0, 7)
	CLAMP4(1, 8)
	CLAMP4(2, 9)
	CLAMP4(3, 10)
	MIXOUT4(0, 1, 2, 3)
	SUBS $8, R2, R2
	BNE m32stereo
	RET
