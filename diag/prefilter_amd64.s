//go:build amd64

#include "textflag.h"

// LOOKUP sets dst to the lookups of the 32 bytes at off(SI)(AX*1) by low
// nibble in the table lo and by high nibble in hi, ANDed (Y14 holds 0x0F in
// every byte; Y0 and Y1 are scratch).
#define LOOKUP(off, lo, hi, dst) \
	VMOVDQU off(SI)(AX*1), Y0; \
	VPSRLW  $4, Y0, Y1;        \
	VPAND   Y14, Y0, Y0;       \
	VPAND   Y14, Y1, Y1;       \
	VPSHUFB Y0, lo, Y0;        \
	VPSHUFB Y1, hi, Y1;        \
	VPAND   Y1, Y0, dst

// func anchorsAVX2(s string, i int, tab *[11][32]byte) (at int, mask uint32)
//
// For each block s[i:i+32] and each of the offsets -2, -1, 0, 1, 2, the 32
// bytes at that offset are looked up by low and by high nibble in the
// offset's two tables (VPSHUFB); the lookups are ANDed over both nibbles and
// all five offsets, so a byte of the result is nonzero where its bit's shape
// fits. The mask is the block's nonzero bytes.
//
// Registers: Y4–Y13 the tables, Y14 0x0F in every byte, Y2 zero, Y3 the
// block's result, Y0 and Y1 scratch.
TEXT ·anchorsAVX2(SB), NOSPLIT, $0-44
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), DX
	MOVQ i+16(FP), AX
	MOVQ tab+24(FP), R8
	VMOVDQU 0(R8), Y4
	VMOVDQU 32(R8), Y5
	VMOVDQU 64(R8), Y6
	VMOVDQU 96(R8), Y7
	VMOVDQU 128(R8), Y8
	VMOVDQU 160(R8), Y9
	VMOVDQU 192(R8), Y10
	VMOVDQU 224(R8), Y11
	VMOVDQU 256(R8), Y12
	VMOVDQU 288(R8), Y13
	VMOVDQU 320(R8), Y14
	VPXOR   Y2, Y2, Y2
	SUBQ    $34, DX // a block at AX needs AX+34 <= len

loop:
	CMPQ AX, DX
	JGT  done

	LOOKUP(-2, Y4, Y5, Y3) // the result starts as offset -2's lookup
	LOOKUP(-1, Y6, Y7, Y0)
	VPAND Y0, Y3, Y3
	LOOKUP(0, Y8, Y9, Y0)
	VPAND Y0, Y3, Y3
	LOOKUP(1, Y10, Y11, Y0)
	VPAND Y0, Y3, Y3
	LOOKUP(2, Y12, Y13, Y0)
	VPAND Y0, Y3, Y3

	VPCMPEQB  Y2, Y3, Y3 // 0xFF where no shape fits
	VPMOVMSKB Y3, BX
	NOTL      BX
	TESTL     BX, BX
	JNZ       found
	ADDQ      $32, AX
	JMP       loop

found:
	VZEROUPPER
	MOVQ AX, at+32(FP)
	MOVL BX, mask+40(FP)
	RET

done:
	VZEROUPPER
	MOVQ AX, at+32(FP)
	MOVL $0, mask+40(FP)
	RET
