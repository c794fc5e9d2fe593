// Package asm holds posenc's float32 hot loops: the rotations of RoPE and
// the one-step recurrence of the sinusoidal table, each as an AVX2 kernel
// (avx2_amd64.s) and as the plain Go loop it must equal.
//
// Every exported function is documented by that plain loop. The kernels
// compute exactly what the loop computes (the same float64 operations in
// the same order, no FMA, one rounding to float32), so their results are
// identical bit for bit; asm_test.go checks each function against its loop,
// written out again in the test, with the AVX2 kernels on and off.
//
// Pure Go cannot reach memory speed here: Go does not vectorise, and a
// scalar loop converting each float32 to float64 and back tops out at about
// one value per cycle per core. The functions run the kernel over the
// largest multiple of 4 pairs and the Go loop over the rest, and only the Go
// loop for float64 elements, on CPUs without AVX2, on other architectures
// and with the purego build tag.
//
// The Go loops convert each product to float64 explicitly
// (float64(a*c) - float64(b*s)): the conversions keep the compiler from
// fusing a product and a sum into one FMA on the architectures where it
// would (arm64, ppc64, s390x), so that every build rounds alike.
//
// The layout follows gonum's internal/asm: the public functions dispatch,
// the kernels have no Go body on amd64, and the other builds get stubs that
// are never called.
package asm

import "unsafe"

// Float is the element type of the slices the loops read and write, the
// same type set as posenc.Float.
type Float interface {
	~float32 | ~float64
}

// is32 reports whether T's underlying type is float32. It is a constant
// for each instantiation: no interface conversion, so no allocation.
func is32[T Float]() bool {
	var z T
	return unsafe.Sizeof(z) == 4
}

// asF32 views s, whose element type has float32 as underlying type, as a
// []float32 (same memory).
func asF32[T Float](s []T) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}
