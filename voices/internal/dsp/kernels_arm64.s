//go:build !steadyframe_scalar

#include "textflag.h"

// NEON versions of the sinc's group filter (kernels_arm64.go): a quarter
// of a group, four consecutive outputs one per lane, the group kernels of
// kernels_amd64.s four lanes wide. For each frame m of the group's span
// (terms frames from its first window start) the quarter multiplies the
// frame's sample by its four coefficients (each output's tap, or 0
// outside its window) and adds the products into the (m mod 8)-th of
// eight accumulators; the first eight frames start them. Then the
// accumulators are summed as sincDotGroup sums them, and the four outputs
// added, times the gains, into the bus. Every multiply and add is
// separate and rounded, so the bits are the scalar kernels'.
//
// Go's assembler has no vector FMUL and FADD for floats, so they are
// WORDs (Arm A64 encodings, 4S arrangement). Fused multiply-adds (FMLA)
// are not used: they would round once where the scalar code rounds twice.

// FMULE sets Vd = Vn × Vm.S[i], FMULV Vd = Vn × Vm and FADDV Vd = Vn + Vm,
// lane by lane (4 × float32).
#define FMULE(d, n, m, i) WORD $(0x4F809000 | ((i&1)<<21) | ((i>>1)<<11) | ((m>>4)<<20) | ((m&15)<<16) | (n<<5) | d)
#define FMULV(d, n, m) WORD $(0x6E20DC00 | (m<<16) | (n<<5) | d)
#define FADDV(d, n, m) WORD $(0x4E20D400 | (m<<16) | (n<<5) | d)

// MSTART starts accumulator a with a frame whose coefficients lie off
// bytes past R1 (loaded into register c, named cf), its sample in lane i
// of register s.
#define MSTART(off, cf, c, s, i, a) \
	FMOVQ off(R1), cf \
	FMULE(a, c, s, i)

// MTERM adds such a frame into accumulator a, through t.
#define MTERM(off, cf, c, s, i, t, a) \
	FMOVQ off(R1), cf \
	FMULE(t, c, s, i) \
	FADDV(a, a, t)

// SUM8 adds accumulators b..b+7 into b in sincDotGroup's order:
// ((a0+a1)+(a2+a3)) + ((a4+a5)+(a6+a7)).
#define SUM8(b0, b1, b2, b3, b4, b5, b6, b7) \
	FADDV(b0, b0, b1) \
	FADDV(b2, b2, b3) \
	FADDV(b4, b4, b5) \
	FADDV(b6, b6, b7) \
	FADDV(b0, b0, b2) \
	FADDV(b4, b4, b6) \
	FADDV(b0, b0, b4)

// OUT4 adds the four frames in V24 (0-1) and V25 (2-3), times the gains
// (V30), into the bus at R2 and moves R2 on.
#define OUT4 \
	FMULV(24, 24, 30) \
	FMULV(25, 25, 30) \
	FMOVQ (R2), F28 \
	FMOVQ 16(R2), F29 \
	FADDV(24, 28, 24) \
	FADDV(25, 29, 25) \
	FMOVQ F24, (R2) \
	FMOVQ F25, 16(R2) \
	ADD $32, R2

// func sincQuartersMonoNEON(out *Frame, nq int, x *float32, coef *float32, terms int, gains *[4]float32)
//
// nq quarters of one group: x is the group's first window start in the
// plane, coef the first quarter's coefficients (frame m's four at 64m
// bytes on; the next quarter's 16 bytes on), gains the gains gl, gr, gl, gr.
// terms is 56 or 64.
TEXT ·sincQuartersMonoNEON(SB), NOSPLIT, $0-48
	MOVD out+0(FP), R2
	MOVD nq+8(FP), R3
	MOVD x+16(FP), R4
	MOVD coef+24(FP), R5
	MOVD terms+32(FP), R6
	MOVD gains+40(FP), R7
	FMOVQ (R7), F30

mquarter:
	MOVD R4, R0
	MOVD R5, R1
	FMOVQ (R0), F16
	FMOVQ 16(R0), F17
	MSTART(0, F18, 18, 16, 0, 0)
	MSTART(64, F19, 19, 16, 1, 1)
	MSTART(128, F20, 20, 16, 2, 2)
	MSTART(192, F21, 21, 16, 3, 3)
	MSTART(256, F18, 18, 17, 0, 4)
	MSTART(320, F19, 19, 17, 1, 5)
	MSTART(384, F20, 20, 17, 2, 6)
	MSTART(448, F21, 21, 17, 3, 7)
	ADD $32, R0
	ADD $512, R1
	SUB $8, R6, R8

mterms:
	FMOVQ (R0), F16
	FMOVQ 16(R0), F17
	MTERM(0, F18, 18, 16, 0, 22, 0)
	MTERM(64, F19, 19, 16, 1, 23, 1)
	MTERM(128, F20, 20, 16, 2, 24, 2)
	MTERM(192, F21, 21, 16, 3, 25, 3)
	MTERM(256, F18, 18, 17, 0, 22, 4)
	MTERM(320, F19, 19, 17, 1, 23, 5)
	MTERM(384, F20, 20, 17, 2, 24, 6)
	MTERM(448, F21, 21, 17, 3, 25, 7)
	ADD $32, R0
	ADD $512, R1
	SUBS $8, R8, R8
	BNE mterms

	SUM8(0, 1, 2, 3, 4, 5, 6, 7)
	VZIP1 V0.S4, V0.S4, V24.S4
	VZIP2 V0.S4, V0.S4, V25.S4
	OUT4
	ADD $16, R5
	SUBS $1, R3, R3
	BNE mquarter
	RET

// SSTART and STERM are MSTART and MTERM for both planes of a stereo span
// (the right plane 8448 bytes after the left; its samples in s+2): left
// accumulator a, right a+8.
#define SSTART(off, cf, c, s, r, i, a, ar) \
	FMOVQ off(R1), cf \
	FMULE(a, c, s, i) \
	FMULE(ar, c, r, i)

#define STERM(off, cf, c, s, r, i, t, tr, a, ar) \
	FMOVQ off(R1), cf \
	FMULE(t, c, s, i) \
	FMULE(tr, c, r, i) \
	FADDV(a, a, t) \
	FADDV(ar, ar, tr)

// func sincQuartersStereoNEON(out *Frame, nq int, x *float32, coef *float32, terms int, gains *[4]float32)
//
// sincQuartersMonoNEON for a stereo source: x is the left plane's group
// window start; left accumulators V0-V7, right V8-V15.
TEXT ·sincQuartersStereoNEON(SB), NOSPLIT, $0-48
	MOVD out+0(FP), R2
	MOVD nq+8(FP), R3
	MOVD x+16(FP), R4
	MOVD coef+24(FP), R5
	MOVD terms+32(FP), R6
	MOVD gains+40(FP), R7
	FMOVQ (R7), F30

squarter:
	MOVD R4, R0
	MOVD R5, R1
	FMOVQ (R0), F16
	FMOVQ 16(R0), F17
	FMOVQ 8448(R0), F18
	FMOVQ 8464(R0), F19
	SSTART(0, F20, 20, 16, 18, 0, 0, 8)
	SSTART(64, F21, 21, 16, 18, 1, 1, 9)
	SSTART(128, F22, 22, 16, 18, 2, 2, 10)
	SSTART(192, F23, 23, 16, 18, 3, 3, 11)
	SSTART(256, F20, 20, 17, 19, 0, 4, 12)
	SSTART(320, F21, 21, 17, 19, 1, 5, 13)
	SSTART(384, F22, 22, 17, 19, 2, 6, 14)
	SSTART(448, F23, 23, 17, 19, 3, 7, 15)
	ADD $32, R0
	ADD $512, R1
	SUB $8, R6, R8

sterms:
	FMOVQ (R0), F16
	FMOVQ 16(R0), F17
	FMOVQ 8448(R0), F18
	FMOVQ 8464(R0), F19
	STERM(0, F20, 20, 16, 18, 0, 24, 26, 0, 8)
	STERM(64, F21, 21, 16, 18, 1, 25, 27, 1, 9)
	STERM(128, F22, 22, 16, 18, 2, 24, 26, 2, 10)
	STERM(192, F23, 23, 16, 18, 3, 25, 27, 3, 11)
	STERM(256, F20, 20, 17, 19, 0, 24, 26, 4, 12)
	STERM(320, F21, 21, 17, 19, 1, 25, 27, 5, 13)
	STERM(384, F22, 22, 17, 19, 2, 24, 26, 6, 14)
	STERM(448, F23, 23, 17, 19, 3, 25, 27, 7, 15)
	ADD $32, R0
	ADD $512, R1
	SUBS $8, R8, R8
	BNE sterms

	SUM8(0, 1, 2, 3, 4, 5, 6, 7)
	SUM8(8, 9, 10, 11, 12, 13, 14, 15)
	VZIP1 V8.S4, V0.S4, V24.S4
	VZIP2 V8.S4, V0.S4, V25.S4
	OUT4
	ADD $16, R5
	SUBS $1, R3, R3
	BNE squarter
	RET
