//go:build !steadyframe_scalar

#include "textflag.h"

// The AVX-512 sinc kernels for the filters sincGroups lays out
// (resample.go): upsampling to 48 taps. Each computes 16 consecutive
// outputs at once, one per lane. For each of the 48 taps, one permute
// gathers the 16 outputs' samples out of the 16 frames from the group's
// first window (each lane's window starts 0 to 15 frames later: the
// group's lane offsets), and a multiply and an add bring in the taps'
// aligned row of coefficients. Tap k goes into the (k mod 8)-th of eight
// accumulators per channel: with four, a group waited on chains of twelve
// dependent adds, and BenchmarkMix32/vector-sinc took 15-25% longer. The
// lanes are the outputs, so there is no horizontal sum. The multiplies
// and adds are separate, each rounded, in sincDot8's order: the same bits
// as the scalar kernels. Masked loads and stores confine the bus
// to the run's frames in the first group (whose lanes before the run's
// first row are off) and the last. VZEROUPPER before every return.

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

// sincDupLo and sincDupHi duplicate lanes 0-7 and 8-15 of a mono group
// into L, R pairs.
DATA sincDupLo<>+0(SB)/4, $0
DATA sincDupLo<>+4(SB)/4, $0
DATA sincDupLo<>+8(SB)/4, $1
DATA sincDupLo<>+12(SB)/4, $1
DATA sincDupLo<>+16(SB)/4, $2
DATA sincDupLo<>+20(SB)/4, $2
DATA sincDupLo<>+24(SB)/4, $3
DATA sincDupLo<>+28(SB)/4, $3
DATA sincDupLo<>+32(SB)/4, $4
DATA sincDupLo<>+36(SB)/4, $4
DATA sincDupLo<>+40(SB)/4, $5
DATA sincDupLo<>+44(SB)/4, $5
DATA sincDupLo<>+48(SB)/4, $6
DATA sincDupLo<>+52(SB)/4, $6
DATA sincDupLo<>+56(SB)/4, $7
DATA sincDupLo<>+60(SB)/4, $7
GLOBL sincDupLo<>(SB), RODATA|NOPTR, $64
DATA sincDupHi<>+0(SB)/4, $8
DATA sincDupHi<>+4(SB)/4, $8
DATA sincDupHi<>+8(SB)/4, $9
DATA sincDupHi<>+12(SB)/4, $9
DATA sincDupHi<>+16(SB)/4, $10
DATA sincDupHi<>+20(SB)/4, $10
DATA sincDupHi<>+24(SB)/4, $11
DATA sincDupHi<>+28(SB)/4, $11
DATA sincDupHi<>+32(SB)/4, $12
DATA sincDupHi<>+36(SB)/4, $12
DATA sincDupHi<>+40(SB)/4, $13
DATA sincDupHi<>+44(SB)/4, $13
DATA sincDupHi<>+48(SB)/4, $14
DATA sincDupHi<>+52(SB)/4, $14
DATA sincDupHi<>+56(SB)/4, $15
DATA sincDupHi<>+60(SB)/4, $15
GLOBL sincDupHi<>(SB), RODATA|NOPTR, $64

// sincZipLo and sincZipHi interleave lanes 0-7 and 8-15 of a left and a
// right group (VPERMT2PS indices: 16 and up are the right group).
DATA sincZipLo<>+0(SB)/4, $0
DATA sincZipLo<>+4(SB)/4, $16
DATA sincZipLo<>+8(SB)/4, $1
DATA sincZipLo<>+12(SB)/4, $17
DATA sincZipLo<>+16(SB)/4, $2
DATA sincZipLo<>+20(SB)/4, $18
DATA sincZipLo<>+24(SB)/4, $3
DATA sincZipLo<>+28(SB)/4, $19
DATA sincZipLo<>+32(SB)/4, $4
DATA sincZipLo<>+36(SB)/4, $20
DATA sincZipLo<>+40(SB)/4, $5
DATA sincZipLo<>+44(SB)/4, $21
DATA sincZipLo<>+48(SB)/4, $6
DATA sincZipLo<>+52(SB)/4, $22
DATA sincZipLo<>+56(SB)/4, $7
DATA sincZipLo<>+60(SB)/4, $23
GLOBL sincZipLo<>(SB), RODATA|NOPTR, $64
DATA sincZipHi<>+0(SB)/4, $8
DATA sincZipHi<>+4(SB)/4, $24
DATA sincZipHi<>+8(SB)/4, $9
DATA sincZipHi<>+12(SB)/4, $25
DATA sincZipHi<>+16(SB)/4, $10
DATA sincZipHi<>+20(SB)/4, $26
DATA sincZipHi<>+24(SB)/4, $11
DATA sincZipHi<>+28(SB)/4, $27
DATA sincZipHi<>+32(SB)/4, $12
DATA sincZipHi<>+36(SB)/4, $28
DATA sincZipHi<>+40(SB)/4, $13
DATA sincZipHi<>+44(SB)/4, $29
DATA sincZipHi<>+48(SB)/4, $14
DATA sincZipHi<>+52(SB)/4, $30
DATA sincZipHi<>+56(SB)/4, $15
DATA sincZipHi<>+60(SB)/4, $31
GLOBL sincZipHi<>(SB), RODATA|NOPTR, $64

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

// GROUPSTART loads group R11's lane offsets into Z30 and points R10 at
// its coefficients: 48 taps of 16 floats, 3072 bytes.
#define GROUPSTART \
	MOVQ R11, AX \
	SHLQ $6, AX \
	VMOVDQU32 (R9)(AX*1), Z30 \
	IMUL3Q $3072, R11, R10 \
	ADDQ R8, R10

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

// MFIRST starts accumulator a with a mono tap: its samples xo bytes into
// the window, its coefficients co bytes into the group's.
#define MFIRST(xo, co, a) \
	VPERMPS xo(SI), Z30, a \
	VMULPS co(R10), a, a

// MTAP adds a mono tap into accumulator a, through t.
#define MTAP(xo, co, t, a) \
	VPERMPS xo(SI), Z30, t \
	VMULPS co(R10), t, t \
	VADDPS t, a, a

// SFIRST and STAP are MFIRST and MTAP for both planes of a stereo window
// (the right one 8448 bytes after the left): accumulators l and r.
#define SFIRST(xo, co, l, r) \
	VMOVAPS co(R10), Z8 \
	VPERMPS xo(SI), Z30, l \
	VPERMPS (xo+8448)(SI), Z30, r \
	VMULPS Z8, l, l \
	VMULPS Z8, r, r

#define STAP(xo, co, l, r) \
	VMOVAPS co(R10), Z8 \
	VPERMPS xo(SI), Z30, Z9 \
	VPERMPS (xo+8448)(SI), Z30, Z10 \
	VMULPS Z8, Z9, Z9 \
	VMULPS Z8, Z10, Z10 \
	VADDPS Z9, l, l \
	VADDPS Z10, r, r

// func sincMonoGroupsAVX512(out *frame, n int, x *float32, coef *float32, lane *int32, adv *uint32, groups, seq uint32, gl, gr float32)
//
// x is the run's plane (its first window's first frame); n at least 1.
TEXT ·sincMonoGroupsAVX512(SB), NOSPLIT, $0-64
	GROUPSETUP
	VMOVDQU32 sincDupLo<>(SB), Z13
	VMOVDQU32 sincDupHi<>(SB), Z12

smg:
	GROUPSTART
	MFIRST(0, 0, Z0)
	MFIRST(4, 64, Z1)
	MFIRST(8, 128, Z2)
	MFIRST(12, 192, Z3)
	MFIRST(16, 256, Z4)
	MFIRST(20, 320, Z5)
	MFIRST(24, 384, Z6)
	MFIRST(28, 448, Z7)
	MTAP(32, 512, Z8, Z0)
	MTAP(36, 576, Z9, Z1)
	MTAP(40, 640, Z10, Z2)
	MTAP(44, 704, Z11, Z3)
	MTAP(48, 768, Z8, Z4)
	MTAP(52, 832, Z9, Z5)
	MTAP(56, 896, Z10, Z6)
	MTAP(60, 960, Z11, Z7)
	MTAP(64, 1024, Z8, Z0)
	MTAP(68, 1088, Z9, Z1)
	MTAP(72, 1152, Z10, Z2)
	MTAP(76, 1216, Z11, Z3)
	MTAP(80, 1280, Z8, Z4)
	MTAP(84, 1344, Z9, Z5)
	MTAP(88, 1408, Z10, Z6)
	MTAP(92, 1472, Z11, Z7)
	MTAP(96, 1536, Z8, Z0)
	MTAP(100, 1600, Z9, Z1)
	MTAP(104, 1664, Z10, Z2)
	MTAP(108, 1728, Z11, Z3)
	MTAP(112, 1792, Z8, Z4)
	MTAP(116, 1856, Z9, Z5)
	MTAP(120, 1920, Z10, Z6)
	MTAP(124, 1984, Z11, Z7)
	MTAP(128, 2048, Z8, Z0)
	MTAP(132, 2112, Z9, Z1)
	MTAP(136, 2176, Z10, Z2)
	MTAP(140, 2240, Z11, Z3)
	MTAP(144, 2304, Z8, Z4)
	MTAP(148, 2368, Z9, Z5)
	MTAP(152, 2432, Z10, Z6)
	MTAP(156, 2496, Z11, Z7)
	MTAP(160, 2560, Z8, Z0)
	MTAP(164, 2624, Z9, Z1)
	MTAP(168, 2688, Z10, Z2)
	MTAP(172, 2752, Z11, Z3)
	MTAP(176, 2816, Z8, Z4)
	MTAP(180, 2880, Z9, Z5)
	MTAP(184, 2944, Z10, Z6)
	MTAP(188, 3008, Z11, Z7)
	VADDPS Z1, Z0, Z0
	VADDPS Z3, Z2, Z2
	VADDPS Z5, Z4, Z4
	VADDPS Z7, Z6, Z6
	VADDPS Z2, Z0, Z0
	VADDPS Z6, Z4, Z4
	VADDPS Z4, Z0, Z0
	GROUPMASK
	VPERMPS Z0, Z13, Z4
	VPERMPS Z0, Z12, Z5
	GROUPOUT
	GROUPNEXT
	TESTQ CX, CX
	JNZ  smg
	VZEROUPPER
	RET

// func sincStereoGroupsAVX512(out *frame, n int, x *float32, coef *float32, lane *int32, adv *uint32, groups, seq uint32, gl, gr float32)
//
// x is the left plane; the right one is sincStride floats on. Left in
// Z0-Z7, right in Z16-Z23.
TEXT ·sincStereoGroupsAVX512(SB), NOSPLIT, $0-64
	GROUPSETUP
	VMOVDQU32 sincZipLo<>(SB), Z13
	VMOVDQU32 sincZipHi<>(SB), Z12

ssg:
	GROUPSTART
	SFIRST(0, 0, Z0, Z16)
	SFIRST(4, 64, Z1, Z17)
	SFIRST(8, 128, Z2, Z18)
	SFIRST(12, 192, Z3, Z19)
	SFIRST(16, 256, Z4, Z20)
	SFIRST(20, 320, Z5, Z21)
	SFIRST(24, 384, Z6, Z22)
	SFIRST(28, 448, Z7, Z23)
	STAP(32, 512, Z0, Z16)
	STAP(36, 576, Z1, Z17)
	STAP(40, 640, Z2, Z18)
	STAP(44, 704, Z3, Z19)
	STAP(48, 768, Z4, Z20)
	STAP(52, 832, Z5, Z21)
	STAP(56, 896, Z6, Z22)
	STAP(60, 960, Z7, Z23)
	STAP(64, 1024, Z0, Z16)
	STAP(68, 1088, Z1, Z17)
	STAP(72, 1152, Z2, Z18)
	STAP(76, 1216, Z3, Z19)
	STAP(80, 1280, Z4, Z20)
	STAP(84, 1344, Z5, Z21)
	STAP(88, 1408, Z6, Z22)
	STAP(92, 1472, Z7, Z23)
	STAP(96, 1536, Z0, Z16)
	STAP(100, 1600, Z1, Z17)
	STAP(104, 1664, Z2, Z18)
	STAP(108, 1728, Z3, Z19)
	STAP(112, 1792, Z4, Z20)
	STAP(116, 1856, Z5, Z21)
	STAP(120, 1920, Z6, Z22)
	STAP(124, 1984, Z7, Z23)
	STAP(128, 2048, Z0, Z16)
	STAP(132, 2112, Z1, Z17)
	STAP(136, 2176, Z2, Z18)
	STAP(140, 2240, Z3, Z19)
	STAP(144, 2304, Z4, Z20)
	STAP(148, 2368, Z5, Z21)
	STAP(152, 2432, Z6, Z22)
	STAP(156, 2496, Z7, Z23)
	STAP(160, 2560, Z0, Z16)
	STAP(164, 2624, Z1, Z17)
	STAP(168, 2688, Z2, Z18)
	STAP(172, 2752, Z3, Z19)
	STAP(176, 2816, Z4, Z20)
	STAP(180, 2880, Z5, Z21)
	STAP(184, 2944, Z6, Z22)
	STAP(188, 3008, Z7, Z23)
	VADDPS Z1, Z0, Z0
	VADDPS Z3, Z2, Z2
	VADDPS Z5, Z4, Z4
	VADDPS Z7, Z6, Z6
	VADDPS Z2, Z0, Z0
	VADDPS Z6, Z4, Z4
	VADDPS Z4, Z0, Z0
	VADDPS Z17, Z16, Z16
	VADDPS Z19, Z18, Z18
	VADDPS Z21, Z20, Z20
	VADDPS Z23, Z22, Z22
	VADDPS Z18, Z16, Z16
	VADDPS Z22, Z20, Z20
	VADDPS Z20, Z16, Z16
	GROUPMASK
	VMOVAPS Z0, Z4
	VPERMT2PS Z16, Z13, Z4
	VMOVAPS Z0, Z5
	VPERMT2PS Z16, Z12, Z5
	GROUPOUT
	GROUPNEXT
	TESTQ CX, CX
	JNZ  ssg
	VZEROUPPER
	RET
