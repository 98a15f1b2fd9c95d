//go:build !steadyframe_scalar

#include "textflag.h"

// AVX2 versions of the mixer's inner loops (kernels.go, kernels_sinc.go);
// kernels_amd64.go says which CPUs run them and how they split a run.
// Each loop here handles a multiple of 8 device frames (the Go wrapper
// mixes the rest with the scalar loop) and ends with VZEROUPPER: without
// it the SSE code after a vector loop pays for the dirty upper halves
// (the scalar mixer ran 2-3x slower after an AVX-512 prototype's loop).
//
// Frame layout: out is []frame, [2]float32 per frame, L then R. The gain
// vector Y15 holds gl, gr, gl, gr, ... for every routine.

// Lane indices for VPERMPS: duplicate lanes 0-3 or 4-7 of a mono vector
// into L, R pairs.
DATA dupLo<>+0(SB)/4, $0
DATA dupLo<>+4(SB)/4, $0
DATA dupLo<>+8(SB)/4, $1
DATA dupLo<>+12(SB)/4, $1
DATA dupLo<>+16(SB)/4, $2
DATA dupLo<>+20(SB)/4, $2
DATA dupLo<>+24(SB)/4, $3
DATA dupLo<>+28(SB)/4, $3
GLOBL dupLo<>(SB), RODATA|NOPTR, $32

DATA dupHi<>+0(SB)/4, $4
DATA dupHi<>+4(SB)/4, $4
DATA dupHi<>+8(SB)/4, $5
DATA dupHi<>+12(SB)/4, $5
DATA dupHi<>+16(SB)/4, $6
DATA dupHi<>+20(SB)/4, $6
DATA dupHi<>+24(SB)/4, $7
DATA dupHi<>+28(SB)/4, $7
GLOBL dupHi<>(SB), RODATA|NOPTR, $32

// Float constants, broadcast with VBROADCASTSS.
DATA one<>+0(SB)/4, $1.0
GLOBL one<>(SB), RODATA|NOPTR, $4
DATA negOne<>+0(SB)/4, $-1.0
GLOBL negOne<>(SB), RODATA|NOPTR, $4
DATA f65536<>+0(SB)/4, $65536.0
GLOBL f65536<>(SB), RODATA|NOPTR, $4
DATA fracScale<>+0(SB)/4, $2.3283064365386963e-10 // 2^-32
GLOBL fracScale<>(SB), RODATA|NOPTR, $4
DATA lo16<>+0(SB)/4, $0xffff
GLOBL lo16<>(SB), RODATA|NOPTR, $4

// GAINS builds Y15 = gl, gr, gl, gr, ... from the arguments at offset off.
#define GAINS(gl, gr) \
	VMOVSS gl, X15 \
	VMOVSS gr, X14 \
	VUNPCKLPS X14, X15, X15 \
	VBROADCASTSD X15, Y15

// SANITIZE reads NaN lanes of y as 0 and clamps the rest to [-1, 1]
// (Y13 = 1, Y12 = -1), as the scalar clamp does; t is a scratch register.
#define SANITIZE(y, t) \
	VCMPPS $7, y, y, t \
	VANDPS t, y, y \
	VMINPS Y13, y, y \
	VMAXPS Y12, y, y

// POSITIONS sets Y0 = frame indices, Y1 = weights of positions Y8, Y9.
#define POSITIONS \
	VSHUFPS $0xDD, Y9, Y8, Y0 \
	VPERMQ $0xD8, Y0, Y0 \
	VSHUFPS $0x88, Y9, Y8, Y1 \
	VPERMQ $0xD8, Y1, Y1 \
	VPSRLD $16, Y1, Y2 \
	VPAND Y14, Y1, Y1 \
	VCVTDQ2PS Y2, Y2 \
	VCVTDQ2PS Y1, Y1 \
	VMULPS Y13, Y2, Y2 \
	VADDPS Y1, Y2, Y1 \
	VMULPS Y12, Y1, Y1 \
	VPADDQ Y7, Y8, Y8 \
	VPADDQ Y7, Y9, Y9

// LINSETUP loads the positions and constants: pos points at the eight
// initial positions, step8 at 8·step.
#define LINSETUP(pos, step8) \
	MOVQ pos, AX \
	VMOVDQU (AX), Y8 \
	VMOVDQU 32(AX), Y9 \
	VPBROADCASTQ step8, Y7 \
	VPBROADCASTD lo16<>(SB), Y14 \
	VBROADCASTSS f65536<>(SB), Y13 \
	VBROADCASTSS fracScale<>(SB), Y12

// LERP sets a = a + (b - a)·Y1: subtract, multiply and add, rounded one
// by one, as the scalar code does.
#define LERP(a, b) \
	VSUBPS a, b, b \
	VMULPS Y1, b, b \
	VADDPS b, a, a

// SINCSETUP loads the arguments: DI out, CX n, SI src, R8 coef, R9 taps,
// R11 phase, R12 phases, R13 stepInt, R14 stepNum.
#define SINCSETUP \
	MOVQ out+0(FP), DI \
	MOVQ n+8(FP), CX \
	MOVQ src+16(FP), SI \
	MOVQ coef+24(FP), R8 \
	MOVQ taps+32(FP), R9 \
	MOVL phase+40(FP), R11 \
	MOVL phases+44(FP), R12 \
	MOVL stepInt+48(FP), R13 \
	MOVL stepNum+52(FP), R14 \
	GAINS(gl+56(FP), gr+60(FP))

// SINCNEXT moves on to the next output: the source frame is 1<<sh bytes.
#define SINCNEXT(sh) \
	MOVQ R13, AX \
	ADDL R14, R11 \
	CMPL R11, R12 \
	JB   3(PC) \
	SUBL R12, R11 \
	INCQ AX \
	SHLQ $sh, AX \
	ADDQ AX, SI \
	ADDQ $8, DI

// ROW sets R10 to the row of phase R11: R8 + phase·taps·4.
#define ROW \
	MOVQ R11, R10 \
	IMULQ R9, R10 \
	LEAQ (R8)(R10*4), R10

// HSUM8 adds the lanes of Y0 + Y1 into X0's lowest lane.
#define HSUM8 \
	VADDPS Y1, Y0, Y0 \
	VEXTRACTF128 $1, Y0, X1 \
	VADDPS X1, X0, X0 \
	VMOVHLPS X0, X0, X1 \
	VADDPS X1, X0, X0 \
	VMOVSHDUP X0, X1 \
	VADDSS X1, X0, X0

// HSUM4X2 adds the lanes of Y0 + Y1 into X0's lanes 0 (L) and 1 (R).
#define HSUM4X2 \
	VADDPS Y1, Y0, Y0 \
	VEXTRACTF128 $1, Y0, X1 \
	VADDPS X1, X0, X0 \
	VMOVHLPS X0, X0, X1 \
	VADDPS X1, X0, X0

// CLAMP2 reads NaN in X0 as 0 and clamps it to [-bound, bound]
// (X13 = bound, X12 = -bound, broadcast).
#define CLAMP2 \
	VCMPPS $7, X0, X0, X1 \
	VANDPS X1, X0, X0 \
	VMINPS X13, X0, X0 \
	VMAXPS X12, X0, X0

// EMIT adds X0's lanes 0 and 1, times gl and gr, to the frame at DI.
#define EMIT \
	VMULPS X15, X0, X0 \
	VMOVSD (DI), X1 \
	VADDPS X1, X0, X0 \
	VMOVSD X0, (DI)

// func mixS16MonoAVX2(out *frame, src *byte, n int, gl, gr float32)
TEXT ·mixS16MonoAVX2(SB), NOSPLIT, $0-32
	MOVQ out+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	GAINS(gl+24(FP), gr+28(FP))
	VMOVDQU dupLo<>(SB), Y10
	VMOVDQU dupHi<>(SB), Y11

ms16m:
	VPMOVSXWD (SI), Y0
	VCVTDQ2PS Y0, Y0
	VPERMPS Y0, Y10, Y1
	VPERMPS Y0, Y11, Y2
	VMULPS Y15, Y1, Y1
	VMULPS Y15, Y2, Y2
	VADDPS (DI), Y1, Y1
	VADDPS 32(DI), Y2, Y2
	VMOVUPS Y1, (DI)
	VMOVUPS Y2, 32(DI)
	ADDQ $16, SI
	ADDQ $64, DI
	SUBQ $8, CX
	JNZ  ms16m
	VZEROUPPER
	RET

// func mixS16StereoAVX2(out *frame, src *byte, n int, gl, gr float32)
TEXT ·mixS16StereoAVX2(SB), NOSPLIT, $0-32
	MOVQ out+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	GAINS(gl+24(FP), gr+28(FP))

ms16s:
	VPMOVSXWD (SI), Y0
	VPMOVSXWD 16(SI), Y1
	VCVTDQ2PS Y0, Y0
	VCVTDQ2PS Y1, Y1
	VMULPS Y15, Y0, Y0
	VMULPS Y15, Y1, Y1
	VADDPS (DI), Y0, Y0
	VADDPS 32(DI), Y1, Y1
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	ADDQ $32, SI
	ADDQ $64, DI
	SUBQ $8, CX
	JNZ  ms16s
	VZEROUPPER
	RET

// func mixF32MonoAVX2(out *frame, src *byte, n int, gl, gr float32)
TEXT ·mixF32MonoAVX2(SB), NOSPLIT, $0-32
	MOVQ out+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	GAINS(gl+24(FP), gr+28(FP))
	VMOVDQU dupLo<>(SB), Y10
	VMOVDQU dupHi<>(SB), Y11
	VBROADCASTSS one<>(SB), Y13
	VBROADCASTSS negOne<>(SB), Y12

mf32m:
	VMOVUPS (SI), Y0
	SANITIZE(Y0, Y3)
	VPERMPS Y0, Y10, Y1
	VPERMPS Y0, Y11, Y2
	VMULPS Y15, Y1, Y1
	VMULPS Y15, Y2, Y2
	VADDPS (DI), Y1, Y1
	VADDPS 32(DI), Y2, Y2
	VMOVUPS Y1, (DI)
	VMOVUPS Y2, 32(DI)
	ADDQ $32, SI
	ADDQ $64, DI
	SUBQ $8, CX
	JNZ  mf32m
	VZEROUPPER
	RET

// func mixF32StereoAVX2(out *frame, src *byte, n int, gl, gr float32)
TEXT ·mixF32StereoAVX2(SB), NOSPLIT, $0-32
	MOVQ out+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	GAINS(gl+24(FP), gr+28(FP))
	VBROADCASTSS one<>(SB), Y13
	VBROADCASTSS negOne<>(SB), Y12

mf32s:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	SANITIZE(Y0, Y3)
	SANITIZE(Y1, Y4)
	VMULPS Y15, Y0, Y0
	VMULPS Y15, Y1, Y1
	VADDPS (DI), Y0, Y0
	VADDPS 32(DI), Y1, Y1
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $8, CX
	JNZ  mf32s
	VZEROUPPER
	RET

// The linear resamplers keep the eight 32.32 positions of the next eight
// outputs in Y8 (outputs 0-3) and Y9 (4-7), advance them by 8·step (Y7)
// per iteration, and split them into source frame indices (Y0) and the
// fractions' weights t (Y1), in output order. t is the fraction converted
// exactly as the scalar code's float32(uint32) conversion rounds it: the
// upper and lower 16 bits are each exact as floats, and their sum rounds
// once, to nearest; then × 2^-32, exact. Source frames are gathered
// (VPGATHERDD reads a dword at each index; its mask, all ones, is
// consumed by each gather).

// func resampleS16MonoAVX2(out *frame, src *byte, n int, pos *[8]uint64, step8 uint64, gl, gr float32)
TEXT ·resampleS16MonoAVX2(SB), NOSPLIT, $0-48
	MOVQ out+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	GAINS(gl+40(FP), gr+44(FP)) // before LINSETUP: it uses X14
	LINSETUP(pos+24(FP), step8+32(FP))
	VMOVDQU dupLo<>(SB), Y10
	VMOVDQU dupHi<>(SB), Y11

rs16m:
	POSITIONS
	VPCMPEQD Y6, Y6, Y6
	VPGATHERDD Y6, (SI)(Y0*2), Y3 // samples j and j+1
	VPSLLD $16, Y3, Y4
	VPSRAD $16, Y4, Y4             // s0
	VPSRAD $16, Y3, Y3             // s1
	VCVTDQ2PS Y4, Y4
	VCVTDQ2PS Y3, Y3
	LERP(Y4, Y3)
	VPERMPS Y4, Y10, Y2
	VPERMPS Y4, Y11, Y3
	VMULPS Y15, Y2, Y2
	VMULPS Y15, Y3, Y3
	VADDPS (DI), Y2, Y2
	VADDPS 32(DI), Y3, Y3
	VMOVUPS Y2, (DI)
	VMOVUPS Y3, 32(DI)
	ADDQ $64, DI
	SUBQ $8, CX
	JNZ  rs16m
	VZEROUPPER
	RET

// func resampleS16StereoAVX2(out *frame, src *byte, n int, pos *[8]uint64, step8 uint64, gl, gr float32)
TEXT ·resampleS16StereoAVX2(SB), NOSPLIT, $0-48
	MOVQ out+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	GAINS(gl+40(FP), gr+44(FP)) // before LINSETUP: it uses X14
	LINSETUP(pos+24(FP), step8+32(FP))

rs16s:
	POSITIONS
	VPCMPEQD Y6, Y6, Y6
	VPGATHERDD Y6, (SI)(Y0*4), Y3  // frame j: L | R<<16
	VPCMPEQD Y6, Y6, Y6
	VPGATHERDD Y6, 4(SI)(Y0*4), Y5 // frame j+1
	VPSLLD $16, Y3, Y2
	VPSRAD $16, Y2, Y2             // L0
	VPSRAD $16, Y3, Y3             // R0
	VPSLLD $16, Y5, Y4
	VPSRAD $16, Y4, Y4             // L1
	VPSRAD $16, Y5, Y5             // R1
	VCVTDQ2PS Y2, Y2
	VCVTDQ2PS Y3, Y3
	VCVTDQ2PS Y4, Y4
	VCVTDQ2PS Y5, Y5
	LERP(Y2, Y4)
	LERP(Y3, Y5)
	VUNPCKLPS Y3, Y2, Y4           // l0 r0 l1 r1 | l4 r4 l5 r5
	VUNPCKHPS Y3, Y2, Y5           // l2 r2 l3 r3 | l6 r6 l7 r7
	VPERM2F128 $0x20, Y5, Y4, Y2
	VPERM2F128 $0x31, Y5, Y4, Y3
	VMULPS Y15, Y2, Y2
	VMULPS Y15, Y3, Y3
	VADDPS (DI), Y2, Y2
	VADDPS 32(DI), Y3, Y3
	VMOVUPS Y2, (DI)
	VMOVUPS Y3, 32(DI)
	ADDQ $64, DI
	SUBQ $8, CX
	JNZ  rs16s
	VZEROUPPER
	RET

// func resampleF32MonoAVX2(out *frame, src *byte, n int, pos *[8]uint64, step8 uint64, gl, gr float32)
TEXT ·resampleF32MonoAVX2(SB), NOSPLIT, $0-48
	MOVQ out+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	GAINS(gl+40(FP), gr+44(FP)) // before LINSETUP: it uses X14
	LINSETUP(pos+24(FP), step8+32(FP))
	VMOVDQU dupLo<>(SB), Y10
	VMOVDQU dupHi<>(SB), Y11

rf32m:
	POSITIONS
	VPCMPEQD Y6, Y6, Y6
	VPGATHERDD Y6, (SI)(Y0*4), Y3
	VPCMPEQD Y6, Y6, Y6
	VPGATHERDD Y6, 4(SI)(Y0*4), Y4
	LERP(Y3, Y4)
	// SANITIZE with the constants 1 and -1 in Y4 and Y5 here: Y12 and
	// Y13 hold the position constants.
	VCMPPS $7, Y3, Y3, Y2
	VANDPS Y2, Y3, Y3
	VBROADCASTSS one<>(SB), Y4
	VBROADCASTSS negOne<>(SB), Y5
	VMINPS Y4, Y3, Y3
	VMAXPS Y5, Y3, Y3
	VPERMPS Y3, Y10, Y2
	VPERMPS Y3, Y11, Y3
	VMULPS Y15, Y2, Y2
	VMULPS Y15, Y3, Y3
	VADDPS (DI), Y2, Y2
	VADDPS 32(DI), Y3, Y3
	VMOVUPS Y2, (DI)
	VMOVUPS Y3, 32(DI)
	ADDQ $64, DI
	SUBQ $8, CX
	JNZ  rf32m
	VZEROUPPER
	RET

// func resampleF32StereoAVX2(out *frame, src *byte, n int, pos *[8]uint64, step8 uint64, gl, gr float32)
TEXT ·resampleF32StereoAVX2(SB), NOSPLIT, $0-48
	MOVQ out+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	GAINS(gl+40(FP), gr+44(FP)) // before LINSETUP: it uses X14
	LINSETUP(pos+24(FP), step8+32(FP))
	VBROADCASTSS one<>(SB), Y10
	VBROADCASTSS negOne<>(SB), Y11

rf32s:
	POSITIONS
	VPCMPEQD Y6, Y6, Y6
	VPGATHERDD Y6, (SI)(Y0*8), Y2   // L0
	VPCMPEQD Y6, Y6, Y6
	VPGATHERDD Y6, 4(SI)(Y0*8), Y3  // R0
	VPCMPEQD Y6, Y6, Y6
	VPGATHERDD Y6, 8(SI)(Y0*8), Y4  // L1
	VPCMPEQD Y6, Y6, Y6
	VPGATHERDD Y6, 12(SI)(Y0*8), Y5 // R1
	LERP(Y2, Y4)
	LERP(Y3, Y5)
	VCMPPS $7, Y2, Y2, Y4
	VANDPS Y4, Y2, Y2
	VMINPS Y10, Y2, Y2
	VMAXPS Y11, Y2, Y2
	VCMPPS $7, Y3, Y3, Y4
	VANDPS Y4, Y3, Y3
	VMINPS Y10, Y3, Y3
	VMAXPS Y11, Y3, Y3
	VUNPCKLPS Y3, Y2, Y4
	VUNPCKHPS Y3, Y2, Y5
	VPERM2F128 $0x20, Y5, Y4, Y2
	VPERM2F128 $0x31, Y5, Y4, Y3
	VMULPS Y15, Y2, Y2
	VMULPS Y15, Y3, Y3
	VADDPS (DI), Y2, Y2
	VADDPS 32(DI), Y3, Y3
	VMOVUPS Y2, (DI)
	VMOVUPS Y3, 32(DI)
	ADDQ $64, DI
	SUBQ $8, CX
	JNZ  rf32s
	VZEROUPPER
	RET

// The sinc kernels: per output, the dot product of taps source frames
// (from SI) with the phase's row of coefficients (from R10), eight taps
// at a time into two accumulators (Y0, Y1), in the order the scalar
// kernels sum; then the window moves on by stepInt frames, one more when
// the phase wraps. Arguments: out, n (any count), src, coef, taps,
// phase, phases, stepInt, stepNum, gl, gr, bound.

// func sincS16MonoAVX2(out *frame, n int, src *byte, coef *float32, taps int, phase, phases, stepInt, stepNum uint32, gl, gr, bound float32)
TEXT ·sincS16MonoAVX2(SB), NOSPLIT, $0-68
	SINCSETUP

s16m:
	ROW
	MOVQ SI, BX
	MOVQ R9, DX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1

s16mtap:
	VPMOVSXWD (BX), Y2
	VCVTDQ2PS Y2, Y2
	VMULPS (R10), Y2, Y2
	VADDPS Y2, Y0, Y0
	SUBQ $8, DX
	JZ   s16mdone
	VPMOVSXWD 16(BX), Y3
	VCVTDQ2PS Y3, Y3
	VMULPS 32(R10), Y3, Y3
	VADDPS Y3, Y1, Y1
	ADDQ $32, BX
	ADDQ $64, R10
	SUBQ $8, DX
	JNZ  s16mtap

s16mdone:
	HSUM8
	VSHUFPS $0, X0, X0, X0
	EMIT
	SINCNEXT(1)
	DECQ CX
	JNZ  s16m
	VZEROUPPER
	RET

// func sincF32MonoAVX2(out *frame, n int, src *byte, coef *float32, taps int, phase, phases, stepInt, stepNum uint32, gl, gr, bound float32)
TEXT ·sincF32MonoAVX2(SB), NOSPLIT, $0-68
	SINCSETUP
	VBROADCASTSS bound+64(FP), X13
	VXORPS X12, X12, X12
	VSUBPS X13, X12, X12

f32m:
	ROW
	MOVQ SI, BX
	MOVQ R9, DX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1

f32mtap:
	VMOVUPS (BX), Y2
	VMULPS (R10), Y2, Y2
	VADDPS Y2, Y0, Y0
	SUBQ $8, DX
	JZ   f32mdone
	VMOVUPS 32(BX), Y3
	VMULPS 32(R10), Y3, Y3
	VADDPS Y3, Y1, Y1
	ADDQ $64, BX
	ADDQ $64, R10
	SUBQ $8, DX
	JNZ  f32mtap

f32mdone:
	HSUM8
	VSHUFPS $0, X0, X0, X0
	CLAMP2
	EMIT
	SINCNEXT(2)
	DECQ CX
	JNZ  f32m
	VZEROUPPER
	RET

// func sincS16StereoAVX2(out *frame, n int, src *byte, coef *float32, taps int, phase, phases, stepInt, stepNum uint32, gl, gr, bound float32)
TEXT ·sincS16StereoAVX2(SB), NOSPLIT, $0-68
	SINCSETUP
	VMOVDQU dupLo<>(SB), Y10
	VMOVDQU dupHi<>(SB), Y11

s16s:
	ROW
	MOVQ SI, BX
	MOVQ R9, DX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1

s16stap:
	VMOVUPS (R10), Y4
	VPERMPS Y4, Y10, Y5
	VPERMPS Y4, Y11, Y6
	VPMOVSXWD (BX), Y2
	VPMOVSXWD 16(BX), Y3
	VCVTDQ2PS Y2, Y2
	VCVTDQ2PS Y3, Y3
	VMULPS Y5, Y2, Y2
	VADDPS Y2, Y0, Y0
	VMULPS Y6, Y3, Y3
	VADDPS Y3, Y1, Y1
	ADDQ $32, BX
	ADDQ $32, R10
	SUBQ $8, DX
	JNZ  s16stap
	HSUM4X2
	EMIT
	SINCNEXT(2)
	DECQ CX
	JNZ  s16s
	VZEROUPPER
	RET

// func sincF32StereoAVX2(out *frame, n int, src *byte, coef *float32, taps int, phase, phases, stepInt, stepNum uint32, gl, gr, bound float32)
TEXT ·sincF32StereoAVX2(SB), NOSPLIT, $0-68
	SINCSETUP
	VMOVDQU dupLo<>(SB), Y10
	VMOVDQU dupHi<>(SB), Y11
	VBROADCASTSS bound+64(FP), X13
	VXORPS X12, X12, X12
	VSUBPS X13, X12, X12

f32s:
	ROW
	MOVQ SI, BX
	MOVQ R9, DX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1

f32stap:
	VMOVUPS (R10), Y4
	VPERMPS Y4, Y10, Y5
	VPERMPS Y4, Y11, Y6
	VMULPS (BX), Y5, Y2
	VADDPS Y2, Y0, Y0
	VMULPS 32(BX), Y6, Y3
	VADDPS Y3, Y1, Y1
	ADDQ $64, BX
	ADDQ $32, R10
	SUBQ $8, DX
	JNZ  f32stap
	HSUM4X2
	CLAMP2
	EMIT
	SINCNEXT(3)
	DECQ CX
	JNZ  f32s
	VZEROUPPER
	RET
