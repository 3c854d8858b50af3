//go:build amd64

#include "textflag.h"

// Rows of 32 bytes: '"', '\\', 0x1F repeated; then 0x0F repeated and the
// two 16-byte tables of strMasks' simple escapes, each written twice
// (VPSHUFB looks up within each half). A byte c is a simple escape when
// lo[c&15] & hi[c>>4] is nonzero: bit 0 for " and / (high nibble 2), bit 1
// for \ (5), bit 2 for b f n (6), bit 3 for r t (7).
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
// 0x0F (nibble mask)
DATA specialRows<>+0x60(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA specialRows<>+0x68(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA specialRows<>+0x70(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA specialRows<>+0x78(SB)/8, $0x0f0f0f0f0f0f0f0f
// simple escapes by low nibble
DATA specialRows<>+0x80(SB)/8, $0x00040008000d0000
DATA specialRows<>+0x88(SB)/8, $0x0104000200000000
DATA specialRows<>+0x90(SB)/8, $0x00040008000d0000
DATA specialRows<>+0x98(SB)/8, $0x0104000200000000
// simple escapes by high nibble
DATA specialRows<>+0xa0(SB)/8, $0x0804020000010000
DATA specialRows<>+0xa8(SB)/8, $0x0000000000000000
DATA specialRows<>+0xb0(SB)/8, $0x0804020000010000
DATA specialRows<>+0xb8(SB)/8, $0x0000000000000000
GLOBL specialRows<>(SB), RODATA|NOPTR, $192

// STR_HALF sets q, b, c and s to the byte masks of the 32 bytes at off(SI):
// equal to '"' (Y1); equal to '\\' (Y2); equal to their minimum with 0x1F
// (Y3), a control character; a simple escape by the nibble tables Y7 (low)
// and Y8 (high), Y6 holding 0x0F and Y9 zero. Y0, Y4 and Y5 are scratch.
#define STR_HALF(off, q, b, c, s) \
	VMOVDQU   off(SI), Y0;  \
	VPCMPEQB  Y1, Y0, Y4;   \
	VPMOVMSKB Y4, q;        \
	VPCMPEQB  Y2, Y0, Y4;   \
	VPMOVMSKB Y4, b;        \
	VPMINUB   Y3, Y0, Y4;   \
	VPCMPEQB  Y4, Y0, Y4;   \
	VPMOVMSKB Y4, c;        \
	VPSRLW    $4, Y0, Y5;   \
	VPAND     Y6, Y0, Y4;   \
	VPAND     Y6, Y5, Y5;   \
	VPSHUFB   Y4, Y7, Y4;   \
	VPSHUFB   Y5, Y8, Y5;   \
	VPAND     Y5, Y4, Y4;   \
	VPCMPEQB  Y9, Y4, Y4;   \
	VPMOVMSKB Y4, s;        \
	NOTL      s

// func strMasks(b *[64]byte) (quote, backslash, ctl, simple uint64)
//
// Each half of b: equal to '"'; equal to '\\'; equal to its minimum with
// 0x1F (a control character); a simple escape by the nibble tables. The
// halves' byte masks are each result's low and high 32 bits.
TEXT ·strMasks(SB), NOSPLIT, $0-40
	MOVQ b+0(FP), SI
	LEAQ specialRows<>(SB), R8
	VMOVDQU 0(R8), Y1   // '"'
	VMOVDQU 32(R8), Y2  // '\\'
	VMOVDQU 64(R8), Y3  // 0x1F
	VMOVDQU 96(R8), Y6  // 0x0F
	VMOVDQU 128(R8), Y7 // simple escapes by low nibble
	VMOVDQU 160(R8), Y8 // by high nibble
	VPXOR   Y9, Y9, Y9

	STR_HALF(0, AX, BX, CX, DX)
	STR_HALF(32, R10, R11, R12, R13)

	VZEROUPPER
	SHLQ $32, R10
	ORQ  R10, AX
	SHLQ $32, R11
	ORQ  R11, BX
	SHLQ $32, R12
	ORQ  R12, CX
	SHLQ $32, R13
	ORQ  R13, DX
	MOVQ AX, quote+8(FP)
	MOVQ BX, backslash+16(FP)
	MOVQ CX, ctl+24(FP)
	MOVQ DX, simple+32(FP)
	RET

// func decodeBlocksAVX2(out, raw []byte, o, i int, tab *[256]byte) (o2, i2 int, high uint32)
//
// AX is the offset in raw, R9 in out; Y2 or-s every block read (its high
// bits are the result's high).
TEXT ·decodeBlocksAVX2(SB), NOSPLIT, $0-92
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
