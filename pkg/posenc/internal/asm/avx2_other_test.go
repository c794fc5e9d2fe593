//go:build !amd64 || purego

package asm

// paths returns the settings of UseAVX2 to test: the Go loops alone, in a
// build without the kernels.
func paths() []bool { return []bool{false} }

// withAVX2 runs f; this build has only the Go loops.
func withAVX2(on bool, f func()) {
	if on {
		panic("asm: no AVX2 kernels in this build")
	}
	f()
}
