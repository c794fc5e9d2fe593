//go:build amd64 && !purego

#include "textflag.h"

// AVX2 kernels for the float32 hot loops; see avx2_amd64.go, and rotate.go
// and step.go for the Go loop each must equal. Each computes in float64,
// with the same operations in the same order as its Go loop (no FMA), and
// rounds to float32 once.

// Sign bits of lanes 0 and 2: turns (s0, s0, s1, s1) into (−s0, s0, −s1, s1).
DATA signEven<>+0(SB)/8, $0x8000000000000000
DATA signEven<>+8(SB)/8, $0x0000000000000000
DATA signEven<>+16(SB)/8, $0x8000000000000000
DATA signEven<>+24(SB)/8, $0x0000000000000000
GLOBL signEven<>(SB), RODATA|NOPTR, $32

// func rotateInterleavedAVX2(out, src *float32, cos, sin *float64, pairs int)
//
// Four pairs at a time: with x = (a0, b0, a1, b1) in float64,
// C = (c0, c0, c1, c1), S = (−s0, s0, −s1, s1) and swap(x) = (b0, a0, b1, a1),
// x·C + swap(x)·S = (a0c0 − b0s0, b0c0 + a0s0, …): the Go loop's
// a·c − b·s and a·s + b·c, bit for bit (negation is exact, and each sum
// has the same two rounded products).
TEXT ·rotateInterleavedAVX2(SB), NOSPLIT, $0-40
	MOVQ out+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ cos+16(FP), CX
	MOVQ sin+24(FP), DX
	MOVQ pairs+32(FP), BX
	SHRQ $2, BX
	JZ   ri_done
	VMOVUPD signEven<>(SB), Y15

ri_loop:
	VMOVUPS      (SI), Y0
	VCVTPS2PD    X0, Y1          // a0 b0 a1 b1
	VEXTRACTF128 $1, Y0, X2
	VCVTPS2PD    X2, Y2          // a2 b2 a3 b3
	VMOVUPD      (CX), Y3        // c0 c1 c2 c3
	VMOVUPD      (DX), Y4        // s0 s1 s2 s3
	VPERMPD      $0x50, Y3, Y5   // c0 c0 c1 c1
	VPERMPD      $0xFA, Y3, Y6   // c2 c2 c3 c3
	VPERMPD      $0x50, Y4, Y7   // s0 s0 s1 s1
	VPERMPD      $0xFA, Y4, Y8   // s2 s2 s3 s3
	VXORPD       Y15, Y7, Y7     // −s0 s0 −s1 s1
	VXORPD       Y15, Y8, Y8
	VPERMILPD    $5, Y1, Y9      // b0 a0 b1 a1
	VPERMILPD    $5, Y2, Y10
	VMULPD       Y5, Y1, Y1
	VMULPD       Y7, Y9, Y9
	VADDPD       Y9, Y1, Y1
	VMULPD       Y6, Y2, Y2
	VMULPD       Y8, Y10, Y10
	VADDPD       Y10, Y2, Y2
	VCVTPD2PSY   Y1, X1
	VCVTPD2PSY   Y2, X2
	VINSERTF128  $1, X2, Y1, Y1
	VMOVUPS      Y1, (DI)
	ADDQ         $32, SI
	ADDQ         $32, DI
	ADDQ         $32, CX
	ADDQ         $32, DX
	DECQ         BX
	JNZ          ri_loop
	VZEROUPPER

ri_done:
	RET

// func rotateHalvesAVX2(out1, out2, src1, src2 *float32, cos, sin *float64, n int)
TEXT ·rotateHalvesAVX2(SB), NOSPLIT, $0-56
	MOVQ out1+0(FP), DI
	MOVQ out2+8(FP), R8
	MOVQ src1+16(FP), SI
	MOVQ src2+24(FP), R9
	MOVQ cos+32(FP), CX
	MOVQ sin+40(FP), DX
	MOVQ n+48(FP), BX
	SHRQ $2, BX
	JZ   rh_done

rh_loop:
	VCVTPS2PD  (SI), Y0        // a
	VCVTPS2PD  (R9), Y1        // b
	VMOVUPD    (CX), Y2        // c
	VMOVUPD    (DX), Y3        // s
	VMULPD     Y2, Y0, Y4
	VMULPD     Y3, Y1, Y5
	VSUBPD     Y5, Y4, Y4      // a·c − b·s
	VMULPD     Y3, Y0, Y6
	VMULPD     Y2, Y1, Y7
	VADDPD     Y7, Y6, Y6      // a·s + b·c
	VCVTPD2PSY Y4, X4
	VCVTPD2PSY Y6, X6
	VMOVUPS    X4, (DI)
	VMOVUPS    X6, (R8)
	ADDQ       $16, SI
	ADDQ       $16, R9
	ADDQ       $16, DI
	ADDQ       $16, R8
	ADDQ       $32, CX
	ADDQ       $32, DX
	DECQ       BX
	JNZ        rh_loop
	VZEROUPPER

rh_done:
	RET

// func stepInterleavedAVX2(out *float32, sn, cs, stepSin, stepCos *float64, n int)
TEXT ·stepInterleavedAVX2(SB), NOSPLIT, $0-48
	MOVQ out+0(FP), DI
	MOVQ sn+8(FP), SI
	MOVQ cs+16(FP), R8
	MOVQ stepSin+24(FP), CX
	MOVQ stepCos+32(FP), DX
	MOVQ n+40(FP), BX
	SHRQ $2, BX
	JZ   si_done

si_loop:
	VMOVUPD    (SI), Y0        // sin
	VMOVUPD    (R8), Y1        // cos
	VCVTPD2PSY Y0, X2
	VCVTPD2PSY Y1, X3
	VUNPCKLPS  X3, X2, X4      // s0 c0 s1 c1
	VUNPCKHPS  X3, X2, X5      // s2 c2 s3 c3
	VMOVUPS    X4, (DI)
	VMOVUPS    X5, 16(DI)
	VMOVUPD    (CX), Y6        // sin ω
	VMOVUPD    (DX), Y7        // cos ω
	VMULPD     Y7, Y0, Y8
	VMULPD     Y6, Y1, Y9
	VADDPD     Y9, Y8, Y8      // sin·cos ω + cos·sin ω
	VMULPD     Y7, Y1, Y10
	VMULPD     Y6, Y0, Y11
	VSUBPD     Y11, Y10, Y10   // cos·cos ω − sin·sin ω
	VMOVUPD    Y8, (SI)
	VMOVUPD    Y10, (R8)
	ADDQ       $32, DI
	ADDQ       $32, SI
	ADDQ       $32, R8
	ADDQ       $32, CX
	ADDQ       $32, DX
	DECQ       BX
	JNZ        si_loop
	VZEROUPPER

si_done:
	RET

// func stepHalvesAVX2(outS, outC *float32, sn, cs, stepSin, stepCos *float64, n int)
TEXT ·stepHalvesAVX2(SB), NOSPLIT, $0-56
	MOVQ outS+0(FP), DI
	MOVQ outC+8(FP), R9
	MOVQ sn+16(FP), SI
	MOVQ cs+24(FP), R8
	MOVQ stepSin+32(FP), CX
	MOVQ stepCos+40(FP), DX
	MOVQ n+48(FP), BX
	SHRQ $2, BX
	JZ   sh_done

sh_loop:
	VMOVUPD    (SI), Y0
	VMOVUPD    (R8), Y1
	VCVTPD2PSY Y0, X2
	VCVTPD2PSY Y1, X3
	VMOVUPS    X2, (DI)
	VMOVUPS    X3, (R9)
	VMOVUPD    (CX), Y6
	VMOVUPD    (DX), Y7
	VMULPD     Y7, Y0, Y8
	VMULPD     Y6, Y1, Y9
	VADDPD     Y9, Y8, Y8
	VMULPD     Y7, Y1, Y10
	VMULPD     Y6, Y0, Y11
	VSUBPD     Y11, Y10, Y10
	VMOVUPD    Y8, (SI)
	VMOVUPD    Y10, (R8)
	ADDQ       $16, DI
	ADDQ       $16, R9
	ADDQ       $32, SI
	ADDQ       $32, R8
	ADDQ       $32, CX
	ADDQ       $32, DX
	DECQ       BX
	JNZ        sh_loop
	VZEROUPPER

sh_done:
	RET
