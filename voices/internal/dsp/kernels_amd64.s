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

// dupPairs, zipPairs, vecOne, vecNegOne and vecFracScale serve every
// vector kernel file of the package (sinc_avx2_amd64.s,
// sinc_avx512_amd64.s, linear_avx512_amd64.s too): package symbols, where
// the other tables are file-local (<>).

// dupPairs duplicates each lane into an L, R pair (VPERMPS indices 0, 0,
// 1, 1, ..., 15, 15): from offset 0 the lanes 0-3 of a ymm register or
// 0-7 of a zmm one, from 32 the lanes 4-7 of a ymm register, from 64
// the lanes 8-15 of a zmm one.
DATA ·dupPairs+0(SB)/4, $0
DATA ·dupPairs+4(SB)/4, $0
DATA ·dupPairs+8(SB)/4, $1
DATA ·dupPairs+12(SB)/4, $1
DATA ·dupPairs+16(SB)/4, $2
DATA ·dupPairs+20(SB)/4, $2
DATA ·dupPairs+24(SB)/4, $3
DATA ·dupPairs+28(SB)/4, $3
DATA ·dupPairs+32(SB)/4, $4
DATA ·dupPairs+36(SB)/4, $4
DATA ·dupPairs+40(SB)/4, $5
DATA ·dupPairs+44(SB)/4, $5
DATA ·dupPairs+48(SB)/4, $6
DATA ·dupPairs+52(SB)/4, $6
DATA ·dupPairs+56(SB)/4, $7
DATA ·dupPairs+60(SB)/4, $7
DATA ·dupPairs+64(SB)/4, $8
DATA ·dupPairs+68(SB)/4, $8
DATA ·dupPairs+72(SB)/4, $9
DATA ·dupPairs+76(SB)/4, $9
DATA ·dupPairs+80(SB)/4, $10
DATA ·dupPairs+84(SB)/4, $10
DATA ·dupPairs+88(SB)/4, $11
DATA ·dupPairs+92(SB)/4, $11
DATA ·dupPairs+96(SB)/4, $12
DATA ·dupPairs+100(SB)/4, $12
DATA ·dupPairs+104(SB)/4, $13
DATA ·dupPairs+108(SB)/4, $13
DATA ·dupPairs+112(SB)/4, $14
DATA ·dupPairs+116(SB)/4, $14
DATA ·dupPairs+120(SB)/4, $15
DATA ·dupPairs+124(SB)/4, $15
GLOBL ·dupPairs(SB), RODATA|NOPTR, $128

// zipPairs interleaves a left and a right zmm register (VPERMT2PS
// indices: 16 and up are the right one): from offset 0 lanes 0-7, from
// 64 lanes 8-15.
DATA ·zipPairs+0(SB)/4, $0
DATA ·zipPairs+4(SB)/4, $16
DATA ·zipPairs+8(SB)/4, $1
DATA ·zipPairs+12(SB)/4, $17
DATA ·zipPairs+16(SB)/4, $2
DATA ·zipPairs+20(SB)/4, $18
DATA ·zipPairs+24(SB)/4, $3
DATA ·zipPairs+28(SB)/4, $19
DATA ·zipPairs+32(SB)/4, $4
DATA ·zipPairs+36(SB)/4, $20
DATA ·zipPairs+40(SB)/4, $5
DATA ·zipPairs+44(SB)/4, $21
DATA ·zipPairs+48(SB)/4, $6
DATA ·zipPairs+52(SB)/4, $22
DATA ·zipPairs+56(SB)/4, $7
DATA ·zipPairs+60(SB)/4, $23
DATA ·zipPairs+64(SB)/4, $8
DATA ·zipPairs+68(SB)/4, $24
DATA ·zipPairs+72(SB)/4, $9
DATA ·zipPairs+76(SB)/4, $25
DATA ·zipPairs+80(SB)/4, $10
DATA ·zipPairs+84(SB)/4, $26
DATA ·zipPairs+88(SB)/4, $11
DATA ·zipPairs+92(SB)/4, $27
DATA ·zipPairs+96(SB)/4, $12
DATA ·zipPairs+100(SB)/4, $28
DATA ·zipPairs+104(SB)/4, $13
DATA ·zipPairs+108(SB)/4, $29
DATA ·zipPairs+112(SB)/4, $14
DATA ·zipPairs+116(SB)/4, $30
DATA ·zipPairs+120(SB)/4, $15
DATA ·zipPairs+124(SB)/4, $31
GLOBL ·zipPairs(SB), RODATA|NOPTR, $128

// emit4 orders REDUCE4's a, c, a, c | b, d, b, d as a, a, b, b, c, c, d, d:
// four mono outputs, each for both channels.
DATA emit4<>+0(SB)/4, $0
DATA emit4<>+4(SB)/4, $0
DATA emit4<>+8(SB)/4, $4
DATA emit4<>+12(SB)/4, $4
DATA emit4<>+16(SB)/4, $1
DATA emit4<>+20(SB)/4, $1
DATA emit4<>+24(SB)/4, $5
DATA emit4<>+28(SB)/4, $5
GLOBL emit4<>(SB), RODATA|NOPTR, $32

// stereo2 orders REDUCE4's La, Lb, La, Lb | Ra, Rb, Ra, Rb (two stereo
// outputs a and b) as La, Ra, Lb, Rb.
DATA stereo2<>+0(SB)/4, $0
DATA stereo2<>+4(SB)/4, $4
DATA stereo2<>+8(SB)/4, $1
DATA stereo2<>+12(SB)/4, $5
DATA stereo2<>+16(SB)/4, $0
DATA stereo2<>+20(SB)/4, $4
DATA stereo2<>+24(SB)/4, $1
DATA stereo2<>+28(SB)/4, $5
GLOBL stereo2<>(SB), RODATA|NOPTR, $32

// Float constants, broadcast with VBROADCASTSS (vecOne, vecNegOne and
// vecFracScale shared with linear_avx512_amd64.s).
DATA ·vecOne+0(SB)/4, $1.0
GLOBL ·vecOne(SB), RODATA|NOPTR, $4
DATA ·vecNegOne+0(SB)/4, $-1.0
GLOBL ·vecNegOne(SB), RODATA|NOPTR, $4
DATA f65536<>+0(SB)/4, $65536.0
GLOBL f65536<>(SB), RODATA|NOPTR, $4
DATA ·vecFracScale+0(SB)/4, $2.3283064365386963e-10 // 2^-32
GLOBL ·vecFracScale(SB), RODATA|NOPTR, $4
DATA lo16<>+0(SB)/4, $0xffff
GLOBL lo16<>(SB), RODATA|NOPTR, $4

// GAINS builds Y15 = gl, gr, gl, gr, ... from the arguments at offset off.
#define GAINS(gl, gr) \
	VMOVSS gl, X15 \
	VMOVSS gr, X14 \
	VUNPCKLPS X14, X15, X15 \
	VBROADCASTSD X15, Y15

// SANITIZE reads NaN lanes of y as 0 and clamps the rest to [-1, 1]
// (registers one = 1, neg = -1), as the scalar clamp does; t is a scratch
// register.
#define SANITIZE(y, t, one, neg) \
	VCMPPS $7, y, y, t \
	VANDPS t, y, y \
	VMINPS one, y, y \
	VMAXPS neg, y, y

// ADD8 adds eight frames, a (0-3) and b (4-7), L, R pairs, times the
// gains into the bus at DI.
#define ADD8(a, b) \
	VMULPS Y15, a, a \
	VMULPS Y15, b, b \
	VADDPS (DI), a, a \
	VADDPS 32(DI), b, b \
	VMOVUPS a, (DI) \
	VMOVUPS b, 32(DI)

// MONO8 adds eight mono samples y, each for both channels, times the
// gains into the bus at DI, through a and b (Y10, Y11: dupPairs from 0 and 32).
#define MONO8(y, a, b) \
	VPERMPS y, Y10, a \
	VPERMPS y, Y11, b \
	ADD8(a, b)

// STEREO8 interleaves eight left (Y2) and right (Y3) samples into frames
// (Y4: l0 r0 l1 r1 | l4 r4 l5 r5, Y5: l2 r2 l3 r3 | l6 r6 l7 r7, then in
// order) and adds them, times the gains, into the bus at DI.
#define STEREO8 \
	VUNPCKLPS Y3, Y2, Y4 \
	VUNPCKHPS Y3, Y2, Y5 \
	VPERM2F128 $0x20, Y5, Y4, Y2 \
	VPERM2F128 $0x31, Y5, Y4, Y3 \
	ADD8(Y2, Y3)

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
	VBROADCASTSS ·vecFracScale(SB), Y12

// LERP sets a = a + (b - a)·Y1: subtract, multiply and add, rounded one
// by one, as the scalar code does.
#define LERP(a, b) \
	VSUBPS a, b, b \
	VMULPS Y1, b, b \
	VADDPS b, a, a

// SINCSETUP loads the arguments but the source: DI out, CX n, R8 coef,
// R9 taps, R11 seq, R12 phases, R13 adv, Y15 the gains, Y11 the lane
// order in which REDUCE4 leaves four sums, doubled for EMIT4.
#define SINCSETUP \
	MOVQ out+0(FP), DI \
	MOVQ n+8(FP), CX \
	MOVQ coef+24(FP), R8 \
	MOVQ adv+32(FP), R13 \
	MOVQ taps+40(FP), R9 \
	MOVL seq+48(FP), R11 \
	MOVL phases+52(FP), R12 \
	GAINS(gl+56(FP), gr+60(FP)) \
	VMOVDQU emit4<>(SB), Y11

// SINCNEXT moves the window on to the next output's (adv[seq] frames of
// 4 bytes) and seq to the next row, the first after the last.
#define SINCNEXT \
	MOVL (R13)(R11*4), AX \
	SHLQ $2, AX \
	ADDQ AX, SI \
	INCL R11 \
	CMPL R11, R12 \
	JB   2(PC) \
	XORL R11, R11

// ROW sets R10 to the row of phase R11: R8 + phase·taps·4.
#define ROW \
	MOVQ R11, R10 \
	IMULQ R9, R10 \
	LEAQ (R8)(R10*4), R10

// DOT1 sets dst to the eight lanes of one channel's dot product (the two
// accumulators added) for the window at SI and the row of phase
// R11; lbl and done name its labels. Its order is sincDotLanes'.
#define DOT1(dst, lbl, done) \
	ROW \
	MOVQ SI, BX \
	MOVQ R9, DX \
	VXORPS Y0, Y0, Y0 \
	VXORPS Y1, Y1, Y1 \
lbl: \
	VMOVUPS (BX), Y2 \
	VMULPS (R10), Y2, Y2 \
	VADDPS Y2, Y0, Y0 \
	SUBQ $8, DX \
	JZ   done \
	VMOVUPS 32(BX), Y3 \
	VMULPS 32(R10), Y3, Y3 \
	VADDPS Y3, Y1, Y1 \
	ADDQ $64, BX \
	ADDQ $64, R10 \
	SUBQ $8, DX \
	JNZ  lbl \
done: \
	VADDPS Y1, Y0, dst

// DOT2 is DOT1 for both planes of a stereo window (the right plane
// sincStride floats (8448 bytes) after the left), into dl and dr.
#define DOT2(dl, dr, lbl, done) \
	ROW \
	MOVQ SI, BX \
	MOVQ R9, DX \
	VXORPS Y0, Y0, Y0 \
	VXORPS Y1, Y1, Y1 \
	VXORPS Y5, Y5, Y5 \
	VXORPS Y6, Y6, Y6 \
lbl: \
	VMOVUPS (R10), Y4 \
	VMULPS (BX), Y4, Y2 \
	VADDPS Y2, Y0, Y0 \
	VMULPS 8448(BX), Y4, Y3 \
	VADDPS Y3, Y5, Y5 \
	SUBQ $8, DX \
	JZ   done \
	VMOVUPS 32(R10), Y4 \
	VMULPS 32(BX), Y4, Y2 \
	VADDPS Y2, Y1, Y1 \
	VMULPS 8480(BX), Y4, Y3 \
	VADDPS Y3, Y6, Y6 \
	ADDQ $64, BX \
	ADDQ $64, R10 \
	SUBQ $8, DX \
	JNZ  lbl \
done: \
	VADDPS Y1, Y0, dl \
	VADDPS Y6, Y5, dr

// DOT1X and DOT2X are DOT1 and DOT2 for 48 taps (upsampling
// filter), in straight lines: no loop, and the first two chunks start
// their accumulators instead of adding to zero (the same sums: adding a
// product to zero changes at most the sign of a zero, which cannot reach
// the bus). The loop's bookkeeping was about a quarter of the
// instructions per output.
#define DOT1X(dst) \
	ROW \
	VMOVUPS 0(SI), Y2 \
	VMULPS 0(R10), Y2, Y0 \
	VMOVUPS 32(SI), Y3 \
	VMULPS 32(R10), Y3, Y1 \
	VMOVUPS 64(SI), Y2 \
	VMULPS 64(R10), Y2, Y2 \
	VADDPS Y2, Y0, Y0 \
	VMOVUPS 96(SI), Y2 \
	VMULPS 96(R10), Y2, Y2 \
	VADDPS Y2, Y1, Y1 \
	VMOVUPS 128(SI), Y2 \
	VMULPS 128(R10), Y2, Y2 \
	VADDPS Y2, Y0, Y0 \
	VMOVUPS 160(SI), Y2 \
	VMULPS 160(R10), Y2, Y2 \
	VADDPS Y2, Y1, Y1 \
	VADDPS Y1, Y0, dst

#define DOT2X(dl, dr) \
	ROW \
	VMOVUPS 0(R10), Y4 \
	VMULPS 0(SI), Y4, Y0 \
	VMULPS 8448(SI), Y4, Y5 \
	VMOVUPS 32(R10), Y4 \
	VMULPS 32(SI), Y4, Y1 \
	VMULPS 8480(SI), Y4, Y6 \
	VMOVUPS 64(R10), Y4 \
	VMULPS 64(SI), Y4, Y2 \
	VADDPS Y2, Y0, Y0 \
	VMULPS 8512(SI), Y4, Y3 \
	VADDPS Y3, Y5, Y5 \
	VMOVUPS 96(R10), Y4 \
	VMULPS 96(SI), Y4, Y2 \
	VADDPS Y2, Y1, Y1 \
	VMULPS 8544(SI), Y4, Y3 \
	VADDPS Y3, Y6, Y6 \
	VMOVUPS 128(R10), Y4 \
	VMULPS 128(SI), Y4, Y2 \
	VADDPS Y2, Y0, Y0 \
	VMULPS 8576(SI), Y4, Y3 \
	VADDPS Y3, Y5, Y5 \
	VMOVUPS 160(R10), Y4 \
	VMULPS 160(SI), Y4, Y2 \
	VADDPS Y2, Y1, Y1 \
	VMULPS 8608(SI), Y4, Y3 \
	VADDPS Y3, Y6, Y6 \
	VADDPS Y1, Y0, dl \
	VADDPS Y6, Y5, dr

// REDUCE4 reduces four eight-lane sums a, b, c, d at once, each in the
// order of sincDotLanes (the upper half onto the lower, the upper pair onto
// the lower, the last two), leaving a, c, a, c | b, d, b, d in Y0.
#define REDUCE4(a, b, c, d) \
	VPERM2F128 $0x20, b, a, Y2 \
	VPERM2F128 $0x31, b, a, Y3 \
	VADDPS Y3, Y2, Y2 \
	VPERM2F128 $0x20, d, c, Y3 \
	VPERM2F128 $0x31, d, c, Y4 \
	VADDPS Y4, Y3, Y3 \
	VSHUFPS $0x44, Y3, Y2, Y4 \
	VSHUFPS $0xEE, Y3, Y2, Y5 \
	VADDPS Y5, Y4, Y4 \
	VSHUFPS $0x88, Y4, Y4, Y0 \
	VSHUFPS $0xDD, Y4, Y4, Y1 \
	VADDPS Y1, Y0, Y0

// EMIT4 reduces four sums (REDUCE4) and orders them for the bus with
// Y11 (emit4 or stereo2), into Y0.
#define EMIT4(a, b, c, d) \
	REDUCE4(a, b, c, d) \
	VPERMPS Y0, Y11, Y0

// ADD1 adds one frame, X0's low pair, times the gains into the bus at DI.
#define ADD1 \
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
	VMOVDQU ·dupPairs(SB), Y10
	VMOVDQU ·dupPairs+32(SB), Y11

ms16m:
	VPMOVSXWD (SI), Y0
	VCVTDQ2PS Y0, Y0
	MONO8(Y0, Y1, Y2)
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
	ADD8(Y0, Y1)
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
	VMOVDQU ·dupPairs(SB), Y10
	VMOVDQU ·dupPairs+32(SB), Y11
	VBROADCASTSS ·vecOne(SB), Y13
	VBROADCASTSS ·vecNegOne(SB), Y12

mf32m:
	VMOVUPS (SI), Y0
	SANITIZE(Y0, Y3, Y13, Y12)
	MONO8(Y0, Y1, Y2)
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
	VBROADCASTSS ·vecOne(SB), Y13
	VBROADCASTSS ·vecNegOne(SB), Y12

mf32s:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	SANITIZE(Y0, Y3, Y13, Y12)
	SANITIZE(Y1, Y4, Y13, Y12)
	ADD8(Y0, Y1)
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
	VMOVDQU ·dupPairs(SB), Y10
	VMOVDQU ·dupPairs+32(SB), Y11

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
	MONO8(Y4, Y2, Y3)
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
	STEREO8
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
	VMOVDQU ·dupPairs(SB), Y10
	VMOVDQU ·dupPairs+32(SB), Y11

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
	VBROADCASTSS ·vecOne(SB), Y4
	VBROADCASTSS ·vecNegOne(SB), Y5
	VMINPS Y4, Y3, Y3
	VMAXPS Y5, Y3, Y3
	MONO8(Y3, Y2, Y3)
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
	VBROADCASTSS ·vecOne(SB), Y10
	VBROADCASTSS ·vecNegOne(SB), Y11

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
	SANITIZE(Y2, Y4, Y10, Y11)
	SANITIZE(Y3, Y4, Y10, Y11)
	STEREO8
	ADDQ $64, DI
	SUBQ $8, CX
	JNZ  rf32s
	VZEROUPPER
	RET

// The per-output sinc kernels, for the filters sincGroups does not lay
// out (downsampling, long cycles) and for CPUs without AVX-512. They
// filter planes of floats that the converters below made of the source
// in the mixer's scratch (16-bit samples as floats, unscaled; float32
// samples sanitized; stereo split into a plane per channel, the right
// one sincStride floats after the left). Per output, the dot product of
// taps samples (from SI) with the phase's row of coefficients (from R10),
// eight taps at a time into two accumulators per channel; the window
// then moves on by adv[seq] frames for the next row. n may be any count.

// func sincMonoAVX2(out *frame, n int, x unsafe.Pointer, coef *float32, adv *uint32, taps int, seq, phases uint32, gl, gr float32)
//
// Four outputs at a time: their dot products are independent, so they
// overlap, and one reduction and store serve all four (reducing
// each output alone left it waiting on a chain of about 50 cycles).
TEXT ·sincMonoAVX2(SB), NOSPLIT, $0-64
	SINCSETUP
	MOVQ x+16(FP), SI

sm4:
	CMPQ CX, $4
	JB   sm1
	DOT1(Y7, sma, smad)
	SINCNEXT
	DOT1(Y8, smb, smbd)
	SINCNEXT
	DOT1(Y9, smc, smcd)
	SINCNEXT
	DOT1(Y10, smd, smdd)
	SINCNEXT
	EMIT4(Y7, Y8, Y9, Y10)
	VMULPS Y15, Y0, Y0
	VADDPS (DI), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	SUBQ $4, CX
	JMP  sm4

sm1:
	// The last outputs one at a time: the same reduction, its other
	// lanes unused.
	TESTQ CX, CX
	JZ    smend
	DOT1(Y7, sme, smed)
	SINCNEXT
	EMIT4(Y7, Y7, Y7, Y7)
	ADD1
	ADDQ $8, DI
	DECQ CX
	JMP  sm1

smend:
	VZEROUPPER
	RET

// func sincMono48AVX2(out *frame, n int, x unsafe.Pointer, coef *float32, adv *uint32, taps int, seq, phases uint32, gl, gr float32)
//
// sincMonoAVX2 for 48 taps.
TEXT ·sincMono48AVX2(SB), NOSPLIT, $0-64
	SINCSETUP
	MOVQ x+16(FP), SI

sx4:
	CMPQ CX, $4
	JB   sx1
	DOT1X(Y7)
	SINCNEXT
	DOT1X(Y8)
	SINCNEXT
	DOT1X(Y9)
	SINCNEXT
	DOT1X(Y10)
	SINCNEXT
	EMIT4(Y7, Y8, Y9, Y10)
	VMULPS Y15, Y0, Y0
	VADDPS (DI), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	SUBQ $4, CX
	JMP  sx4

sx1:
	// The last outputs one at a time: the same reduction, its other
	// lanes unused.
	TESTQ CX, CX
	JZ    sxend
	DOT1X(Y7)
	SINCNEXT
	EMIT4(Y7, Y7, Y7, Y7)
	ADD1
	ADDQ $8, DI
	DECQ CX
	JMP  sx1

sxend:
	VZEROUPPER
	RET

// func sincStereoAVX2(out *frame, n int, l unsafe.Pointer, coef *float32, adv *uint32, taps int, seq, phases uint32, gl, gr float32)
//
// The right plane is sincStride floats (8448 bytes) after the left. Two outputs at
// a time, as sincMonoAVX2 takes four.
TEXT ·sincStereoAVX2(SB), NOSPLIT, $0-64
	SINCSETUP
	MOVQ l+16(FP), SI
	VMOVDQU stereo2<>(SB), Y11

ss2:
	CMPQ CX, $2
	JB   ss1
	DOT2(Y7, Y8, ssa, ssad)
	SINCNEXT
	DOT2(Y9, Y10, ssb, ssbd)
	SINCNEXT
	EMIT4(Y7, Y8, Y9, Y10)
	VMULPS X15, X0, X0
	VADDPS (DI), X0, X0
	VMOVUPS X0, (DI)
	ADDQ $16, DI
	SUBQ $2, CX
	JMP  ss2

ss1:
	TESTQ CX, CX
	JZ    ssend
	DOT2(Y7, Y8, ssc, sscd)
	SINCNEXT
	EMIT4(Y7, Y8, Y7, Y8)
	ADD1

ssend:
	VZEROUPPER
	RET

// func sincStereo48AVX2(out *frame, n int, l unsafe.Pointer, coef *float32, adv *uint32, taps int, seq, phases uint32, gl, gr float32)
//
// sincStereoAVX2 for 48 taps.
TEXT ·sincStereo48AVX2(SB), NOSPLIT, $0-64
	SINCSETUP
	MOVQ l+16(FP), SI
	VMOVDQU stereo2<>(SB), Y11

sy2:
	CMPQ CX, $2
	JB   sy1
	DOT2X(Y7, Y8)
	SINCNEXT
	DOT2X(Y9, Y10)
	SINCNEXT
	EMIT4(Y7, Y8, Y9, Y10)
	VMULPS X15, X0, X0
	VADDPS (DI), X0, X0
	VMOVUPS X0, (DI)
	ADDQ $16, DI
	SUBQ $2, CX
	JMP  sy2

sy1:
	TESTQ CX, CX
	JZ    syend
	DOT2X(Y7, Y8)
	SINCNEXT
	EMIT4(Y7, Y8, Y7, Y8)
	ADD1

syend:
	VZEROUPPER
	RET

// The converters take a multiple of 8 frames.

// func s16ToFloatAVX2(dst *float32, src *byte, n int)
TEXT ·s16ToFloatAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX

cvm:
	VPMOVSXWD (SI), Y0
	VCVTDQ2PS Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $16, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ  cvm
	VZEROUPPER
	RET

// func s16SplitAVX2(l *float32, roff int, src *byte, n int)
TEXT ·s16SplitAVX2(SB), NOSPLIT, $0-32
	MOVQ l+0(FP), DI
	MOVQ roff+8(FP), AX
	MOVQ src+16(FP), SI
	MOVQ n+24(FP), CX

cvs:
	VMOVDQU (SI), Y0   // eight frames: L | R<<16
	VPSLLD $16, Y0, Y1
	VPSRAD $16, Y1, Y1
	VPSRAD $16, Y0, Y0
	VCVTDQ2PS Y1, Y1
	VCVTDQ2PS Y0, Y0
	VMOVUPS Y1, (DI)
	VMOVUPS Y0, (DI)(AX*1)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ  cvs
	VZEROUPPER
	RET

// func f32PlaneAVX2(dst *float32, src *byte, n int)
//
// Sanitizes n float32 samples into dst: NaN as 0, the rest clamped to
// [-1, 1], as clamp does.
TEXT ·f32PlaneAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS ·vecOne(SB), Y13
	VBROADCASTSS ·vecNegOne(SB), Y12

cfm:
	VMOVUPS (SI), Y0
	SANITIZE(Y0, Y1, Y13, Y12)
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ  cfm
	VZEROUPPER
	RET

// func f32SplitAVX2(l *float32, roff int, src *byte, n int)
//
// Splits n stereo frames into the planes, sanitized as f32PlaneAVX2 does.
TEXT ·f32SplitAVX2(SB), NOSPLIT, $0-32
	MOVQ l+0(FP), DI
	MOVQ roff+8(FP), AX
	MOVQ src+16(FP), SI
	MOVQ n+24(FP), CX
	VBROADCASTSS ·vecOne(SB), Y13
	VBROADCASTSS ·vecNegOne(SB), Y12

cfs:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	SANITIZE(Y0, Y4, Y13, Y12)
	SANITIZE(Y1, Y5, Y13, Y12)
	VSHUFPS $0x88, Y1, Y0, Y2 // L0 L1 L4 L5 | L2 L3 L6 L7
	VSHUFPS $0xDD, Y1, Y0, Y3
	VPERMPD $0xD8, Y2, Y2
	VPERMPD $0xD8, Y3, Y3
	VMOVUPS Y2, (DI)
	VMOVUPS Y3, (DI)(AX*1)
	ADDQ $64, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ  cfs
	VZEROUPPER
	RET
