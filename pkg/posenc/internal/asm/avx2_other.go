//go:build !amd64 || purego

package asm

// Without the AVX2 kernels (other architectures, or the purego build tag)
// every function runs its Go loop; the stubs below are never called.
const UseAVX2 = false

func rotateInterleavedAVX2(out, src *float32, cos, sin *float64, pairs int) {
	panic("asm: no AVX2 kernels in this build")
}

func rotateHalvesAVX2(out1, out2, src1, src2 *float32, cos, sin *float64, n int) {
	panic("asm: no AVX2 kernels in this build")
}

func stepInterleavedAVX2(out *float32, sn, cs, stepSin, stepCos *float64, n int) {
	panic("asm: no AVX2 kernels in this build")
}

func stepHalvesAVX2(outS, outC *float32, sn, cs, stepSin, stepCos *float64, n int) {
	panic("asm: no AVX2 kernels in this build")
}
