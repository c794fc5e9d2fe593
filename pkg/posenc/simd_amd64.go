//go:build amd64 && !purego

package posenc

import "golang.org/x/sys/cpu"

// The float32 hot paths (RoPE in both layouts, the sinusoidal table in both
// layouts) have AVX2 kernels in simd_amd64.s. Pure Go cannot reach memory
// speed on them: Go does not vectorise, and a scalar loop converting each
// float32 to float64 and back tops out at about one value per cycle per
// core. The kernels compute exactly what the Go loops compute (same float64
// operations in the same order, no FMA), so their results are identical bit
// for bit; simd_amd64_test.go checks that, and `go test -tags purego` runs
// the whole suite on the Go loops alone.

// useSIMD selects the AVX2 kernels; it is false on CPUs (or operating
// systems that do not save the YMM registers) without AVX2, as x/sys/cpu
// reports. Tests switch it off to exercise the Go loops.
var useSIMD = cpu.X86.HasAVX2

// ropeInterleavedF32AVX2 rotates pairs (src[2i], src[2i+1]) by (cos[i],
// sin[i]) into out, for i < pairs; pairs must be a multiple of 4.
//
//go:noescape
func ropeInterleavedF32AVX2(out, src *float32, cos, sin *float64, pairs int)

// ropeHalvesF32AVX2 rotates pairs (src1[i], src2[i]) into (out1[i],
// out2[i]) for i < n; n must be a multiple of 4.
//
//go:noescape
func ropeHalvesF32AVX2(out1, out2, src1, src2 *float32, cos, sin *float64, n int)

// sinStepInterleavedF32AVX2 stores pairs (sn[i], cs[i]) as out[2i],
// out[2i+1] and advances each by one step (rotatePairs), for i < n; n must
// be a multiple of 4.
//
//go:noescape
func sinStepInterleavedF32AVX2(out *float32, sn, cs, stepSin, stepCos *float64, n int)

// sinStepHalvesF32AVX2 stores sn[i] in outS[i] and cs[i] in outC[i] and
// advances each pair by one step, for i < n; n must be a multiple of 4.
//
//go:noescape
func sinStepHalvesF32AVX2(outS, outC *float32, sn, cs, stepSin, stepCos *float64, n int)
