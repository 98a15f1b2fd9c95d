//go:build !steadyframe_scalar

#include "textflag.h"
#include "neon_arm64.h"

// The linear resamplers on NEON (linear_arm64.go), four outputs a pass,
// one per lane. NEON has no gather: each lane's two source frames (the
// one its 32.32 position is in and the next) are loaded into it
// separately. The fractions stay in a vector of the positions' low
// words, which four steps move on together (mod 2^32, as uint32(p)
// wraps), converted as frac converts them. Then s0 + (s1-s0)·t, each
// operation rounded as in kernels.go's loops (a float source clamped
// after it), times the gains, into the bus.

// LINHEAD loads the arguments: R0 out, R1 src, R2 n, R3 p, R4 step, V30
// the gains gl, gr, gl, gr, V28 -1, V29 1, V27 2^-32, V26 the fractions
// of the first four positions, V25 those of four steps.
#define LINHEAD \
	MOVD out+0(FP), R0 \
	MOVD src+8(FP), R1 \
	MOVD n+16(FP), R2 \
	MOVD p+24(FP), R3 \
	MOVD step+32(FP), R4 \
	FMOVD gl+40(FP), F30 \
	VDUP V30.D[0], V30.D2 \
	FMOV4MINUSONE(28) \
	FMOV4ONE(29) \
	MOVW $0x2f800000, R5 \
	VDUP R5, V27.S4 \
	MOVD R3, R5 \
	VMOV R5, V26.S[0] \
	ADD R4, R5, R5 \
	VMOV R5, V26.S[1] \
	ADD R4, R5, R5 \
	VMOV R5, V26.S[2] \
	ADD R4, R5, R5 \
	VMOV R5, V26.S[3] \
	LSL $2, R4, R6 \
	VDUP R6, V25.S4

// LANE loads the source bytes at the position R3's frame (a frame is
// 1<<shift bytes) into dst, and moves R3 on by a step.
#define LANE(shift, dst) \
	LSR $32, R3, R5 \
	ADD R5<<shift, R1, R5 \
	VLD1 (R5), dst \
	ADD R4, R3, R3

// FRAC sets V24 to the four outputs' weights t and moves V26 on.
#define FRAC \
	UCVTF4(24, 26) \
	FMUL4(24, 24, 27) \
	VADD V25.S4, V26.S4, V26.S4

// LERP sets Va = Va + (Vb - Va)·Vt, through Vb.
#define LERP(a, b, t) \
	FSUB4(b, b, a) \
	FMUL4(b, b, t) \
	FADD4(a, a, b)

// LINOUT multiplies Va and Vb, two frames each in the bus's layout, by
// the gains, adds them into the next four frames of the bus at R0, and
// moves R0 on.
#define LINOUT(a, b) \
	FMUL4(a, a, 30) \
	FMUL4(b, b, 30) \
	VLD1 (R0), [V16.S4, V17.S4] \
	FADD4(16, 16, a) \
	FADD4(17, 17, b) \
	VST1.P [V16.S4, V17.S4], 32(R0)

// func resampleS16MonoNEON(out *Frame, src *byte, n int, p, step uint64, gl, gr float32)
//
// n outputs, a positive multiple of 4. Like every kernel here, gl and gr
// already carry s16Scale for a 16-bit source. A lane's word holds its
// two samples: the low half s0, the high half s1.
TEXT ·resampleS16MonoNEON(SB), NOSPLIT, $0-48
	LINHEAD

l16mono:
	LANE(1, V0.S[0])
	LANE(1, V0.S[1])
	LANE(1, V0.S[2])
	LANE(1, V0.S[3])
	FRAC
	VSHL $16, V0.S4, V1.S4
	SSHR16(1, 1)
	SSHR16(2, 0)
	SCVTF4(1, 1)
	SCVTF4(2, 2)
	LERP(1, 2, 24)
	VZIP1 V1.S4, V1.S4, V3.S4
	VZIP2 V1.S4, V1.S4, V4.S4
	LINOUT(3, 4)
	SUBS $4, R2, R2
	BNE l16mono
	RET

// func resampleS16StereoNEON(out *Frame, src *byte, n int, p, step uint64, gl, gr float32)
//
// A lane's doubleword holds its two frames; the even words of V0 and V1
// are the first frames, the odd ones the second.
TEXT ·resampleS16StereoNEON(SB), NOSPLIT, $0-48
	LINHEAD

l16stereo:
	LANE(2, V0.D[0])
	LANE(2, V0.D[1])
	LANE(2, V1.D[0])
	LANE(2, V1.D[1])
	FRAC
	VUZP1 V1.S4, V0.S4, V2.S4
	VUZP2 V1.S4, V0.S4, V3.S4
	SXTL4(4, 2)
	SXTL4HI(5, 2)
	SXTL4(6, 3)
	SXTL4HI(7, 3)
	SCVTF4(4, 4)
	SCVTF4(5, 5)
	SCVTF4(6, 6)
	SCVTF4(7, 7)
	VZIP1 V24.S4, V24.S4, V22.S4
	VZIP2 V24.S4, V24.S4, V23.S4
	LERP(4, 6, 22)
	LERP(5, 7, 23)
	LINOUT(4, 5)
	SUBS $4, R2, R2
	BNE l16stereo
	RET

// func resampleF32MonoNEON(out *Frame, src *byte, n int, p, step uint64, gl, gr float32)
TEXT ·resampleF32MonoNEON(SB), NOSPLIT, $0-48
	LINHEAD

l32mono:
	LANE(2, V0.D[0])
	LANE(2, V0.D[1])
	LANE(2, V1.D[0])
	LANE(2, V1.D[1])
	FRAC
	VUZP1 V1.S4, V0.S4, V2.S4
	VUZP2 V1.S4, V0.S4, V3.S4
	LERP(2, 3, 24)
	CLAMP4(2, 7)
	VZIP1 V2.S4, V2.S4, V4.S4
	VZIP2 V2.S4, V2.S4, V5.S4
	LINOUT(4, 5)
	SUBS $4, R2, R2
	BNE l32mono
	RET

// func resampleF32StereoNEON(out *Frame, src *byte, n int, p, step uint64, gl, gr float32)
//
// A lane's two frames fill a register: its lower half the first frame,
// its upper half the second.
TEXT ·resampleF32StereoNEON(SB), NOSPLIT, $0-48
	LINHEAD

l32stereo:
	LANE(3, [V0.S4])
	LANE(3, [V1.S4])
	LANE(3, [V2.S4])
	LANE(3, [V3.S4])
	FRAC
	VUZP1 V1.D2, V0.D2, V4.D2
	VUZP2 V1.D2, V0.D2, V5.D2
	VUZP1 V3.D2, V2.D2, V6.D2
	VUZP2 V3.D2, V2.D2, V7.D2
	VZIP1 V24.S4, V24.S4, V22.S4
	VZIP2 V24.S4, V24.S4, V23.S4
	LERP(4, 5, 22)
	LERP(6, 7, 23)
	CLAMP4(4, 8)
	CLAMP4(6, 9)
	LINOUT(4, 6)
	SUBS $4, R2, R2
	BNE l32stereo
	RET
