//go:build amd64 && !purego

package asm

import "golang.org/x/sys/cpu"

// UseAVX2 selects the AVX2 kernels; it is false on CPUs (or operating
// systems that do not save the YMM registers) without AVX2, as x/sys/cpu
// reports. Tests switch it off to exercise the Go loops.
var UseAVX2 = cpu.X86.HasAVX2

// rotateInterleavedAVX2 is RotateInterleaved on float32 for pairs a
// multiple of 4.
//
//go:noescape
func rotateInterleavedAVX2(out, src *float32, cos, sin *float64, pairs int)

// rotateHalvesAVX2 is RotateHalves on float32 for n a multiple of 4.
//
//go:noescape
func rotateHalvesAVX2(out1, out2, src1, src2 *float32, cos, sin *float64, n int)

// stepInterleavedAVX2 is StepInterleaved on float32 for n a multiple of 4.
//
//go:noescape
func stepInterleavedAVX2(out *float32, sn, cs, stepSin, stepCos *float64, n int)

// stepHalvesAVX2 is StepHalves on float32 for n a multiple of 4.
//
//go:noescape
func stepHalvesAVX2(outS, outC *float32, sn, cs, stepSin, stepCos *float64, n int)
