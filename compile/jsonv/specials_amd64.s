//go:build amd64

#include "textflag.h"

// Rows of 32 equal bytes: '"', '\\', 0x1F.
DATA specialRows<>+0x00(SB)/8, $0x2222222222222222
DATA specialRows<>+0x08(SB)/8, $0x2222222222222222
DATA specialRows<>+0x10(SB)/8, $0x2222222222222222
DATA specialRows<>+0x18(SB)/8, $0x2222222222222222
DATA specialRows<>+0x20(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA specialRows<>+0x28(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA specialRows<>+0x30(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA specialRows<>+0x38(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA specialRows<>+0x40(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA specialRows<>+0x48(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA specialRows<>+0x50(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA specialRows<>+0x58(SB)/8, $0x1f1f1f1f1f1f1f1f
GLOBL specialRows<>(SB), RODATA|NOPTR, $96

// func specials(b *[64]byte) uint64
//
// Each half of b: equal to '"', equal to '\\', or equal to its minimum with
// 0x1F (a control character), or-ed; the two halves' byte masks are the
// result's low and high 32 bits.
TEXT ·specials(SB), NOSPLIT, $0-16
	MOVQ b+0(FP), SI
	LEAQ specialRows<>(SB), R8
	VMOVDQU 0(R8), Y1  // '"'
	VMOVDQU 32(R8), Y2 // '\\'
	VMOVDQU 64(R8), Y3 // 0x1F

	VMOVDQU   0(SI), Y0
	VPCMPEQB  Y1, Y0, Y4
	VPCMPEQB  Y2, Y0, Y5
	VPOR      Y5, Y4, Y4
	VPMINUB   Y3, Y0, Y5
	VPCMPEQB  Y5, Y0, Y5
	VPOR      Y5, Y4, Y4
	VPMOVMSKB Y4, AX

	VMOVDQU   32(SI), Y0
	VPCMPEQB  Y1, Y0, Y4
	VPCMPEQB  Y2, Y0, Y5
	VPOR      Y5, Y4, Y4
	VPMINUB   Y3, Y0, Y5
	VPCMPEQB  Y5, Y0, Y5
	VPOR      Y5, Y4, Y4
	VPMOVMSKB Y4, BX

	VZEROUPPER
	SHLQ $32, BX
	ORQ  BX, AX
	MOVQ AX, ret+8(FP)
	RET
