//go:build !steadyframe_scalar

#include "textflag.h"

// NEON versions of the pitched filter (pitch_arm64.go): one output at a
// time, its taps summed four at a time into sixteen lanes held in four
// registers, tap k into lane k mod 16, then reduced as pitchDot reduces
// them. Each tap's coefficient is a + w·(b-a) from the two rows around
// the output's phase; a stereo window's planes share it. Every multiply
// and add is separate and rounded (no FMLA), so the bits are the scalar
// ones. FSUB, FMUL, FADD and the pairwise FADDP are WORDs: Go's assembler
// has no vector float arithmetic.

#define FSUBV(d, n, m) WORD $(0x4EA0D400 | ((m)<<16) | ((n)<<5) | (d))
#define FMULV(d, n, m) WORD $(0x6E20DC00 | ((m)<<16) | ((n)<<5) | (d))
#define FADDV(d, n, m) WORD $(0x4E20D400 | ((m)<<16) | ((n)<<5) | (d))
// FADDP2 sets Sd = Vn.S[0] + Vn.S[1]; EXT8 sets Vd to Vn's upper eight
// bytes, then Vm's lower eight.
#define FADDP2(d, n) WORD $(0x7E30D800 | ((n)<<5) | (d))
#define EXT8(d, n, m) WORD $(0x6E004000 | ((m)<<16) | ((n)<<5) | (d))

// PQUAD adds taps 4q..4q+3 of the chunk at R17 (row a), R19 (row b) and
// R14 (the window) into accumulator q (V0-V3): c = a + w·(b-a) in V16,
// times the sample.
#define PQUAD(q) \
	FMOVQ ((q)*16)(R17), F16 \
	FMOVQ ((q)*16)(R19), F17 \
	FSUBV(17, 17, 16) \
	FMULV(17, 17, 26) \
	FADDV(16, 16, 17) \
	FMOVQ ((q)*16)(R14), F18 \
	FMULV(18, 16, 18) \
	FADDV(q, q, 18)

// PQUAD2 is PQUAD for both planes: the right window at R15, into
// accumulator q+4 (V4-V7).
#define PQUAD2(q) \
	PQUAD(q) \
	FMOVQ ((q)*16)(R15), F19 \
	FMULV(19, 16, 19) \
	FADDV((q)+4, (q)+4, 19)

// PREDUCE sums accumulators a0..a0+3 into lane 0 of Fa0 in pitchDot's
// order: lanes l and l+8, l and l+4, l and l+2, then the last two.
#define PREDUCE(a0, a1, a2, a3) \
	FADDV(a0, a0, a2) \
	FADDV(a1, a1, a3) \
	FADDV(a0, a0, a1) \
	EXT8(a1, a0, a0) \
	FADDV(a0, a0, a1) \
	FADDP2(a0, a0)

// PHEAD loads the arguments: R2 out, R3 n, R4 l, R5 r, R6 coef, R7 taps,
// R8 p, R9 steps, R10 limit, R11 a row's bytes, F28 gl, F29 gr, F27
// 2^-32.
#define PHEAD \
	MOVD out+0(FP), R2 \
	MOVD n+8(FP), R3 \
	MOVD l+16(FP), R4 \
	MOVD r+24(FP), R5 \
	MOVD coef+32(FP), R6 \
	MOVD taps+40(FP), R7 \
	MOVD p+48(FP), R8 \
	MOVD steps+56(FP), R9 \
	FMOVS gl+64(FP), F28 \
	FMOVS gr+68(FP), F29 \
	MOVD limit+72(FP), R10 \
	LSL $2, R7, R11 \
	MOVW $0x2f800000, R12 \
	FMOVS R12, F27

// PSETUP starts the output at R8: R13 its window's first frame (to bail
// if past the limit), R14 (and R15) the windows, R17 and R19 the rows,
// V26 the weight w in every lane, R20 the taps left.
#define PSETUP(bail) \
	LSR $32, R8, R13 \
	CMP R10, R13 \
	BGT bail \
	ADD R13<<2, R4, R14 \
	ADD R13<<2, R5, R15 \
	MOVWU R8, R16 \
	LSRW $23, R16, R17 \
	LSLW $9, R16, R16 \
	UCVTFWS R16, F26 \
	FMULS F27, F26, F26 \
	VDUP V26.S[0], V26.S4 \
	MUL R17, R11, R17 \
	ADD R6, R17, R17 \
	ADD R11, R17, R19 \
	MOVD R7, R20

// PNEXT moves the window and rows on by sixteen taps.
#define PNEXT \
	ADD $64, R17 \
	ADD $64, R19 \
	ADD $64, R14 \
	ADD $64, R15 \
	SUB $16, R20

// PADD adds Fl·gl and Fr·gr into the frame at R2, moves R2 on, and
// moves the position on by the next step.
#define PADD(l, r) \
	FMULS F28, l, F20 \
	FMULS F29, r, F21 \
	FMOVS (R2), F22 \
	FADDS F20, F22, F22 \
	FMOVS F22, (R2) \
	FMOVS 4(R2), F23 \
	FADDS F21, F23, F23 \
	FMOVS F23, 4(R2) \
	ADD $8, R2 \
	MOVD.P 8(R9), R21 \
	ADD R21, R8, R8

// func pitchMonoNEON(out *Frame, n int, l, r *float32, coef *float32, taps int, p uint64, steps *uint64, gl, gr float32, limit int) (next uint64, left int)
//
// n outputs (n > 0) of a mono window. It stops at the first output whose
// window starts past limit and returns the outputs left, 0 when it did
// them all, and the position after the last.
TEXT ·pitchMonoNEON(SB), NOSPLIT, $0-96
	PHEAD

pmout:
	PSETUP(pmbail)
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16

pmtaps:
	CMP $16, R20
	BLT pmtail
	PQUAD(0)
	PQUAD(1)
	PQUAD(2)
	PQUAD(3)
	PNEXT
	B pmtaps

pmtail:
	CBZ R20, pmsum
	PQUAD(0)
	PQUAD(1)

pmsum:
	PREDUCE(0, 1, 2, 3)
	PADD(F0, F0)
	SUBS $1, R3, R3
	BNE pmout
	MOVD R8, next+80(FP)
	MOVD ZR, left+88(FP)
	RET

pmbail:
	MOVD R3, left+88(FP)
	RET

// func pitchStereoNEON(out *Frame, n int, l, r *float32, coef *float32, taps int, p uint64, steps *uint64, gl, gr float32, limit int) (next uint64, left int)
//
// pitchMonoNEON for a stereo window: left accumulators V0-V3, right
// V4-V7.
TEXT ·pitchStereoNEON(SB), NOSPLIT, $0-96
	PHEAD

psout:
	PSETUP(psbail)
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	VEOR V4.B16, V4.B16, V4.B16
	VEOR V5.B16, V5.B16, V5.B16
	VEOR V6.B16, V6.B16, V6.B16
	VEOR V7.B16, V7.B16, V7.B16

pstaps:
	CMP $16, R20
	BLT pstail
	PQUAD2(0)
	PQUAD2(1)
	PQUAD2(2)
	PQUAD2(3)
	PNEXT
	B pstaps

pstail:
	CBZ R20, pssum
	PQUAD2(0)
	PQUAD2(1)

pssum:
	PREDUCE(0, 1, 2, 3)
	PREDUCE(4, 5, 6, 7)
	PADD(F0, F4)
	SUBS $1, R3, R3
	BNE psout
	MOVD R8, next+80(FP)
	MOVD ZR, left+88(FP)
	RET

psbail:
	MOVD R3, left+88(FP)
	RET
