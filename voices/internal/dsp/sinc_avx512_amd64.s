//go:build !steadyframe_scalar

#include "textflag.h"

// The AVX-512 sinc kernels for the filters sincGroups lays out
// (resample.go): upsampling to 48 taps. Each computes 16 consecutive
// outputs at once, one per lane. The 16 outputs' windows start 0 to 15
// frames after the group's first (its lane offsets), so together they
// read terms consecutive frames (56 or 64, the kernel's suffix): for each
// frame m, the kernel broadcasts its sample to every lane, multiplies it
// by the frame's 16 coefficients (each output's tap for that frame, or 0
// outside its window: one aligned load) and adds the products into the
// (m mod 8)-th of eight accumulators per channel. A sample is loaded once
// for all 16 outputs and nothing waits on a permute: against a permute of
// 16 frames per tap, about 15% fewer cycles a group for mono sources and
// 18% for stereo ones (llvm-mca, icelake-server). The lanes are the
// outputs, so there is no horizontal sum. The multiplies and adds are
// separate, each rounded, in sincDotGroup's order: the same values as the
// scalar kernels. Masked loads and stores confine the bus to the run's
// frames in the first group (whose lanes before the run's first row are
// off) and the last. VZEROUPPER before every return.

// sincLaneBelow[j] has the low j bits set: ANDN of two entries masks the
// bus floats of lanes lo to hi (entries 2lo and 2hi: 8-byte steps).

DATA sincLaneBelow<>+0(SB)/4, $0x0
DATA sincLaneBelow<>+4(SB)/4, $0x1
DATA sincLaneBelow<>+8(SB)/4, $0x3
DATA sincLaneBelow<>+12(SB)/4, $0x7
DATA sincLaneBelow<>+16(SB)/4, $0xf
DATA sincLaneBelow<>+20(SB)/4, $0x1f
DATA sincLaneBelow<>+24(SB)/4, $0x3f
DATA sincLaneBelow<>+28(SB)/4, $0x7f
DATA sincLaneBelow<>+32(SB)/4, $0xff
DATA sincLaneBelow<>+36(SB)/4, $0x1ff
DATA sincLaneBelow<>+40(SB)/4, $0x3ff
DATA sincLaneBelow<>+44(SB)/4, $0x7ff
DATA sincLaneBelow<>+48(SB)/4, $0xfff
DATA sincLaneBelow<>+52(SB)/4, $0x1fff
DATA sincLaneBelow<>+56(SB)/4, $0x3fff
DATA sincLaneBelow<>+60(SB)/4, $0x7fff
DATA sincLaneBelow<>+64(SB)/4, $0xffff
DATA sincLaneBelow<>+68(SB)/4, $0x1ffff
DATA sincLaneBelow<>+72(SB)/4, $0x3ffff
DATA sincLaneBelow<>+76(SB)/4, $0x7ffff
DATA sincLaneBelow<>+80(SB)/4, $0xfffff
DATA sincLaneBelow<>+84(SB)/4, $0x1fffff
DATA sincLaneBelow<>+88(SB)/4, $0x3fffff
DATA sincLaneBelow<>+92(SB)/4, $0x7fffff
DATA sincLaneBelow<>+96(SB)/4, $0xffffff
DATA sincLaneBelow<>+100(SB)/4, $0x1ffffff
DATA sincLaneBelow<>+104(SB)/4, $0x3ffffff
DATA sincLaneBelow<>+108(SB)/4, $0x7ffffff
DATA sincLaneBelow<>+112(SB)/4, $0xfffffff
DATA sincLaneBelow<>+116(SB)/4, $0x1fffffff
DATA sincLaneBelow<>+120(SB)/4, $0x3fffffff
DATA sincLaneBelow<>+124(SB)/4, $0x7fffffff
DATA sincLaneBelow<>+128(SB)/4, $0xffffffff
GLOBL sincLaneBelow<>(SB), RODATA|NOPTR, $132

// GROUPSETUP loads the arguments: DI out, CX n, SI the plane, R8 coef,
// R9 lane, R13 adv, R11 the group of row seq, BX its first lane (the
// first output's), Z15 the gains (gl, gr, gl, gr, ...). DI and SI then
// address lane 0 of the first group: before the run's first output and
// first frame, which the masks keep off.
#define GROUPSETUP \
	MOVQ out+0(FP), DI \
	MOVQ n+8(FP), CX \
	MOVQ x+16(FP), SI \
	MOVQ coef+24(FP), R8 \
	MOVQ lane+32(FP), R9 \
	MOVQ adv+40(FP), R13 \
	MOVL seq+52(FP), R11 \
	MOVL R11, BX \
	ANDL $15, BX \
	MOVL (R9)(R11*4), AX \
	SHLQ $2, AX \
	SUBQ AX, SI \
	SHRL $4, R11 \
	MOVQ BX, AX \
	SHLQ $3, AX \
	SUBQ AX, DI \
	VBROADCASTSS gl+56(FP), Z15 \
	VBROADCASTSS gr+60(FP), Z14 \
	MOVL $0xAAAA, AX \
	KMOVW AX, K3 \
	VMOVAPS Z14, K3, Z15

// GROUPMASK sets K1 and K2 to the bus floats (frames 0-7, 8-15) of the
// group's lanes from BX to DX = min(BX+CX, 16).
#define GROUPMASK \
	LEAQ (BX)(CX*1), DX \
	MOVL $16, AX \
	CMPQ DX, AX \
	CMOVQHI AX, DX \
	LEAQ sincLaneBelow<>(SB), R12 \
	MOVL (R12)(BX*8), AX \
	NOTL AX \
	ANDL (R12)(DX*8), AX \
	KMOVW AX, K1 \
	SHRL $16, AX \
	KMOVW AX, K2

// GROUPOUT adds the frames in Z4 (0-7) and Z5 (8-15), times the gains,
// into the bus under the masks.
#define GROUPOUT \
	VMULPS Z15, Z4, Z4 \
	VMULPS Z15, Z5, Z5 \
	VMOVUPS.Z (DI), K1, Z6 \
	VMOVUPS.Z 64(DI), K2, Z7 \
	VADDPS Z6, Z4, Z4 \
	VADDPS Z7, Z5, Z5 \
	VMOVUPS Z4, K1, (DI) \
	VMOVUPS Z5, K2, 64(DI)

// GROUPNEXT counts the group's outputs off CX and moves on to the next
// group: its window adv[R11] frames on (4-byte frames in a plane), its
// outputs 16 frames on, its group index (cycling), all lanes on.
#define GROUPNEXT \
	SUBQ DX, CX \
	ADDQ BX, CX \
	XORL BX, BX \
	MOVL (R13)(R11*4), AX \
	SHLQ $2, AX \
	ADDQ AX, SI \
	ADDQ $128, DI \
	INCL R11 \
	CMPL R11, groups+48(FP) \
	JB   2(PC) \
	XORL R11, R11

// MFIRST starts accumulator a with frame m of a mono span: its sample xo
// bytes into the window, its coefficients co bytes into the group's.
#define MFIRST(xo, co, a) \
	VBROADCASTSS xo(SI), a \
	VMULPS co(R10), a, a

// MTERM adds frame m into accumulator a, through t.
#define MTERM(xo, co, t, a) \
	VBROADCASTSS xo(SI), t \
	VMULPS co(R10), t, t \
	VADDPS t, a, a

// SFIRST and STERM are MFIRST and MTERM for both planes of a stereo span
// (the right one 8448 bytes after the left): accumulators l and r.
#define SFIRST(xo, co, l, r) \
	VMOVAPS co(R10), Z8 \
	VMULPS.BCST xo(SI), Z8, l \
	VMULPS.BCST (xo+8448)(SI), Z8, r

#define STERM(xo, co, l, r) \
	VMOVAPS co(R10), Z8 \
	VMULPS.BCST xo(SI), Z8, Z9 \
	VMULPS.BCST (xo+8448)(SI), Z8, Z10 \
	VADDPS Z9, l, l \
	VADDPS Z10, r, r

// SUM8 adds eight accumulators into a0 in the order sincDotGroup reduces
// its partial sums: ((a0+a1)+(a2+a3)) + ((a4+a5)+(a6+a7)).
#define SUM8(a0, a1, a2, a3, a4, a5, a6, a7) \
	VADDPS a1, a0, a0 \
	VADDPS a3, a2, a2 \
	VADDPS a5, a4, a4 \
	VADDPS a7, a6, a6 \
	VADDPS a2, a0, a0 \
	VADDPS a6, a4, a4 \
	VADDPS a4, a0, a0

// MTERMS56 sums the 56 frames of a mono span into Z0-Z7 (frame m into
// the (m mod 8)-th), the coefficients from R10; MTERMS64 the 64 of a
// longer span, the same 56 and 8 more.
#define MTERMS56 \
	MFIRST(0, 0, Z0) \
	MFIRST(4, 64, Z1) \
	MFIRST(8, 128, Z2) \
	MFIRST(12, 192, Z3) \
	MFIRST(16, 256, Z4) \
	MFIRST(20, 320, Z5) \
	MFIRST(24, 384, Z6) \
	MFIRST(28, 448, Z7) \
	MTERM(32, 512, Z8, Z0) \
	MTERM(36, 576, Z9, Z1) \
	MTERM(40, 640, Z10, Z2) \
	MTERM(44, 704, Z11, Z3) \
	MTERM(48, 768, Z8, Z4) \
	MTERM(52, 832, Z9, Z5) \
	MTERM(56, 896, Z10, Z6) \
	MTERM(60, 960, Z11, Z7) \
	MTERM(64, 1024, Z8, Z0) \
	MTERM(68, 1088, Z9, Z1) \
	MTERM(72, 1152, Z10, Z2) \
	MTERM(76, 1216, Z11, Z3) \
	MTERM(80, 1280, Z8, Z4) \
	MTERM(84, 1344, Z9, Z5) \
	MTERM(88, 1408, Z10, Z6) \
	MTERM(92, 1472, Z11, Z7) \
	MTERM(96, 1536, Z8, Z0) \
	MTERM(100, 1600, Z9, Z1) \
	MTERM(104, 1664, Z10, Z2) \
	MTERM(108, 1728, Z11, Z3) \
	MTERM(112, 1792, Z8, Z4) \
	MTERM(116, 1856, Z9, Z5) \
	MTERM(120, 1920, Z10, Z6) \
	MTERM(124, 1984, Z11, Z7) \
	MTERM(128, 2048, Z8, Z0) \
	MTERM(132, 2112, Z9, Z1) \
	MTERM(136, 2176, Z10, Z2) \
	MTERM(140, 2240, Z11, Z3) \
	MTERM(144, 2304, Z8, Z4) \
	MTERM(148, 2368, Z9, Z5) \
	MTERM(152, 2432, Z10, Z6) \
	MTERM(156, 2496, Z11, Z7) \
	MTERM(160, 2560, Z8, Z0) \
	MTERM(164, 2624, Z9, Z1) \
	MTERM(168, 2688, Z10, Z2) \
	MTERM(172, 2752, Z11, Z3) \
	MTERM(176, 2816, Z8, Z4) \
	MTERM(180, 2880, Z9, Z5) \
	MTERM(184, 2944, Z10, Z6) \
	MTERM(188, 3008, Z11, Z7) \
	MTERM(192, 3072, Z8, Z0) \
	MTERM(196, 3136, Z9, Z1) \
	MTERM(200, 3200, Z10, Z2) \
	MTERM(204, 3264, Z11, Z3) \
	MTERM(208, 3328, Z8, Z4) \
	MTERM(212, 3392, Z9, Z5) \
	MTERM(216, 3456, Z10, Z6) \
	MTERM(220, 3520, Z11, Z7)

#define MTERMS64 \
	MTERMS56 \
	MTERM(224, 3584, Z8, Z0) \
	MTERM(228, 3648, Z9, Z1) \
	MTERM(232, 3712, Z10, Z2) \
	MTERM(236, 3776, Z11, Z3) \
	MTERM(240, 3840, Z8, Z4) \
	MTERM(244, 3904, Z9, Z5) \
	MTERM(248, 3968, Z10, Z6) \
	MTERM(252, 4032, Z11, Z7)

// STERMS56 and STERMS64 are MTERMS56 and MTERMS64 for both planes of a
// stereo span: left into Z0-Z7, right into Z16-Z23.
#define STERMS56 \
	SFIRST(0, 0, Z0, Z16) \
	SFIRST(4, 64, Z1, Z17) \
	SFIRST(8, 128, Z2, Z18) \
	SFIRST(12, 192, Z3, Z19) \
	SFIRST(16, 256, Z4, Z20) \
	SFIRST(20, 320, Z5, Z21) \
	SFIRST(24, 384, Z6, Z22) \
	SFIRST(28, 448, Z7, Z23) \
	STERM(32, 512, Z0, Z16) \
	STERM(36, 576, Z1, Z17) \
	STERM(40, 640, Z2, Z18) \
	STERM(44, 704, Z3, Z19) \
	STERM(48, 768, Z4, Z20) \
	STERM(52, 832, Z5, Z21) \
	STERM(56, 896, Z6, Z22) \
	STERM(60, 960, Z7, Z23) \
	STERM(64, 1024, Z0, Z16) \
	STERM(68, 1088, Z1, Z17) \
	STERM(72, 1152, Z2, Z18) \
	STERM(76, 1216, Z3, Z19) \
	STERM(80, 1280, Z4, Z20) \
	STERM(84, 1344, Z5, Z21) \
	STERM(88, 1408, Z6, Z22) \
	STERM(92, 1472, Z7, Z23) \
	STERM(96, 1536, Z0, Z16) \
	STERM(100, 1600, Z1, Z17) \
	STERM(104, 1664, Z2, Z18) \
	STERM(108, 1728, Z3, Z19) \
	STERM(112, 1792, Z4, Z20) \
	STERM(116, 1856, Z5, Z21) \
	STERM(120, 1920, Z6, Z22) \
	STERM(124, 1984, Z7, Z23) \
	STERM(128, 2048, Z0, Z16) \
	STERM(132, 2112, Z1, Z17) \
	STERM(136, 2176, Z2, Z18) \
	STERM(140, 2240, Z3, Z19) \
	STERM(144, 2304, Z4, Z20) \
	STERM(148, 2368, Z5, Z21) \
	STERM(152, 2432, Z6, Z22) \
	STERM(156, 2496, Z7, Z23) \
	STERM(160, 2560, Z0, Z16) \
	STERM(164, 2624, Z1, Z17) \
	STERM(168, 2688, Z2, Z18) \
	STERM(172, 2752, Z3, Z19) \
	STERM(176, 2816, Z4, Z20) \
	STERM(180, 2880, Z5, Z21) \
	STERM(184, 2944, Z6, Z22) \
	STERM(188, 3008, Z7, Z23) \
	STERM(192, 3072, Z0, Z16) \
	STERM(196, 3136, Z1, Z17) \
	STERM(200, 3200, Z2, Z18) \
	STERM(204, 3264, Z3, Z19) \
	STERM(208, 3328, Z4, Z20) \
	STERM(212, 3392, Z5, Z21) \
	STERM(216, 3456, Z6, Z22) \
	STERM(220, 3520, Z7, Z23)

#define STERMS64 \
	STERMS56 \
	STERM(224, 3584, Z0, Z16) \
	STERM(228, 3648, Z1, Z17) \
	STERM(232, 3712, Z2, Z18) \
	STERM(236, 3776, Z3, Z19) \
	STERM(240, 3840, Z4, Z20) \
	STERM(244, 3904, Z5, Z21) \
	STERM(248, 3968, Z6, Z22) \
	STERM(252, 4032, Z7, Z23)

// MONOEND adds a mono group's 16 outputs (Z0-Z7 summed), each for both
// channels, into the bus and moves on to the next group.
#define MONOEND \
	SUM8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7) \
	GROUPMASK \
	VPERMPS Z0, Z13, Z4 \
	VPERMPS Z0, Z12, Z5 \
	GROUPOUT \
	GROUPNEXT

// STEREOEND is MONOEND for a stereo group: left Z0-Z7, right Z16-Z23,
// interleaved into frames.
#define STEREOEND \
	SUM8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7) \
	SUM8(Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23) \
	GROUPMASK \
	VMOVAPS Z0, Z4 \
	VPERMT2PS Z16, Z13, Z4 \
	VMOVAPS Z0, Z5 \
	VPERMT2PS Z16, Z12, Z5 \
	GROUPOUT \
	GROUPNEXT

// func sincMonoGroups56AVX512(out *frame, n int, x *float32, coef *float32, lane *int32, adv *uint32, groups, seq uint32, gl, gr float32)
//
// x is the run's plane (its first window's first frame); n at least 1.
// Accumulators Z0-Z7.
TEXT ·sincMonoGroups56AVX512(SB), NOSPLIT, $0-64
	GROUPSETUP
	VMOVDQU32 ·dupPairs(SB), Z13
	VMOVDQU32 ·dupPairs+64(SB), Z12

sm56:
	IMUL3Q $3584, R11, R10
	ADDQ R8, R10
	MTERMS56
	MONOEND
	TESTQ CX, CX
	JNZ  sm56
	VZEROUPPER
	RET

// func sincMonoGroups64AVX512(out *frame, n int, x *float32, coef *float32, lane *int32, adv *uint32, groups, seq uint32, gl, gr float32)
//
// x is the run's plane (its first window's first frame); n at least 1.
// Accumulators Z0-Z7.
TEXT ·sincMonoGroups64AVX512(SB), NOSPLIT, $0-64
	GROUPSETUP
	VMOVDQU32 ·dupPairs(SB), Z13
	VMOVDQU32 ·dupPairs+64(SB), Z12

sm64:
	IMUL3Q $4096, R11, R10
	ADDQ R8, R10
	MTERMS64
	MONOEND
	TESTQ CX, CX
	JNZ  sm64
	VZEROUPPER
	RET

// func sincStereoGroups56AVX512(out *frame, n int, x *float32, coef *float32, lane *int32, adv *uint32, groups, seq uint32, gl, gr float32)
//
// x is the left plane; the right one is sincStride floats on. Left in
// Z0-Z7, right in Z16-Z23.
TEXT ·sincStereoGroups56AVX512(SB), NOSPLIT, $0-64
	GROUPSETUP
	VMOVDQU32 ·zipPairs(SB), Z13
	VMOVDQU32 ·zipPairs+64(SB), Z12

ss56:
	IMUL3Q $3584, R11, R10
	ADDQ R8, R10
	STERMS56
	STEREOEND
	TESTQ CX, CX
	JNZ  ss56
	VZEROUPPER
	RET

// func sincStereoGroups64AVX512(out *frame, n int, x *float32, coef *float32, lane *int32, adv *uint32, groups, seq uint32, gl, gr float32)
//
// x is the left plane; the right one is sincStride floats on. Left in
// Z0-Z7, right in Z16-Z23.
TEXT ·sincStereoGroups64AVX512(SB), NOSPLIT, $0-64
	GROUPSETUP
	VMOVDQU32 ·zipPairs(SB), Z13
	VMOVDQU32 ·zipPairs+64(SB), Z12

ss64:
	IMUL3Q $4096, R11, R10
	ADDQ R8, R10
	STERMS64
	STEREOEND
	TESTQ CX, CX
	JNZ  ss64
	VZEROUPPER
	RET
