//go:build !steadyframe_scalar

#include "textflag.h"

// The AVX2 sinc kernel for the filters sincGroups lays out: the AVX-512
// group kernels (sinc_avx512_amd64.s) eight lanes at a time, for CPUs
// without AVX-512. A half-group is the first or last eight lanes of a
// group: its coefficients are the first or second 32 bytes of each tap's
// 64, its lane offsets the group's less its first one's. The same order
// of sums as the AVX-512 kernels and the scalar ones, so the same bits.
// Sixteen registers hold eight accumulators for one channel only: a
// stereo source takes two passes, one per plane, each writing its
// channel of the bus. VMASKMOVPS confines the bus to the run's frames
// and the pass's channel. VZEROUPPER before every return.

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
DATA halfOnes<>+64(SB)/4, $0x0
DATA halfOnes<>+68(SB)/4, $0x0
DATA halfOnes<>+72(SB)/4, $0x0
DATA halfOnes<>+76(SB)/4, $0x0
DATA halfOnes<>+80(SB)/4, $0x0
DATA halfOnes<>+84(SB)/4, $0x0
DATA halfOnes<>+88(SB)/4, $0x0
DATA halfOnes<>+92(SB)/4, $0x0
DATA halfOnes<>+96(SB)/4, $0x0
DATA halfOnes<>+100(SB)/4, $0x0
DATA halfOnes<>+104(SB)/4, $0x0
DATA halfOnes<>+108(SB)/4, $0x0
DATA halfOnes<>+112(SB)/4, $0x0
DATA halfOnes<>+116(SB)/4, $0x0
DATA halfOnes<>+120(SB)/4, $0x0
DATA halfOnes<>+124(SB)/4, $0x0
GLOBL halfOnes<>(SB), RODATA|NOPTR, $128

// halfDupLo and halfDupHi duplicate lanes 0-3 and 4-7 into L, R pairs.
DATA halfDupLo<>+0(SB)/4, $0
DATA halfDupLo<>+4(SB)/4, $0
DATA halfDupLo<>+8(SB)/4, $1
DATA halfDupLo<>+12(SB)/4, $1
DATA halfDupLo<>+16(SB)/4, $2
DATA halfDupLo<>+20(SB)/4, $2
DATA halfDupLo<>+24(SB)/4, $3
DATA halfDupLo<>+28(SB)/4, $3
GLOBL halfDupLo<>(SB), RODATA|NOPTR, $32
DATA halfDupHi<>+0(SB)/4, $4
DATA halfDupHi<>+4(SB)/4, $4
DATA halfDupHi<>+8(SB)/4, $5
DATA halfDupHi<>+12(SB)/4, $5
DATA halfDupHi<>+16(SB)/4, $6
DATA halfDupHi<>+20(SB)/4, $6
DATA halfDupHi<>+24(SB)/4, $7
DATA halfDupHi<>+28(SB)/4, $7
GLOBL halfDupHi<>(SB), RODATA|NOPTR, $32

// HALFSETUP loads the arguments: DI out, CX n, SI the plane, R8 coef,
// R9 lane, R13 adv, R12 adv8, R11 the half-group of row seq, BX its first
// lane (the first output's), Y15 the gains (gl, gr, gl, gr, ...). DI and
// SI then address lane 0 of the first half-group.
#define HALFSETUP \
	MOVQ out+0(FP), DI \
	MOVQ n+8(FP), CX \
	MOVQ x+16(FP), SI \
	MOVQ coef+24(FP), R8 \
	MOVQ lane+32(FP), R9 \
	MOVQ adv+40(FP), R13 \
	MOVQ adv8+48(FP), R12 \
	MOVL seq+60(FP), R11 \
	MOVL R11, BX \
	ANDL $7, BX \
	MOVL (R9)(R11*4), AX \
	ANDL $-8, R11 \
	SUBL (R9)(R11*4), AX \
	SHLQ $2, AX \
	SUBQ AX, SI \
	SHRL $3, R11 \
	MOVQ BX, AX \
	SHLQ $3, AX \
	SUBQ AX, DI \
	VMOVSS gl+64(FP), X15 \
	VMOVSS gr+68(FP), X14 \
	VUNPCKLPS X14, X15, X15 \
	VBROADCASTSD X15, Y15

// HALFSTART loads half-group R11's lane offsets, less its first, into
// Y14 and points R10 at its coefficients: group R11/2's 3072 bytes, and
// 32 bytes on for the second half.
#define HALFSTART \
	MOVQ R11, AX \
	SHLQ $5, AX \
	VMOVDQU (R9)(AX*1), Y14 \
	VPBROADCASTD (R9)(AX*1), Y8 \
	VPSUBD Y8, Y14, Y14 \
	MOVQ R11, R10 \
	SHRQ $1, R10 \
	IMUL3Q $3072, R10, R10 \
	ADDQ R8, R10 \
	MOVQ R11, AX \
	ANDQ $1, AX \
	SHLQ $5, AX \
	ADDQ AX, R10

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
	MOVQ chans+72(FP), AX \
	VPAND (AX), Y12, Y12 \
	VPAND (AX), Y13, Y13

// HALFNEXT counts the half-group's outputs off CX and moves on: the
// window by adv8[g] frames after a first half, adv[g]-adv8[g] after a
// second, the outputs 8 frames, the half-group index (cycling over
// 2×groups), all lanes on.
#define HALFNEXT \
	SUBQ DX, CX \
	ADDQ BX, CX \
	XORL BX, BX \
	MOVQ R11, DX \
	SHRQ $1, DX \
	MOVL (R12)(DX*4), AX \
	TESTQ $1, R11 \
	JZ   3(PC) \
	NEGL AX \
	ADDL (R13)(DX*4), AX \
	SHLQ $2, AX \
	ADDQ AX, SI \
	ADDQ $64, DI \
	INCL R11 \
	MOVL groups+56(FP), AX \
	SHLL $1, AX \
	CMPL R11, AX \
	JB   2(PC) \
	XORL R11, R11

// HFIRST starts accumulator a with a tap: its samples xo bytes into the
// window, its coefficients co bytes into the half-group's. HTAP adds a
// tap into a, through t.
#define HFIRST(xo, co, a) \
	VPERMPS xo(SI), Y14, a \
	VMULPS co(R10), a, a

#define HTAP(xo, co, t, a) \
	VPERMPS xo(SI), Y14, t \
	VMULPS co(R10), t, t \
	VADDPS t, a, a

// func sincGroupsAVX2(out *frame, n int, x *float32, coef *float32, lane *int32, adv, adv8 *uint32, groups, seq uint32, gl, gr float32, chans *[8]uint32)
//
// x is a plane of the run's frames; chans masks the bus floats the pass
// writes: both channels of a frame, or one. Accumulators Y0-Y7.
TEXT ·sincGroupsAVX2(SB), NOSPLIT, $0-80
	HALFSETUP

hg:
	HALFSTART
	HFIRST(0, 0, Y0)
	HFIRST(4, 64, Y1)
	HFIRST(8, 128, Y2)
	HFIRST(12, 192, Y3)
	HFIRST(16, 256, Y4)
	HFIRST(20, 320, Y5)
	HFIRST(24, 384, Y6)
	HFIRST(28, 448, Y7)
	HTAP(32, 512, Y8, Y0)
	HTAP(36, 576, Y9, Y1)
	HTAP(40, 640, Y10, Y2)
	HTAP(44, 704, Y11, Y3)
	HTAP(48, 768, Y8, Y4)
	HTAP(52, 832, Y9, Y5)
	HTAP(56, 896, Y10, Y6)
	HTAP(60, 960, Y11, Y7)
	HTAP(64, 1024, Y8, Y0)
	HTAP(68, 1088, Y9, Y1)
	HTAP(72, 1152, Y10, Y2)
	HTAP(76, 1216, Y11, Y3)
	HTAP(80, 1280, Y8, Y4)
	HTAP(84, 1344, Y9, Y5)
	HTAP(88, 1408, Y10, Y6)
	HTAP(92, 1472, Y11, Y7)
	HTAP(96, 1536, Y8, Y0)
	HTAP(100, 1600, Y9, Y1)
	HTAP(104, 1664, Y10, Y2)
	HTAP(108, 1728, Y11, Y3)
	HTAP(112, 1792, Y8, Y4)
	HTAP(116, 1856, Y9, Y5)
	HTAP(120, 1920, Y10, Y6)
	HTAP(124, 1984, Y11, Y7)
	HTAP(128, 2048, Y8, Y0)
	HTAP(132, 2112, Y9, Y1)
	HTAP(136, 2176, Y10, Y2)
	HTAP(140, 2240, Y11, Y3)
	HTAP(144, 2304, Y8, Y4)
	HTAP(148, 2368, Y9, Y5)
	HTAP(152, 2432, Y10, Y6)
	HTAP(156, 2496, Y11, Y7)
	HTAP(160, 2560, Y8, Y0)
	HTAP(164, 2624, Y9, Y1)
	HTAP(168, 2688, Y10, Y2)
	HTAP(172, 2752, Y11, Y3)
	HTAP(176, 2816, Y8, Y4)
	HTAP(180, 2880, Y9, Y5)
	HTAP(184, 2944, Y10, Y6)
	HTAP(188, 3008, Y11, Y7)
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y5, Y4, Y4
	VADDPS Y7, Y6, Y6
	VADDPS Y2, Y0, Y0
	VADDPS Y6, Y4, Y4
	VADDPS Y4, Y0, Y0
	HALFMASK
	VMOVDQU halfDupLo<>(SB), Y6
	VPERMPS Y0, Y6, Y4
	VMOVDQU halfDupHi<>(SB), Y6
	VPERMPS Y0, Y6, Y5
	VMULPS Y15, Y4, Y4
	VMULPS Y15, Y5, Y5
	VMASKMOVPS (DI), Y12, Y6
	VMASKMOVPS 32(DI), Y13, Y7
	VADDPS Y6, Y4, Y4
	VADDPS Y7, Y5, Y5
	VMASKMOVPS Y4, Y12, (DI)
	VMASKMOVPS Y5, Y13, 32(DI)
	HALFNEXT
	TESTQ CX, CX
	JNZ  hg
	VZEROUPPER
	RET
