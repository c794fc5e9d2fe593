package posenc

import "unsafe"

// Dispatch between the AVX2 kernels (simd_amd64.s) and the Go loops. The
// kernels exist for float32 only; a generic function reaches them through
// is32 and asF32, which cost nothing per call (no interface conversion, so
// no allocation).

// is32 reports whether T's underlying type is float32.
func is32[T Float]() bool {
	var z T
	return unsafe.Sizeof(z) == 4
}

// asF32 views s, whose element type has float32 as underlying type, as a
// []float32 (same memory).
func asF32[T Float](s []T) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// rotateInterleavedRows rotates pairs (2i, 2i+1) of src by (cs[i], sn[i])
// into out: len(out) = len(src) = 2·len(cs). Consecutive rows of a tensor
// and of the cache may be passed at once.
func rotateInterleavedRows[T Float](out, src []T, cs, sn []float64) {
	n := len(cs)
	out, src, sn = out[:2*n], src[:2*n], sn[:n]
	if n4 := n &^ 3; useSIMD && n4 > 0 && is32[T]() {
		ropeInterleavedF32AVX2(&asF32(out)[0], &asF32(src)[0], &cs[0], &sn[0], n4)
		out, src, cs, sn = out[2*n4:], src[2*n4:], cs[n4:], sn[n4:]
	}
	rotateInterleaved(out, src, cs, sn)
}

// rotateHalvesRow rotates pairs (i, i+len(cs)) of one row.
func rotateHalvesRow[T Float](out, src []T, cs, sn []float64) {
	h := len(cs)
	o1, o2 := out[:h], out[h:2*h]
	s1, s2 := src[:h], src[h:2*h]
	sn = sn[:h]
	if h4 := h &^ 3; useSIMD && h4 > 0 && is32[T]() {
		ropeHalvesF32AVX2(&asF32(o1)[0], &asF32(o2)[0], &asF32(s1)[0], &asF32(s2)[0], &cs[0], &sn[0], h4)
		o1, o2, s1, s2, cs, sn = o1[h4:], o2[h4:], s1[h4:], s2[h4:], cs[h4:], sn[h4:]
	}
	rotateHalves2(o1, o2, s1, s2, cs, sn)
}
