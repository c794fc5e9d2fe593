//go:build !amd64 || purego

package posenc

// Without the AVX2 kernels (other architectures, or the purego build tag)
// every host kernel runs its Go loop.
const useSIMD = false

func ropeInterleavedF32AVX2(out, src *float32, cos, sin *float64, pairs int) {
	panic("posenc: no SIMD kernels in this build")
}

func ropeHalvesF32AVX2(out1, out2, src1, src2 *float32, cos, sin *float64, n int) {
	panic("posenc: no SIMD kernels in this build")
}

func sinStepInterleavedF32AVX2(out *float32, sn, cs, stepSin, stepCos *float64, n int) {
	panic("posenc: no SIMD kernels in this build")
}

func sinStepHalvesF32AVX2(outS, outC *float32, sn, cs, stepSin, stepCos *float64, n int) {
	panic("posenc: no SIMD kernels in this build")
}
