//go:build !steadyframe_scalar

#include "textflag.h"

// The AVX2 sinc kernel for the filters sincGroups lays out: the AVX-512
// group kernels (sinc_avx512_amd64.s) eight lanes at a time, for CPUs
// without AVX-512. A half-group is the first or last eight lanes of a
// group: its coefficients are the first or second 32 bytes of each
// frame's 64, and it reads the same span of frames, from the group's
// first window start. The same order of sums as the AVX-512 kernels and
// the scalar ones, so the same values. Sixteen registers hold eight
// accumulators for one channel only: a stereo source takes two passes,
// one per plane, each writing its channel of the bus. VMASKMOVPS confines
// the bus to the run's frames and the pass's channel. VZEROUPPER before
// every return.

// halfOnes has 16 words of ones and then 16 of zeros: the eight words
// from index 16-j on mask the first j floats of a ymm register (j up to
// 8), and those from 24-j the first j-8 of the next.

DATA halfOnes<>+0(SB)/4, $0xffffffff
DATA halfOnes<>+4(SB)/4, $0xffffffff
DATA halfOnes<>+8(SB)/4, $0xffffffff
DATA halfOnes<>+12(SB)/4, $0xffffffff
DATA halfOnes<>+16(SB)/4, $0xffffffff
DATA halfOnes<>+20(SB)/4, $0xffffffff
DATA halfOnes<>+24(SB)/4, $0xffffffff
DATA halfOnes<>+28(SB)/4, $0xffffffff
DATA halfOnes<>+32(SB)/4, $0xffffffff
DATA halfOnes<>+36(SB)/4, $0xffffffff
DATA halfOnes<>+40(SB)/4, $0xffffffff
DATA halfOnes<>+44(SB)/4, $0xffffffff
DATA halfOnes<>+48(SB)/4, $0xffffffff
DATA halfOnes<>+52(SB)/4, $0xffffffff
DATA halfOnes<>+56(SB)/4, $0xffffffff
DATA halfOnes<>+60(SB)/4, $0xffffffff
DATA halfOnes<>+64(SB)/4, $0
DATA halfOnes<>+68(SB)/4, $0
DATA halfOnes<>+72(SB)/4, $0
DATA halfOnes<>+76(SB)/4, $0
DATA halfOnes<>+80(SB)/4, $0
DATA halfOnes<>+84(SB)/4, $0
DATA halfOnes<>+88(SB)/4, $0
DATA halfOnes<>+92(SB)/4, $0
DATA halfOnes<>+96(SB)/4, $0
DATA halfOnes<>+100(SB)/4, $0
DATA halfOnes<>+104(SB)/4, $0
DATA halfOnes<>+108(SB)/4, $0
DATA halfOnes<>+112(SB)/4, $0
DATA halfOnes<>+116(SB)/4, $0
DATA halfOnes<>+120(SB)/4, $0
DATA halfOnes<>+124(SB)/4, $0
GLOBL halfOnes<>(SB), RODATA|NOPTR, $128

// HALFSETUP loads the arguments: DI out, CX n, SI the plane, R8 coef,
// R9 lane, R13 adv, R11 the half-group of row seq, BX its first lane (the
// first output's), Y15 the gains (gl, gr, gl, gr, ...). SI then
// addresses the group's first window start, DI the half-group's lane 0.
#define HALFSETUP \
	MOVQ out+0(FP), DI \
	MOVQ n+8(FP), CX \
	MOVQ x+16(FP), SI \
	MOVQ coef+24(FP), R8 \
	MOVQ lane+32(FP), R9 \
	MOVQ adv+40(FP), R13 \
	MOVL seq+52(FP), R11 \
	MOVL R11, BX \
	ANDL $7, BX \
	MOVL (R9)(R11*4), AX \
	SHLQ $2, AX \
	SUBQ AX, SI \
	SHRL $3, R11 \
	MOVQ BX, AX \
	SHLQ $3, AX \
	SUBQ AX, DI \
	VMOVSS gl+56(FP), X15 \
	VMOVSS gr+60(FP), X14 \
	VUNPCKLPS X14, X15, X15 \
	VBROADCASTSD X15, Y15

// HALFMASK sets Y12 and Y13 to the bus floats (frames 0-3, 4-7) of lanes
// BX to DX = min(BX+CX, 8) in the pass's channels: ones below 2DX, not
// below 2BX, and in the channel mask.
#define HALFMASK \
	LEAQ (BX)(CX*1), DX \
	MOVL $8, AX \
	CMPQ DX, AX \
	CMOVQHI AX, DX \
	LEAQ halfOnes<>+64(SB), AX \
	MOVQ DX, R10 \
	SHLQ $3, R10 \
	SUBQ R10, AX \
	VMOVDQU (AX), Y12 \
	VMOVDQU 32(AX), Y13 \
	LEAQ halfOnes<>+64(SB), AX \
	MOVQ BX, R10 \
	SHLQ $3, R10 \
	SUBQ R10, AX \
	VMOVDQU (AX), Y6 \
	VMOVDQU 32(AX), Y7 \
	VPANDN Y12, Y6, Y12 \
	VPANDN Y13, Y7, Y13 \
	MOVQ chans+64(FP), AX \
	VPAND (AX), Y12, Y12 \
	VPAND (AX), Y13, Y13

// HALFNEXT counts the half-group's outputs off CX and moves on: after a
// second half the window by adv[g] frames, the outputs 8 frames, the
// half-group index (cycling over 2×groups), all lanes on.
#define HALFNEXT \
	SUBQ DX, CX \
	ADDQ BX, CX \
	XORL BX, BX \
	TESTQ $1, R11 \
	JZ   5(PC) \
	MOVQ R11, DX \
	SHRQ $1, DX \
	MOVL (R13)(DX*4), AX \
	LEAQ (SI)(AX*4), SI \
	ADDQ $64, DI \
	INCL R11 \
	MOVL groups+48(FP), AX \
	SHLL $1, AX \
	CMPL R11, AX \
	JB   2(PC) \
	XORL R11, R11

// HFIRST starts accumulator a with frame m of the span: its sample xo
// bytes into the window, its coefficients co bytes into the half-group's.
// HTERM adds a frame into a, through t.
#define HFIRST(xo, co, a) \
	VBROADCASTSS xo(SI), a \
	VMULPS co(R10), a, a

#define HTERM(xo, co, t, a) \
	VBROADCASTSS xo(SI), t \
	VMULPS co(R10), t, t \
	VADDPS t, a, a

// HALFROW sets R10 to the coefficients of half-group R11 for a span of
// rowBytes per group: group R11/2, half R11 mod 2 (32 bytes on).
#define HALFROW(rowBytes) \
	MOVQ R11, R10 \
	SHRQ $1, R10 \
	IMUL3Q $rowBytes, R10, R10 \
	ADDQ R8, R10 \
	MOVQ R11, AX \
	ANDQ $1, AX \
	SHLQ $5, AX \
	ADDQ AX, R10

// HTERMS56 sums the 56 frames of the span into Y0-Y7 (frame m into the
// (m mod 8)-th); HTERMS64 the 64 of a longer span, the same 56 and 8
// more.
#define HTERMS56 \
	HFIRST(0, 0, Y0) \
	HFIRST(4, 64, Y1) \
	HFIRST(8, 128, Y2) \
	HFIRST(12, 192, Y3) \
	HFIRST(16, 256, Y4) \
	HFIRST(20, 320, Y5) \
	HFIRST(24, 384, Y6) \
	HFIRST(28, 448, Y7) \
	HTERM(32, 512, Y8, Y0) \
	HTERM(36, 576, Y9, Y1) \
	HTERM(40, 640, Y10, Y2) \
	HTERM(44, 704, Y11, Y3) \
	HTERM(48, 768, Y8, Y4) \
	HTERM(52, 832, Y9, Y5) \
	HTERM(56, 896, Y10, Y6) \
	HTERM(60, 960, Y11, Y7) \
	HTERM(64, 1024, Y8, Y0) \
	HTERM(68, 1088, Y9, Y1) \
	HTERM(72, 1152, Y10, Y2) \
	HTERM(76, 1216, Y11, Y3) \
	HTERM(80, 1280, Y8, Y4) \
	HTERM(84, 1344, Y9, Y5) \
	HTERM(88, 1408, Y10, Y6) \
	HTERM(92, 1472, Y11, Y7) \
	HTERM(96, 1536, Y8, Y0) \
	HTERM(100, 1600, Y9, Y1) \
	HTERM(104, 1664, Y10, Y2) \
	HTERM(108, 1728, Y11, Y3) \
	HTERM(112, 1792, Y8, Y4) \
	HTERM(116, 1856, Y9, Y5) \
	HTERM(120, 1920, Y10, Y6) \
	HTERM(124, 1984, Y11, Y7) \
	HTERM(128, 2048, Y8, Y0) \
	HTERM(132, 2112, Y9, Y1) \
	HTERM(136, 2176, Y10, Y2) \
	HTERM(140, 2240, Y11, Y3) \
	HTERM(144, 2304, Y8, Y4) \
	HTERM(148, 2368, Y9, Y5) \
	HTERM(152, 2432, Y10, Y6) \
	HTERM(156, 2496, Y11, Y7) \
	HTERM(160, 2560, Y8, Y0) \
	HTERM(164, 2624, Y9, Y1) \
	HTERM(168, 2688, Y10, Y2) \
	HTERM(172, 2752, Y11, Y3) \
	HTERM(176, 2816, Y8, Y4) \
	HTERM(180, 2880, Y9, Y5) \
	HTERM(184, 2944, Y10, Y6) \
	HTERM(188, 3008, Y11, Y7) \
	HTERM(192, 3072, Y8, Y0) \
	HTERM(196, 3136, Y9, Y1) \
	HTERM(200, 3200, Y10, Y2) \
	HTERM(204, 3264, Y11, Y3) \
	HTERM(208, 3328, Y8, Y4) \
	HTERM(212, 3392, Y9, Y5) \
	HTERM(216, 3456, Y10, Y6) \
	HTERM(220, 3520, Y11, Y7)

#define HTERMS64 \
	HTERMS56 \
	HTERM(224, 3584, Y8, Y0) \
	HTERM(228, 3648, Y9, Y1) \
	HTERM(232, 3712, Y10, Y2) \
	HTERM(236, 3776, Y11, Y3) \
	HTERM(240, 3840, Y8, Y4) \
	HTERM(244, 3904, Y9, Y5) \
	HTERM(248, 3968, Y10, Y6) \
	HTERM(252, 4032, Y11, Y7)

// HALFEND sums Y0-Y7 into the half-group's eight outputs, adds them
// times the gains into the bus under the masks, and moves on.
#define HALFEND \
	VADDPS Y1, Y0, Y0 \
	VADDPS Y3, Y2, Y2 \
	VADDPS Y5, Y4, Y4 \
	VADDPS Y7, Y6, Y6 \
	VADDPS Y2, Y0, Y0 \
	VADDPS Y6, Y4, Y4 \
	VADDPS Y4, Y0, Y0 \
	HALFMASK \
	VMOVDQU ·dupPairs(SB), Y6 \
	VPERMPS Y0, Y6, Y4 \
	VMOVDQU ·dupPairs+32(SB), Y6 \
	VPERMPS Y0, Y6, Y5 \
	VMULPS Y15, Y4, Y4 \
	VMULPS Y15, Y5, Y5 \
	VMASKMOVPS (DI), Y12, Y6 \
	VMASKMOVPS 32(DI), Y13, Y7 \
	VADDPS Y6, Y4, Y4 \
	VADDPS Y7, Y5, Y5 \
	VMASKMOVPS Y4, Y12, (DI) \
	VMASKMOVPS Y5, Y13, 32(DI) \
	HALFNEXT

// func sincGroups56AVX2(out *frame, n int, x *float32, coef *float32, lane *int32, adv *uint32, groups, seq uint32, gl, gr float32, chans *[8]uint32)
//
// x is a plane of the run's frames; chans masks the bus floats the pass
// writes: both channels of a frame, or one. Accumulators Y0-Y7.
TEXT ·sincGroups56AVX2(SB), NOSPLIT, $0-72
	HALFSETUP

hg56:
	HALFROW(3584)
	HTERMS56
	HALFEND
	TESTQ CX, CX
	JNZ  hg56
	VZEROUPPER
	RET

// func sincGroups64AVX2(out *frame, n int, x *float32, coef *float32, lane *int32, adv *uint32, groups, seq uint32, gl, gr float32, chans *[8]uint32)
//
// x is a plane of the run's frames; chans masks the bus floats the pass
// writes: both channels of a frame, or one. Accumulators Y0-Y7.
TEXT ·sincGroups64AVX2(SB), NOSPLIT, $0-72
	HALFSETUP

hg64:
	HALFROW(4096)
	HTERMS64
	HALFEND
	TESTQ CX, CX
	JNZ  hg64
	VZEROUPPER
	RET
