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

// func decodeBlocks(out, raw []byte, o, i int, tab *[256]byte) (o2, i2 int, high uint32)
//
// AX is the offset in raw, R9 in out; Y2 or-s every block read (its high
// bits are the result's high).
TEXT ·decodeBlocks(SB), NOSPLIT, $0-92
	MOVQ out_base+0(FP), DI
	MOVQ raw_base+24(FP), SI
	MOVQ raw_len+32(FP), DX
	MOVQ o+48(FP), R9
	MOVQ i+56(FP), AX
	MOVQ tab+64(FP), R8
	LEAQ specialRows<>(SB), R10
	VMOVDQU 32(R10), Y1 // '\\'
	VPXOR   Y2, Y2, Y2
	LEAQ    -32(DX), R10 // a block at AX needs AX <= len-32

loop:
	CMPQ      AX, R10
	JGT       done
	VMOVDQU   (SI)(AX*1), Y0
	VMOVDQU   Y0, (DI)(R9*1)
	VPOR      Y0, Y2, Y2
	VPCMPEQB  Y1, Y0, Y3
	VPMOVMSKB Y3, BX
	TESTL     BX, BX
	JNZ       escape
	ADDQ      $32, AX
	ADDQ      $32, R9
	JMP       loop

escape:
	BSFL    BX, BX // the first backslash
	ADDQ    BX, AX
	ADDQ    BX, R9
	LEAQ    1(AX), CX
	CMPQ    CX, DX
	JGE     done // a backslash at the end: not a scanned literal
	MOVBQZX (SI)(CX*1), CX
	MOVBQZX (R8)(CX*1), CX
	TESTQ   CX, CX
	JZ      done // \u, or not an escape
	MOVB    CX, (DI)(R9*1)
	ADDQ    $2, AX
	INCQ    R9
	JMP     loop

done:
	VPMOVMSKB Y2, BX
	VZEROUPPER
	MOVQ      R9, o2+72(FP)
	MOVQ      AX, i2+80(FP)
	MOVL      BX, high+88(FP)
	RET
