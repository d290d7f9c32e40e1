//go:build !purego

#include "textflag.h"

// The constants of expF32x8 and expF32x16, eight float64 lanes each: the clamp of x,
// log2(e), 1.5·2^52 + 1023 (adding it rounds to an integer k held, with
// the exponent bias, in the low bits), ln 2 split in two (the high part
// with trailing zeros) and the Taylor coefficients 1/j!.
DATA expHi<>+0(SB)/8, $0x4056400000000000
DATA expHi<>+8(SB)/8, $0x4056400000000000
DATA expHi<>+16(SB)/8, $0x4056400000000000
DATA expHi<>+24(SB)/8, $0x4056400000000000
DATA expHi<>+32(SB)/8, $0x4056400000000000
DATA expHi<>+40(SB)/8, $0x4056400000000000
DATA expHi<>+48(SB)/8, $0x4056400000000000
DATA expHi<>+56(SB)/8, $0x4056400000000000
GLOBL expHi<>(SB), RODATA|NOPTR, $64
DATA expLo<>+0(SB)/8, $0xc05a000000000000
DATA expLo<>+8(SB)/8, $0xc05a000000000000
DATA expLo<>+16(SB)/8, $0xc05a000000000000
DATA expLo<>+24(SB)/8, $0xc05a000000000000
DATA expLo<>+32(SB)/8, $0xc05a000000000000
DATA expLo<>+40(SB)/8, $0xc05a000000000000
DATA expLo<>+48(SB)/8, $0xc05a000000000000
DATA expLo<>+56(SB)/8, $0xc05a000000000000
GLOBL expLo<>(SB), RODATA|NOPTR, $64
DATA expLog2e<>+0(SB)/8, $0x3ff71547652b82fe
DATA expLog2e<>+8(SB)/8, $0x3ff71547652b82fe
DATA expLog2e<>+16(SB)/8, $0x3ff71547652b82fe
DATA expLog2e<>+24(SB)/8, $0x3ff71547652b82fe
DATA expLog2e<>+32(SB)/8, $0x3ff71547652b82fe
DATA expLog2e<>+40(SB)/8, $0x3ff71547652b82fe
DATA expLog2e<>+48(SB)/8, $0x3ff71547652b82fe
DATA expLog2e<>+56(SB)/8, $0x3ff71547652b82fe
GLOBL expLog2e<>(SB), RODATA|NOPTR, $64
DATA expMagic<>+0(SB)/8, $0x43380000000003ff
DATA expMagic<>+8(SB)/8, $0x43380000000003ff
DATA expMagic<>+16(SB)/8, $0x43380000000003ff
DATA expMagic<>+24(SB)/8, $0x43380000000003ff
DATA expMagic<>+32(SB)/8, $0x43380000000003ff
DATA expMagic<>+40(SB)/8, $0x43380000000003ff
DATA expMagic<>+48(SB)/8, $0x43380000000003ff
DATA expMagic<>+56(SB)/8, $0x43380000000003ff
GLOBL expMagic<>(SB), RODATA|NOPTR, $64
DATA expLn2Hi<>+0(SB)/8, $0x3fe62e42fee00000
DATA expLn2Hi<>+8(SB)/8, $0x3fe62e42fee00000
DATA expLn2Hi<>+16(SB)/8, $0x3fe62e42fee00000
DATA expLn2Hi<>+24(SB)/8, $0x3fe62e42fee00000
DATA expLn2Hi<>+32(SB)/8, $0x3fe62e42fee00000
DATA expLn2Hi<>+40(SB)/8, $0x3fe62e42fee00000
DATA expLn2Hi<>+48(SB)/8, $0x3fe62e42fee00000
DATA expLn2Hi<>+56(SB)/8, $0x3fe62e42fee00000
GLOBL expLn2Hi<>(SB), RODATA|NOPTR, $64
DATA expLn2Lo<>+0(SB)/8, $0x3dea39ef35793c76
DATA expLn2Lo<>+8(SB)/8, $0x3dea39ef35793c76
DATA expLn2Lo<>+16(SB)/8, $0x3dea39ef35793c76
DATA expLn2Lo<>+24(SB)/8, $0x3dea39ef35793c76
DATA expLn2Lo<>+32(SB)/8, $0x3dea39ef35793c76
DATA expLn2Lo<>+40(SB)/8, $0x3dea39ef35793c76
DATA expLn2Lo<>+48(SB)/8, $0x3dea39ef35793c76
DATA expLn2Lo<>+56(SB)/8, $0x3dea39ef35793c76
GLOBL expLn2Lo<>(SB), RODATA|NOPTR, $64
DATA expC0<>+0(SB)/8, $0x3ff0000000000000
DATA expC0<>+8(SB)/8, $0x3ff0000000000000
DATA expC0<>+16(SB)/8, $0x3ff0000000000000
DATA expC0<>+24(SB)/8, $0x3ff0000000000000
DATA expC0<>+32(SB)/8, $0x3ff0000000000000
DATA expC0<>+40(SB)/8, $0x3ff0000000000000
DATA expC0<>+48(SB)/8, $0x3ff0000000000000
DATA expC0<>+56(SB)/8, $0x3ff0000000000000
GLOBL expC0<>(SB), RODATA|NOPTR, $64
DATA expC1<>+0(SB)/8, $0x3ff0000000000000
DATA expC1<>+8(SB)/8, $0x3ff0000000000000
DATA expC1<>+16(SB)/8, $0x3ff0000000000000
DATA expC1<>+24(SB)/8, $0x3ff0000000000000
DATA expC1<>+32(SB)/8, $0x3ff0000000000000
DATA expC1<>+40(SB)/8, $0x3ff0000000000000
DATA expC1<>+48(SB)/8, $0x3ff0000000000000
DATA expC1<>+56(SB)/8, $0x3ff0000000000000
GLOBL expC1<>(SB), RODATA|NOPTR, $64
DATA expC2<>+0(SB)/8, $0x3fe0000000000000
DATA expC2<>+8(SB)/8, $0x3fe0000000000000
DATA expC2<>+16(SB)/8, $0x3fe0000000000000
DATA expC2<>+24(SB)/8, $0x3fe0000000000000
DATA expC2<>+32(SB)/8, $0x3fe0000000000000
DATA expC2<>+40(SB)/8, $0x3fe0000000000000
DATA expC2<>+48(SB)/8, $0x3fe0000000000000
DATA expC2<>+56(SB)/8, $0x3fe0000000000000
GLOBL expC2<>(SB), RODATA|NOPTR, $64
DATA expC3<>+0(SB)/8, $0x3fc5555555555555
DATA expC3<>+8(SB)/8, $0x3fc5555555555555
DATA expC3<>+16(SB)/8, $0x3fc5555555555555
DATA expC3<>+24(SB)/8, $0x3fc5555555555555
DATA expC3<>+32(SB)/8, $0x3fc5555555555555
DATA expC3<>+40(SB)/8, $0x3fc5555555555555
DATA expC3<>+48(SB)/8, $0x3fc5555555555555
DATA expC3<>+56(SB)/8, $0x3fc5555555555555
GLOBL expC3<>(SB), RODATA|NOPTR, $64
DATA expC4<>+0(SB)/8, $0x3fa5555555555555
DATA expC4<>+8(SB)/8, $0x3fa5555555555555
DATA expC4<>+16(SB)/8, $0x3fa5555555555555
DATA expC4<>+24(SB)/8, $0x3fa5555555555555
DATA expC4<>+32(SB)/8, $0x3fa5555555555555
DATA expC4<>+40(SB)/8, $0x3fa5555555555555
DATA expC4<>+48(SB)/8, $0x3fa5555555555555
DATA expC4<>+56(SB)/8, $0x3fa5555555555555
GLOBL expC4<>(SB), RODATA|NOPTR, $64
DATA expC5<>+0(SB)/8, $0x3f81111111111111
DATA expC5<>+8(SB)/8, $0x3f81111111111111
DATA expC5<>+16(SB)/8, $0x3f81111111111111
DATA expC5<>+24(SB)/8, $0x3f81111111111111
DATA expC5<>+32(SB)/8, $0x3f81111111111111
DATA expC5<>+40(SB)/8, $0x3f81111111111111
DATA expC5<>+48(SB)/8, $0x3f81111111111111
DATA expC5<>+56(SB)/8, $0x3f81111111111111
GLOBL expC5<>(SB), RODATA|NOPTR, $64
DATA expC6<>+0(SB)/8, $0x3f56c16c16c16c17
DATA expC6<>+8(SB)/8, $0x3f56c16c16c16c17
DATA expC6<>+16(SB)/8, $0x3f56c16c16c16c17
DATA expC6<>+24(SB)/8, $0x3f56c16c16c16c17
DATA expC6<>+32(SB)/8, $0x3f56c16c16c16c17
DATA expC6<>+40(SB)/8, $0x3f56c16c16c16c17
DATA expC6<>+48(SB)/8, $0x3f56c16c16c16c17
DATA expC6<>+56(SB)/8, $0x3f56c16c16c16c17
GLOBL expC6<>(SB), RODATA|NOPTR, $64
DATA expC7<>+0(SB)/8, $0x3f2a01a01a01a01a
DATA expC7<>+8(SB)/8, $0x3f2a01a01a01a01a
DATA expC7<>+16(SB)/8, $0x3f2a01a01a01a01a
DATA expC7<>+24(SB)/8, $0x3f2a01a01a01a01a
DATA expC7<>+32(SB)/8, $0x3f2a01a01a01a01a
DATA expC7<>+40(SB)/8, $0x3f2a01a01a01a01a
DATA expC7<>+48(SB)/8, $0x3f2a01a01a01a01a
DATA expC7<>+56(SB)/8, $0x3f2a01a01a01a01a
GLOBL expC7<>(SB), RODATA|NOPTR, $64
DATA expC8<>+0(SB)/8, $0x3efa01a01a01a01a
DATA expC8<>+8(SB)/8, $0x3efa01a01a01a01a
DATA expC8<>+16(SB)/8, $0x3efa01a01a01a01a
DATA expC8<>+24(SB)/8, $0x3efa01a01a01a01a
DATA expC8<>+32(SB)/8, $0x3efa01a01a01a01a
DATA expC8<>+40(SB)/8, $0x3efa01a01a01a01a
DATA expC8<>+48(SB)/8, $0x3efa01a01a01a01a
DATA expC8<>+56(SB)/8, $0x3efa01a01a01a01a
GLOBL expC8<>(SB), RODATA|NOPTR, $64
DATA expC9<>+0(SB)/8, $0x3ec71de3a556c734
DATA expC9<>+8(SB)/8, $0x3ec71de3a556c734
DATA expC9<>+16(SB)/8, $0x3ec71de3a556c734
DATA expC9<>+24(SB)/8, $0x3ec71de3a556c734
DATA expC9<>+32(SB)/8, $0x3ec71de3a556c734
DATA expC9<>+40(SB)/8, $0x3ec71de3a556c734
DATA expC9<>+48(SB)/8, $0x3ec71de3a556c734
DATA expC9<>+56(SB)/8, $0x3ec71de3a556c734
GLOBL expC9<>(SB), RODATA|NOPTR, $64
DATA expC10<>+0(SB)/8, $0x3e927e4fb7789f5c
DATA expC10<>+8(SB)/8, $0x3e927e4fb7789f5c
DATA expC10<>+16(SB)/8, $0x3e927e4fb7789f5c
DATA expC10<>+24(SB)/8, $0x3e927e4fb7789f5c
DATA expC10<>+32(SB)/8, $0x3e927e4fb7789f5c
DATA expC10<>+40(SB)/8, $0x3e927e4fb7789f5c
DATA expC10<>+48(SB)/8, $0x3e927e4fb7789f5c
DATA expC10<>+56(SB)/8, $0x3e927e4fb7789f5c
GLOBL expC10<>(SB), RODATA|NOPTR, $64
DATA expC11<>+0(SB)/8, $0x3e5ae64567f544e4
DATA expC11<>+8(SB)/8, $0x3e5ae64567f544e4
DATA expC11<>+16(SB)/8, $0x3e5ae64567f544e4
DATA expC11<>+24(SB)/8, $0x3e5ae64567f544e4
DATA expC11<>+32(SB)/8, $0x3e5ae64567f544e4
DATA expC11<>+40(SB)/8, $0x3e5ae64567f544e4
DATA expC11<>+48(SB)/8, $0x3e5ae64567f544e4
DATA expC11<>+56(SB)/8, $0x3e5ae64567f544e4
GLOBL expC11<>(SB), RODATA|NOPTR, $64
DATA expC12<>+0(SB)/8, $0x3e21eed8eff8d898
DATA expC12<>+8(SB)/8, $0x3e21eed8eff8d898
DATA expC12<>+16(SB)/8, $0x3e21eed8eff8d898
DATA expC12<>+24(SB)/8, $0x3e21eed8eff8d898
DATA expC12<>+32(SB)/8, $0x3e21eed8eff8d898
DATA expC12<>+40(SB)/8, $0x3e21eed8eff8d898
DATA expC12<>+48(SB)/8, $0x3e21eed8eff8d898
DATA expC12<>+56(SB)/8, $0x3e21eed8eff8d898
GLOBL expC12<>(SB), RODATA|NOPTR, $64

// EXPHALF computes in register p the float64 e^x of the float64 values
// in register x (four in a Y register, eight in a Z register: the
// constants hold eight lanes), using k and s as scratch.
#define EXPHALF(x, k, p, s) \
	VMINPD       expHi<>(SB), x, x; \
	VMAXPD       expLo<>(SB), x, x; \
	VMOVUPD      expMagic<>(SB), k; \
	VFMADD231PD  expLog2e<>(SB), x, k; \
	VSUBPD       expMagic<>(SB), k, s; \
	VFNMADD231PD expLn2Hi<>(SB), s, x; \
	VFNMADD231PD expLn2Lo<>(SB), s, x; \
	VMOVUPD      expC12<>(SB), p; \
	VFMADD213PD  expC11<>(SB), x, p; \
	VFMADD213PD  expC10<>(SB), x, p; \
	VFMADD213PD  expC9<>(SB), x, p; \
	VFMADD213PD  expC8<>(SB), x, p; \
	VFMADD213PD  expC7<>(SB), x, p; \
	VFMADD213PD  expC6<>(SB), x, p; \
	VFMADD213PD  expC5<>(SB), x, p; \
	VFMADD213PD  expC4<>(SB), x, p; \
	VFMADD213PD  expC3<>(SB), x, p; \
	VFMADD213PD  expC2<>(SB), x, p; \
	VFMADD213PD  expC1<>(SB), x, p; \
	VFMADD213PD  expC0<>(SB), x, p; \
	VPSLLQ       $52, k, k; \
	VMULPD       k, p, p

// func expF32x8(d, a unsafe.Pointer, n int)
// Sets d[j] = float32(e^float64(a[j])) for n elements (a multiple of 8),
// each in float64 (EXPHALF), NaN passed through quieted.
TEXT ·expF32x8(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX

loop:
	VCVTPS2PD   (SI), Y0
	VCVTPS2PD   16(SI), Y4
	EXPHALF(Y0, Y1, Y2, Y3)
	EXPHALF(Y4, Y5, Y6, Y7)
	VCVTPD2PSY  Y2, X2
	VCVTPD2PSY  Y6, X6
	VINSERTF128 $1, X6, Y2, Y2
	VMOVUPS     (SI), Y8
	VCMPPS      $3, Y8, Y8, Y9
	VADDPS      Y8, Y8, Y8
	VBLENDVPS   Y9, Y8, Y2, Y2
	VMOVUPS     Y2, (DI)
	ADDQ        $32, SI
	ADDQ        $32, DI
	DECQ        CX
	JNZ         loop
	VZEROUPPER
	RET

// func expF32x16(d, a unsafe.Pointer, n int)
// Is expF32x8 over n elements (a multiple of 16) with AVX-512F: eight
// float64 lanes a register, the same operations and so the same bits.
TEXT ·expF32x16(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $4, CX

loop16:
	VCVTPS2PD  (SI), Z0
	VCVTPS2PD  32(SI), Z4
	EXPHALF(Z0, Z1, Z2, Z3)
	EXPHALF(Z4, Z5, Z6, Z7)
	VCVTPD2PS  Z2, Y2
	VCVTPD2PS  Z6, Y6
	VMOVUPS    (SI), Y8
	VCMPPS     $3, Y8, Y8, Y9
	VADDPS     Y8, Y8, Y8
	VBLENDVPS  Y9, Y8, Y2, Y2
	VMOVUPS    32(SI), Y10
	VCMPPS     $3, Y10, Y10, Y11
	VADDPS     Y10, Y10, Y10
	VBLENDVPS  Y11, Y10, Y6, Y6
	VMOVUPS    Y2, (DI)
	VMOVUPS    Y6, 32(DI)
	ADDQ       $64, SI
	ADDQ       $64, DI
	DECQ       CX
	JNZ        loop16
	VZEROUPPER
	RET
