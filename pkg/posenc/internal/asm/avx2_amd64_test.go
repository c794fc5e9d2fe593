//go:build amd64 && !purego

package asm

// paths returns the settings of UseAVX2 to test: both when the CPU has
// AVX2, the Go loops alone otherwise.
func paths() []bool {
	if UseAVX2 {
		return []bool{true, false}
	}
	return []bool{false}
}

// withAVX2 runs f with UseAVX2 set to on, then restores it.
func withAVX2(on bool, f func()) {
	saved := UseAVX2
	UseAVX2 = on
	defer func() { UseAVX2 = saved }()
	f()
}
