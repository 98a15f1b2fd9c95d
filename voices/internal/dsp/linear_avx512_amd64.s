//go:build !steadyframe_scalar

#include "textflag.h"

// AVX-512 versions of the linear resamplers (kernels.go) for upsampling:
// a step under one source frame, so 16 consecutive outputs read at most
// 17 consecutive frames, and one load of the 16 frames from the first
// output's, permuted, gives each lane its frame (another, a frame on,
// the frame after it). The AVX2 kernels gather instead, one load per
// lane, which on CPUs patched against Gather Data Sampling costs more
// than the rest of the loop. The same arithmetic as the scalar loops for
// float32 sources (the same bits); 16-bit sources are interpolated in
// floats, as the AVX2 kernels do (within a rounding of the scalar
// loops' integer interpolation). n is a multiple of 16, and src holds the
// 17 frames from the last group's first. VZEROUPPER before every return.

// The lane tables and float constants are kernels_amd64.s's.
DATA linIntOne<>+0(SB)/4, $1
GLOBL linIntOne<>(SB), RODATA|NOPTR, $4

// LINSETUP loads the arguments: DI out, SI src, CX n, R8 the position,
// R9 16·step, Z31 and Z30 the offsets of outputs 0-7 and 8-15 from the
// first (i·step, 32.32), Z29 2^-32, Z28 the gains (gl, gr, gl, gr, ...),
// Z25 1 and Z24 -1.
#define LINSETUP \
	MOVQ out+0(FP), DI \
	MOVQ src+8(FP), SI \
	MOVQ n+16(FP), CX \
	MOVQ p+24(FP), R8 \
	MOVQ offs+32(FP), AX \
	VMOVDQU64 (AX), Z31 \
	VMOVDQU64 64(AX), Z30 \
	MOVQ step16+40(FP), R9 \
	VBROADCASTSS ·vecFracScale(SB), Z29 \
	VBROADCASTSS gl+48(FP), Z28 \
	VBROADCASTSS gr+52(FP), Z0 \
	MOVL $0xAAAA, AX \
	KMOVW AX, K3 \
	VMOVAPS Z0, K3, Z28 \
	VBROADCASTSS ·vecOne(SB), Z25 \
	VBROADCASTSS ·vecNegOne(SB), Z24

// LINPOS splits the group's 16 positions: Z3 each lane's frame less the
// first lane's, Z1 its weight t (the fraction converted as the scalar
// float32(uint32) conversion rounds it, times 2^-32, exact), AX the first
// lane's frame. Then the position moves on 16 outputs.
#define LINPOS \
	MOVL R8, AX \
	VPBROADCASTQ AX, Z0 \
	VPADDQ Z31, Z0, Z1 \
	VPADDQ Z30, Z0, Z2 \
	VPSRLQ $32, Z1, Z3 \
	VPSRLQ $32, Z2, Z4 \
	VPMOVQD Z3, Y3 \
	VPMOVQD Z4, Y4 \
	VINSERTI64X4 $1, Y4, Z3, Z3 \
	VPMOVQD Z1, Y1 \
	VPMOVQD Z2, Y2 \
	VINSERTI64X4 $1, Y2, Z1, Z1 \
	VCVTUDQ2PS Z1, Z1 \
	VMULPS Z29, Z1, Z1 \
	MOVQ R8, AX \
	SHRQ $32, AX \
	ADDQ R9, R8

// LINLERP sets a = a + (b - a)·Z1, rounded step by step as the scalar
// loops do.
#define LINLERP(a, b) \
	VSUBPS a, b, b \
	VMULPS Z1, b, b \
	VADDPS b, a, a

// LINSAN reads NaN lanes of y as 0 and clamps the rest to [-1, 1], as
// clamp does.
#define LINSAN(y) \
	VCMPPS $7, y, y, K1 \
	VMOVAPS.Z y, K1, y \
	VMINPS Z25, y, y \
	VMAXPS Z24, y, y

// LINOUT adds frames Z6 (0-7) and Z7 (8-15), times the gains, into the bus
// and moves on 16 frames.
#define LINOUT \
	VMULPS Z28, Z6, Z6 \
	VMULPS Z28, Z7, Z7 \
	VADDPS (DI), Z6, Z6 \
	VADDPS 64(DI), Z7, Z7 \
	VMOVUPS Z6, (DI) \
	VMOVUPS Z7, 64(DI) \
	ADDQ $128, DI

// func resampleF32MonoAVX512(out *frame, src *byte, n int, p uint64, offs *[16]uint64, step16 uint64, gl, gr float32)
TEXT ·resampleF32MonoAVX512(SB), NOSPLIT, $0-56
	LINSETUP
	VMOVDQU32 ·dupPairs(SB), Z27
	VMOVDQU32 ·dupPairs+64(SB), Z26

lfm:
	LINPOS
	LEAQ (SI)(AX*4), BX
	VPERMPS (BX), Z3, Z5
	VPERMPS 4(BX), Z3, Z6
	LINLERP(Z5, Z6)
	LINSAN(Z5)
	VPERMPS Z5, Z27, Z6
	VPERMPS Z5, Z26, Z7
	LINOUT
	SUBQ $16, CX
	JNZ  lfm
	VZEROUPPER
	RET

// func resampleS16MonoAVX512(out *frame, src *byte, n int, p uint64, offs *[16]uint64, step16 uint64, gl, gr float32)
TEXT ·resampleS16MonoAVX512(SB), NOSPLIT, $0-56
	LINSETUP
	VMOVDQU32 ·dupPairs(SB), Z27
	VMOVDQU32 ·dupPairs+64(SB), Z26

lsm:
	LINPOS
	LEAQ (SI)(AX*2), BX
	VPMOVSXWD (BX), Z5
	VPMOVSXWD 2(BX), Z6
	VPERMD Z5, Z3, Z5
	VPERMD Z6, Z3, Z6
	VCVTDQ2PS Z5, Z5
	VCVTDQ2PS Z6, Z6
	LINLERP(Z5, Z6)
	VPERMPS Z5, Z27, Z6
	VPERMPS Z5, Z26, Z7
	LINOUT
	SUBQ $16, CX
	JNZ  lsm
	VZEROUPPER
	RET

// func resampleS16StereoAVX512(out *frame, src *byte, n int, p uint64, offs *[16]uint64, step16 uint64, gl, gr float32)
TEXT ·resampleS16StereoAVX512(SB), NOSPLIT, $0-56
	LINSETUP
	VMOVDQU32 ·zipPairs(SB), Z27
	VMOVDQU32 ·zipPairs+64(SB), Z26

lss:
	LINPOS
	LEAQ (SI)(AX*4), BX
	VPERMD (BX), Z3, Z5       // frame j: L | R<<16
	VPERMD 4(BX), Z3, Z6      // frame j+1
	VPSLLD $16, Z5, Z7
	VPSRAD $16, Z7, Z7        // L0
	VPSRAD $16, Z5, Z5        // R0
	VPSLLD $16, Z6, Z8
	VPSRAD $16, Z8, Z8        // L1
	VPSRAD $16, Z6, Z6        // R1
	VCVTDQ2PS Z7, Z7
	VCVTDQ2PS Z5, Z5
	VCVTDQ2PS Z8, Z8
	VCVTDQ2PS Z6, Z6
	LINLERP(Z7, Z8)
	LINLERP(Z5, Z6)
	VMOVAPS Z7, Z6
	VPERMT2PS Z5, Z27, Z6
	VPERMT2PS Z5, Z26, Z7
	LINOUT
	SUBQ $16, CX
	JNZ  lss
	VZEROUPPER
	RET

// func resampleF32StereoAVX512(out *frame, src *byte, n int, p uint64, offs *[16]uint64, step16 uint64, gl, gr float32)
TEXT ·resampleF32StereoAVX512(SB), NOSPLIT, $0-56
	LINSETUP
	VMOVDQU32 ·zipPairs(SB), Z27
	VMOVDQU32 ·zipPairs+64(SB), Z26
	VPBROADCASTD linIntOne<>(SB), Z23

lfs:
	LINPOS
	LEAQ (SI)(AX*8), BX
	VPADDD Z3, Z3, Z9          // 2·frame: the left sample
	VPADDD Z23, Z9, Z10        // the right
	VMOVUPS (BX), Z5           // frames 0-7
	VMOVUPS 64(BX), Z6         // frames 8-15
	VMOVUPS 8(BX), Z7          // frames 1-8
	VMOVUPS 72(BX), Z8         // frames 9-16
	VMOVAPS Z5, Z11
	VPERMT2PS Z6, Z9, Z11      // L0
	VPERMT2PS Z6, Z10, Z5      // R0
	VMOVAPS Z7, Z12
	VPERMT2PS Z8, Z9, Z12      // L1
	VPERMT2PS Z8, Z10, Z7      // R1
	LINLERP(Z11, Z12)
	LINLERP(Z5, Z7)
	LINSAN(Z11)
	LINSAN(Z5)
	VMOVAPS Z11, Z6
	VPERMT2PS Z5, Z27, Z6
	VMOVAPS Z11, Z7
	VPERMT2PS Z5, Z26, Z7
	LINOUT
	SUBQ $16, CX
	JNZ  lfs
	VZEROUPPER
	RET
