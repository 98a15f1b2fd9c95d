//go:build !steadyframe_scalar

#include "textflag.h"
#include "neon_arm64.h"

// The PCM-to-planes converters on NEON (split_arm64.go), convertScalar's
// loops eight frames a pass: 16-bit samples sign-extended and converted
// unscaled (exact), float ones clamped as clamp does; a stereo source's
// channels split apart by the de-interleaving loads (LD2), the right
// plane roff bytes from the left.

// SPLITHEAD loads the arguments: R0 l, R1 l+roff (the right plane), R2
// src, R3 n, V28 -1, V29 1.
#define SPLITHEAD \
	MOVD l+0(FP), R0 \
	MOVD roff+8(FP), R1 \
	ADD R0, R1, R1 \
	MOVD src+16(FP), R2 \
	MOVD n+24(FP), R3 \
	FMOV4MINUSONE(28) \
	FMOV4ONE(29)

// func splitS16MonoNEON(l *float32, roff int, src *byte, n int)
//
// n frames, a positive multiple of 8; roff is unused for mono.
TEXT ·splitS16MonoNEON(SB), NOSPLIT, $0-32
	SPLITHEAD

s16mono:
	VLD1.P 16(R2), [V0.H8]
	SXTL4(1, 0)
	SXTL4HI(2, 0)
	SCVTF4(1, 1)
	SCVTF4(2, 2)
	VST1.P [V1.S4, V2.S4], 32(R0)
	SUBS $8, R3, R3
	BNE s16mono
	RET

// func splitS16StereoNEON(l *float32, roff int, src *byte, n int)
TEXT ·splitS16StereoNEON(SB), NOSPLIT, $0-32
	SPLITHEAD

s16stereo:
	VLD2.P 32(R2), [V0.H8, V1.H8]
	SXTL4(2, 0)
	SXTL4HI(3, 0)
	SXTL4(4, 1)
	SXTL4HI(5, 1)
	SCVTF4(2, 2)
	SCVTF4(3, 3)
	SCVTF4(4, 4)
	SCVTF4(5, 5)
	VST1.P [V2.S4, V3.S4], 32(R0)
	VST1.P [V4.S4, V5.S4], 32(R1)
	SUBS $8, R3, R3
	BNE s16stereo
	RET

// func splitF32MonoNEON(l *float32, roff int, src *byte, n int)
TEXT ·splitF32MonoNEON(SB), NOSPLIT, $0-32
	SPLITHEAD

f32mono:
	VLD1.P 32(R2), [V0.S4, V1.S4]
	CLAMP4(0, 7)
	CLAMP4(1, 8)
	VST1.P [V0.S4, V1.S4], 32(R0)
	SUBS $8, R3, R3
	BNE f32mono
	RET

// func splitF32StereoNEON(l *float32, roff int, src *byte, n int)
//
// Two LD2s of four frames each: V0 and V2 the left samples, V1 and V3
// the right ones.
TEXT ·splitF32StereoNEON(SB), NOSPLIT, $0-32
	SPLITHEAD

f32stereo:
	VLD2.P 32(R2), [V0.S4, V1.S4]
	VLD2.P 32(R2), [V2.S4, V3.S4]
	CLAMP4(0, 7)
	CLAMP4(1, 8)
	CLAMP4(2, 9)
	CLAMP4(3, 10)
	VST1.P [V0.S4], 16(R0)
	VST1.P [V2.S4], 16(R0)
	VST1.P [V1.S4], 16(R1)
	VST1.P [V3.S4], 16(R1)
	SUBS $8, R3, R3
	BNE f32stereo
	RET
