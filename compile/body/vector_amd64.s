//go:build amd64

#include "textflag.h"

// Rows of 32 equal bytes: 0x1F, 0x7F, '`'.
DATA lineRows<>+0x00(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA lineRows<>+0x08(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA lineRows<>+0x10(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA lineRows<>+0x18(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA lineRows<>+0x20(SB)/8, $0x7f7f7f7f7f7f7f7f
DATA lineRows<>+0x28(SB)/8, $0x7f7f7f7f7f7f7f7f
DATA lineRows<>+0x30(SB)/8, $0x7f7f7f7f7f7f7f7f
DATA lineRows<>+0x38(SB)/8, $0x7f7f7f7f7f7f7f7f
DATA lineRows<>+0x40(SB)/8, $0x6060606060606060
DATA lineRows<>+0x48(SB)/8, $0x6060606060606060
DATA lineRows<>+0x50(SB)/8, $0x6060606060606060
DATA lineRows<>+0x58(SB)/8, $0x6060606060606060
GLOBL lineRows<>(SB), RODATA|NOPTR, $96

// LINE_HALF sets ctl and tick to the byte masks of the 32 bytes at
// off(SI): a control character, equal to its minimum with 0x1F (Y1) or to
// 0x7F (Y2); a backtick, equal to '`' (Y3). Y0, Y4 and Y5 are scratch.
#define LINE_HALF(off, ctl, tick) \
	VMOVDQU   off(SI), Y0; \
	VPMINUB   Y1, Y0, Y4;  \
	VPCMPEQB  Y4, Y0, Y4;  \
	VPCMPEQB  Y2, Y0, Y5;  \
	VPOR      Y5, Y4, Y4;  \
	VPCMPEQB  Y3, Y0, Y5;  \
	VPMOVMSKB Y4, ctl;     \
	VPMOVMSKB Y5, tick

// func lineMasks(b *[64]byte) (ctl, tick uint64)
//
// Each half of b: a control character is equal to its minimum with 0x1F,
// or equal to 0x7F; a backtick is equal to '`'. The halves' byte masks are
// each result's low and high 32 bits.
TEXT ·lineMasks(SB), NOSPLIT, $0-24
	MOVQ b+0(FP), SI
	LEAQ lineRows<>(SB), R8
	VMOVDQU 0(R8), Y1  // 0x1F
	VMOVDQU 32(R8), Y2 // 0x7F
	VMOVDQU 64(R8), Y3 // '`'

	LINE_HALF(0, AX, CX)
	LINE_HALF(32, BX, DX)

	VZEROUPPER
	SHLQ $32, BX
	ORQ  BX, AX
	SHLQ $32, DX
	ORQ  DX, CX
	MOVQ AX, ctl+8(FP)
	MOVQ CX, tick+16(FP)
	RET
