package asm

// RotateInterleaved rotates pairs (src[2i], src[2i+1]) by (cs[i], sn[i])
// into out, for i < len(cs); len(out) and len(src) are at least 2·len(cs)
// and out may be src. It is
//
//	for i := range cs {
//		a, b := float64(src[2*i]), float64(src[2*i+1])
//		out[2*i] = T(float64(a*cs[i]) - float64(b*sn[i]))
//		out[2*i+1] = T(float64(a*sn[i]) + float64(b*cs[i]))
//	}
//
// Consecutive rows of a tensor and of a cos/sin table may be passed at
// once.
func RotateInterleaved[T Float](out, src []T, cs, sn []float64) {
	n := len(cs)
	out, src, sn = out[:2*n], src[:2*n], sn[:n]
	if n4 := n &^ 3; UseAVX2 && n4 > 0 && is32[T]() {
		rotateInterleavedAVX2(&asF32(out)[0], &asF32(src)[0], &cs[0], &sn[0], n4)
		out, src, cs, sn = out[2*n4:], src[2*n4:], cs[n4:], sn[n4:]
	}
	rotateInterleaved(out, src, cs, sn)
}

func rotateInterleaved[T Float](out, src []T, cs, sn []float64) {
	n := len(cs)
	out, src, sn = out[:2*n], src[:2*n], sn[:n]
	for i := range n {
		x := src[2*i : 2*i+2 : 2*i+2]
		o := out[2*i : 2*i+2 : 2*i+2]
		a, b := float64(x[0]), float64(x[1])
		c, s := cs[i], sn[i]
		o[0], o[1] = T(float64(a*c)-float64(b*s)), T(float64(a*s)+float64(b*c))
	}
}

// RotateHalves rotates pairs (src1[i], src2[i]) by (cs[i], sn[i]) into
// (out1[i], out2[i]), for i < len(cs); out1 may be src1 and out2 src2. It
// is
//
//	for i := range cs {
//		a, b := float64(src1[i]), float64(src2[i])
//		out1[i] = T(float64(a*cs[i]) - float64(b*sn[i]))
//		out2[i] = T(float64(a*sn[i]) + float64(b*cs[i]))
//	}
func RotateHalves[T Float](out1, out2, src1, src2 []T, cs, sn []float64) {
	h := len(cs)
	out1, out2, src1, src2, sn = out1[:h], out2[:h], src1[:h], src2[:h], sn[:h]
	if h4 := h &^ 3; UseAVX2 && h4 > 0 && is32[T]() {
		rotateHalvesAVX2(&asF32(out1)[0], &asF32(out2)[0], &asF32(src1)[0], &asF32(src2)[0], &cs[0], &sn[0], h4)
		out1, out2, src1, src2, cs, sn = out1[h4:], out2[h4:], src1[h4:], src2[h4:], cs[h4:], sn[h4:]
	}
	rotateHalves(out1, out2, src1, src2, cs, sn)
}

func rotateHalves[T Float](out1, out2, src1, src2 []T, cs, sn []float64) {
	h := len(cs)
	out1, out2, src1, src2, sn = out1[:h], out2[:h], src1[:h], src2[:h], sn[:h]
	for i, c := range cs {
		a, b := float64(src1[i]), float64(src2[i])
		s := sn[i]
		out1[i] = T(float64(a*c) - float64(b*s))
		out2[i] = T(float64(a*s) + float64(b*c))
	}
}
