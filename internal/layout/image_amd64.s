//go:build !purego

#include "textflag.h"

// Image layouts of 1-byte elements (uint8 pixels) with AVX2, 32 pixels a
// step: the split of 3 or 4 interleaved channels (HWC) into planes (CHW)
// and the inverse interleave. VPSHUFB and the unpacks work within 16-byte
// lanes, so the lower lane of each register holds pixels 0-15 of a step
// and the upper lane pixels 16-31; VPERM2I128 or the loads put the lanes
// in memory order. Every function takes (dst, src, groups, plane, nt):
// groups steps of 32 pixels, planes plane bytes apart, and with nt
// non-temporal stores (the planes, or the interleaved destination, must
// then be 32-byte aligned), fenced before returning.

// il3: VPSHUFB masks of interleave3u8. Mask 3*o+c moves the bytes of
// channel c to their places in the o-th 16 bytes of 16 interleaved
// pixels (0x80 clears the other places).
DATA il3<>+0(SB)/8, $0x8002808001808000
DATA il3<>+8(SB)/8, $0x0580800480800380
DATA il3<>+16(SB)/8, $0x8002808001808000
DATA il3<>+24(SB)/8, $0x0580800480800380
DATA il3<>+32(SB)/8, $0x0280800180800080
DATA il3<>+40(SB)/8, $0x8080048080038080
DATA il3<>+48(SB)/8, $0x0280800180800080
DATA il3<>+56(SB)/8, $0x8080048080038080
DATA il3<>+64(SB)/8, $0x8080018080008080
DATA il3<>+72(SB)/8, $0x8004808003808002
DATA il3<>+80(SB)/8, $0x8080018080008080
DATA il3<>+88(SB)/8, $0x8004808003808002
DATA il3<>+96(SB)/8, $0x8080078080068080
DATA il3<>+104(SB)/8, $0x800a808009808008
DATA il3<>+112(SB)/8, $0x8080078080068080
DATA il3<>+120(SB)/8, $0x800a808009808008
DATA il3<>+128(SB)/8, $0x8007808006808005
DATA il3<>+136(SB)/8, $0x0a80800980800880
DATA il3<>+144(SB)/8, $0x8007808006808005
DATA il3<>+152(SB)/8, $0x0a80800980800880
DATA il3<>+160(SB)/8, $0x0780800680800580
DATA il3<>+168(SB)/8, $0x8080098080088080
DATA il3<>+176(SB)/8, $0x0780800680800580
DATA il3<>+184(SB)/8, $0x8080098080088080
DATA il3<>+192(SB)/8, $0x0d80800c80800b80
DATA il3<>+200(SB)/8, $0x80800f80800e8080
DATA il3<>+208(SB)/8, $0x0d80800c80800b80
DATA il3<>+216(SB)/8, $0x80800f80800e8080
DATA il3<>+224(SB)/8, $0x80800c80800b8080
DATA il3<>+232(SB)/8, $0x800f80800e80800d
DATA il3<>+240(SB)/8, $0x80800c80800b8080
DATA il3<>+248(SB)/8, $0x800f80800e80800d
DATA il3<>+256(SB)/8, $0x800c80800b80800a
DATA il3<>+264(SB)/8, $0x0f80800e80800d80
DATA il3<>+272(SB)/8, $0x800c80800b80800a
DATA il3<>+280(SB)/8, $0x0f80800e80800d80
GLOBL il3<>(SB), RODATA|NOPTR, $288

// dl3: VPSHUFB masks of deinterleave3u8. Mask 3*c+i gathers the bytes of
// channel c found in the i-th 16 bytes of 16 interleaved pixels.
DATA dl3<>+0(SB)/8, $0x80800f0c09060300
DATA dl3<>+8(SB)/8, $0x8080808080808080
DATA dl3<>+16(SB)/8, $0x80800f0c09060300
DATA dl3<>+24(SB)/8, $0x8080808080808080
DATA dl3<>+32(SB)/8, $0x0502808080808080
DATA dl3<>+40(SB)/8, $0x80808080800e0b08
DATA dl3<>+48(SB)/8, $0x0502808080808080
DATA dl3<>+56(SB)/8, $0x80808080800e0b08
DATA dl3<>+64(SB)/8, $0x8080808080808080
DATA dl3<>+72(SB)/8, $0x0d0a070401808080
DATA dl3<>+80(SB)/8, $0x8080808080808080
DATA dl3<>+88(SB)/8, $0x0d0a070401808080
DATA dl3<>+96(SB)/8, $0x8080800d0a070401
DATA dl3<>+104(SB)/8, $0x8080808080808080
DATA dl3<>+112(SB)/8, $0x8080800d0a070401
DATA dl3<>+120(SB)/8, $0x8080808080808080
DATA dl3<>+128(SB)/8, $0x0603008080808080
DATA dl3<>+136(SB)/8, $0x80808080800f0c09
DATA dl3<>+144(SB)/8, $0x0603008080808080
DATA dl3<>+152(SB)/8, $0x80808080800f0c09
DATA dl3<>+160(SB)/8, $0x8080808080808080
DATA dl3<>+168(SB)/8, $0x0e0b080502808080
DATA dl3<>+176(SB)/8, $0x8080808080808080
DATA dl3<>+184(SB)/8, $0x0e0b080502808080
DATA dl3<>+192(SB)/8, $0x8080800e0b080502
DATA dl3<>+200(SB)/8, $0x8080808080808080
DATA dl3<>+208(SB)/8, $0x8080800e0b080502
DATA dl3<>+216(SB)/8, $0x8080808080808080
DATA dl3<>+224(SB)/8, $0x0704018080808080
DATA dl3<>+232(SB)/8, $0x8080808080800d0a
DATA dl3<>+240(SB)/8, $0x0704018080808080
DATA dl3<>+248(SB)/8, $0x8080808080800d0a
DATA dl3<>+256(SB)/8, $0x8080808080808080
DATA dl3<>+264(SB)/8, $0x0f0c090603008080
DATA dl3<>+272(SB)/8, $0x8080808080808080
DATA dl3<>+280(SB)/8, $0x0f0c090603008080
GLOBL dl3<>(SB), RODATA|NOPTR, $288

// dl4: the VPSHUFB mask that groups 4 pixels of 4 channels by channel
// within a lane: one 32-bit word per channel.
DATA dl4<>+0(SB)/8, $0x0d0905010c080400
DATA dl4<>+8(SB)/8, $0x0f0b07030e0a0602
DATA dl4<>+16(SB)/8, $0x0d0905010c080400
DATA dl4<>+24(SB)/8, $0x0f0b07030e0a0602
GLOBL dl4<>(SB), RODATA|NOPTR, $32

// perm4: the VPERMD indexes that put the channel words of the two lanes
// side by side: one 64-bit word (8 pixels) per channel.
DATA perm4<>+0(SB)/4, $0
DATA perm4<>+4(SB)/4, $4
DATA perm4<>+8(SB)/4, $1
DATA perm4<>+12(SB)/4, $5
DATA perm4<>+16(SB)/4, $2
DATA perm4<>+20(SB)/4, $6
DATA perm4<>+24(SB)/4, $3
DATA perm4<>+28(SB)/4, $7
GLOBL perm4<>(SB), RODATA|NOPTR, $32

// func interleave3u8(dst, src unsafe.Pointer, groups, plane int, nt bool)
//
// interleave3u8 writes 32 pixels a step of three planes (CHW) as
// interleaved triples (HWC): 96 bytes a step.

TEXT ·interleave3u8(SB), NOSPLIT, $0-33
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ groups+16(FP), CX
	MOVQ plane+24(FP), R8
	LEAQ (R8)(R8*2), R9
	TESTQ CX, CX
	JLE  i3done
	CMPB nt+32(FP), $0
	JNE  i3nt

i3loop:
	VMOVDQU    (SI), Y0
	VMOVDQU    (SI)(R8*1), Y1
	VMOVDQU    (SI)(R8*2), Y2
	VPSHUFB    il3<>+0(SB), Y0, Y3
	VPSHUFB    il3<>+32(SB), Y1, Y4
	VPOR       Y4, Y3, Y3
	VPSHUFB    il3<>+64(SB), Y2, Y4
	VPOR       Y4, Y3, Y3
	VPSHUFB    il3<>+96(SB), Y0, Y5
	VPSHUFB    il3<>+128(SB), Y1, Y4
	VPOR       Y4, Y5, Y5
	VPSHUFB    il3<>+160(SB), Y2, Y4
	VPOR       Y4, Y5, Y5
	VPSHUFB    il3<>+192(SB), Y0, Y6
	VPSHUFB    il3<>+224(SB), Y1, Y4
	VPOR       Y4, Y6, Y6
	VPSHUFB    il3<>+256(SB), Y2, Y4
	VPOR       Y4, Y6, Y6
	VPERM2I128 $0x20, Y5, Y3, Y7
	VPERM2I128 $0x30, Y3, Y6, Y8
	VPERM2I128 $0x31, Y6, Y5, Y9
	VMOVDQU Y7, (DI)
	VMOVDQU Y8, 32(DI)
	VMOVDQU Y9, 64(DI)
	ADDQ $32, SI
	ADDQ $96, DI
	DECQ CX
	JNZ  i3loop
	JMP  i3done

i3nt:
	VMOVDQU    (SI), Y0
	VMOVDQU    (SI)(R8*1), Y1
	VMOVDQU    (SI)(R8*2), Y2
	VPSHUFB    il3<>+0(SB), Y0, Y3
	VPSHUFB    il3<>+32(SB), Y1, Y4
	VPOR       Y4, Y3, Y3
	VPSHUFB    il3<>+64(SB), Y2, Y4
	VPOR       Y4, Y3, Y3
	VPSHUFB    il3<>+96(SB), Y0, Y5
	VPSHUFB    il3<>+128(SB), Y1, Y4
	VPOR       Y4, Y5, Y5
	VPSHUFB    il3<>+160(SB), Y2, Y4
	VPOR       Y4, Y5, Y5
	VPSHUFB    il3<>+192(SB), Y0, Y6
	VPSHUFB    il3<>+224(SB), Y1, Y4
	VPOR       Y4, Y6, Y6
	VPSHUFB    il3<>+256(SB), Y2, Y4
	VPOR       Y4, Y6, Y6
	VPERM2I128 $0x20, Y5, Y3, Y7
	VPERM2I128 $0x30, Y3, Y6, Y8
	VPERM2I128 $0x31, Y6, Y5, Y9
	VMOVNTDQ Y7, (DI)
	VMOVNTDQ Y8, 32(DI)
	VMOVNTDQ Y9, 64(DI)
	ADDQ $32, SI
	ADDQ $96, DI
	DECQ CX
	JNZ  i3nt
	SFENCE

i3done:
	VZEROUPPER
	RET

// func deinterleave3u8(dst, src unsafe.Pointer, groups, plane int, nt bool)
//
// deinterleave3u8 splits 32 interleaved pixels (96 bytes) a step into
// three planes, 32 bytes each. The loads put pixels 0-15 of the step in
// the lower lanes and 16-31 in the upper ones.

TEXT ·deinterleave3u8(SB), NOSPLIT, $0-33
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ groups+16(FP), CX
	MOVQ plane+24(FP), R8
	LEAQ (R8)(R8*2), R9
	TESTQ CX, CX
	JLE  d3done
	CMPB nt+32(FP), $0
	JNE  d3nt

d3loop:
	VMOVDQU     (SI), X0
	VINSERTI128 $1, 48(SI), Y0, Y0
	VMOVDQU     16(SI), X1
	VINSERTI128 $1, 64(SI), Y1, Y1
	VMOVDQU     32(SI), X2
	VINSERTI128 $1, 80(SI), Y2, Y2
	VPSHUFB     dl3<>+0(SB), Y0, Y3
	VPSHUFB     dl3<>+32(SB), Y1, Y4
	VPOR        Y4, Y3, Y3
	VPSHUFB     dl3<>+64(SB), Y2, Y4
	VPOR        Y4, Y3, Y3
	VPSHUFB     dl3<>+96(SB), Y0, Y5
	VPSHUFB     dl3<>+128(SB), Y1, Y4
	VPOR        Y4, Y5, Y5
	VPSHUFB     dl3<>+160(SB), Y2, Y4
	VPOR        Y4, Y5, Y5
	VPSHUFB     dl3<>+192(SB), Y0, Y6
	VPSHUFB     dl3<>+224(SB), Y1, Y4
	VPOR        Y4, Y6, Y6
	VPSHUFB     dl3<>+256(SB), Y2, Y4
	VPOR        Y4, Y6, Y6
	VMOVDQU Y3, (DI)
	VMOVDQU Y5, (DI)(R8*1)
	VMOVDQU Y6, (DI)(R8*2)
	ADDQ $96, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  d3loop
	JMP  d3done

d3nt:
	VMOVDQU     (SI), X0
	VINSERTI128 $1, 48(SI), Y0, Y0
	VMOVDQU     16(SI), X1
	VINSERTI128 $1, 64(SI), Y1, Y1
	VMOVDQU     32(SI), X2
	VINSERTI128 $1, 80(SI), Y2, Y2
	VPSHUFB     dl3<>+0(SB), Y0, Y3
	VPSHUFB     dl3<>+32(SB), Y1, Y4
	VPOR        Y4, Y3, Y3
	VPSHUFB     dl3<>+64(SB), Y2, Y4
	VPOR        Y4, Y3, Y3
	VPSHUFB     dl3<>+96(SB), Y0, Y5
	VPSHUFB     dl3<>+128(SB), Y1, Y4
	VPOR        Y4, Y5, Y5
	VPSHUFB     dl3<>+160(SB), Y2, Y4
	VPOR        Y4, Y5, Y5
	VPSHUFB     dl3<>+192(SB), Y0, Y6
	VPSHUFB     dl3<>+224(SB), Y1, Y4
	VPOR        Y4, Y6, Y6
	VPSHUFB     dl3<>+256(SB), Y2, Y4
	VPOR        Y4, Y6, Y6
	VMOVNTDQ Y3, (DI)
	VMOVNTDQ Y5, (DI)(R8*1)
	VMOVNTDQ Y6, (DI)(R8*2)
	ADDQ $96, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  d3nt
	SFENCE

d3done:
	VZEROUPPER
	RET

// func interleave4u8(dst, src unsafe.Pointer, groups, plane int, nt bool)
//
// interleave4u8 writes 32 pixels a step of four planes as interleaved
// quadruples: two rounds of unpacks (bytes, then 16-bit pairs) give
// pixels 0-3, 4-7, 8-11 and 12-15 in the lower lanes and 16-31 in the
// upper ones.

TEXT ·interleave4u8(SB), NOSPLIT, $0-33
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ groups+16(FP), CX
	MOVQ plane+24(FP), R8
	LEAQ (R8)(R8*2), R9
	TESTQ CX, CX
	JLE  i4done
	CMPB nt+32(FP), $0
	JNE  i4nt

i4loop:
	VMOVDQU    (SI), Y0
	VMOVDQU    (SI)(R8*1), Y1
	VMOVDQU    (SI)(R8*2), Y2
	VMOVDQU    (SI)(R9*1), Y3
	VPUNPCKLBW Y1, Y0, Y4
	VPUNPCKHBW Y1, Y0, Y5
	VPUNPCKLBW Y3, Y2, Y6
	VPUNPCKHBW Y3, Y2, Y7
	VPUNPCKLWD Y6, Y4, Y8
	VPUNPCKHWD Y6, Y4, Y9
	VPUNPCKLWD Y7, Y5, Y10
	VPUNPCKHWD Y7, Y5, Y11
	VPERM2I128 $0x20, Y9, Y8, Y0
	VPERM2I128 $0x20, Y11, Y10, Y1
	VPERM2I128 $0x31, Y9, Y8, Y2
	VPERM2I128 $0x31, Y11, Y10, Y3
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	ADDQ $32, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  i4loop
	JMP  i4done

i4nt:
	VMOVDQU    (SI), Y0
	VMOVDQU    (SI)(R8*1), Y1
	VMOVDQU    (SI)(R8*2), Y2
	VMOVDQU    (SI)(R9*1), Y3
	VPUNPCKLBW Y1, Y0, Y4
	VPUNPCKHBW Y1, Y0, Y5
	VPUNPCKLBW Y3, Y2, Y6
	VPUNPCKHBW Y3, Y2, Y7
	VPUNPCKLWD Y6, Y4, Y8
	VPUNPCKHWD Y6, Y4, Y9
	VPUNPCKLWD Y7, Y5, Y10
	VPUNPCKHWD Y7, Y5, Y11
	VPERM2I128 $0x20, Y9, Y8, Y0
	VPERM2I128 $0x20, Y11, Y10, Y1
	VPERM2I128 $0x31, Y9, Y8, Y2
	VPERM2I128 $0x31, Y11, Y10, Y3
	VMOVNTDQ Y0, (DI)
	VMOVNTDQ Y1, 32(DI)
	VMOVNTDQ Y2, 64(DI)
	VMOVNTDQ Y3, 96(DI)
	ADDQ $32, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  i4nt
	SFENCE

i4done:
	VZEROUPPER
	RET

// func deinterleave4u8(dst, src unsafe.Pointer, groups, plane int, nt bool)
//
// deinterleave4u8 splits 32 interleaved pixels (128 bytes) a step into
// four planes: VPSHUFB groups each lane's 4 pixels by channel, VPERMD
// makes one 64-bit word of 8 pixels per channel, and unpacks of 64-bit
// words and VPERM2I128 transpose the 4x4 words of the step.

TEXT ·deinterleave4u8(SB), NOSPLIT, $0-33
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ groups+16(FP), CX
	MOVQ plane+24(FP), R8
	LEAQ (R8)(R8*2), R9
	TESTQ CX, CX
	JLE  d4done
	VMOVDQU dl4<>(SB), Y12
	VMOVDQU perm4<>(SB), Y13
	CMPB nt+32(FP), $0
	JNE  d4nt

d4loop:
	VMOVDQU     (SI), Y0
	VMOVDQU     32(SI), Y1
	VMOVDQU     64(SI), Y2
	VMOVDQU     96(SI), Y3
	VPSHUFB     Y12, Y0, Y0
	VPSHUFB     Y12, Y1, Y1
	VPSHUFB     Y12, Y2, Y2
	VPSHUFB     Y12, Y3, Y3
	VPERMD      Y0, Y13, Y0
	VPERMD      Y1, Y13, Y1
	VPERMD      Y2, Y13, Y2
	VPERMD      Y3, Y13, Y3
	VPUNPCKLQDQ Y1, Y0, Y4
	VPUNPCKHQDQ Y1, Y0, Y5
	VPUNPCKLQDQ Y3, Y2, Y6
	VPUNPCKHQDQ Y3, Y2, Y7
	VPERM2I128  $0x20, Y6, Y4, Y8
	VPERM2I128  $0x31, Y6, Y4, Y9
	VPERM2I128  $0x20, Y7, Y5, Y10
	VPERM2I128  $0x31, Y7, Y5, Y11
	VMOVDQU Y8, (DI)
	VMOVDQU Y10, (DI)(R8*1)
	VMOVDQU Y9, (DI)(R8*2)
	VMOVDQU Y11, (DI)(R9*1)
	ADDQ $128, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  d4loop
	JMP  d4done

d4nt:
	VMOVDQU     (SI), Y0
	VMOVDQU     32(SI), Y1
	VMOVDQU     64(SI), Y2
	VMOVDQU     96(SI), Y3
	VPSHUFB     Y12, Y0, Y0
	VPSHUFB     Y12, Y1, Y1
	VPSHUFB     Y12, Y2, Y2
	VPSHUFB     Y12, Y3, Y3
	VPERMD      Y0, Y13, Y0
	VPERMD      Y1, Y13, Y1
	VPERMD      Y2, Y13, Y2
	VPERMD      Y3, Y13, Y3
	VPUNPCKLQDQ Y1, Y0, Y4
	VPUNPCKHQDQ Y1, Y0, Y5
	VPUNPCKLQDQ Y3, Y2, Y6
	VPUNPCKHQDQ Y3, Y2, Y7
	VPERM2I128  $0x20, Y6, Y4, Y8
	VPERM2I128  $0x31, Y6, Y4, Y9
	VPERM2I128  $0x20, Y7, Y5, Y10
	VPERM2I128  $0x31, Y7, Y5, Y11
	VMOVNTDQ Y8, (DI)
	VMOVNTDQ Y10, (DI)(R8*1)
	VMOVNTDQ Y9, (DI)(R8*2)
	VMOVNTDQ Y11, (DI)(R9*1)
	ADDQ $128, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  d4nt
	SFENCE

d4done:
	VZEROUPPER
	RET
