package asm

// RotatePairs advances each (sin, cos) pair by one step of its frequency ω,
// given stepSin[i] = sin ω_i and stepCos[i] = cos ω_i:
//
//	sin(a+ω) = sin a·cos ω + cos a·sin ω
//	cos(a+ω) = cos a·cos ω − sin a·sin ω
//
// that is
//
//	for i := range sn {
//		s, c := sn[i], cs[i]
//		sn[i] = float64(s*stepCos[i]) + float64(c*stepSin[i])
//		cs[i] = float64(c*stepCos[i]) - float64(s*stepSin[i])
//	}
func RotatePairs(sn, cs, stepSin, stepCos []float64) {
	n := len(sn)
	cs, stepSin, stepCos = cs[:n], stepSin[:n], stepCos[:n]
	for i := range n {
		s, c := sn[i], cs[i]
		ss, sc := stepSin[i], stepCos[i]
		sn[i] = float64(s*sc) + float64(c*ss)
		cs[i] = float64(c*sc) - float64(s*ss)
	}
}

// StepInterleaved stores the pairs (sn[i], cs[i]) as out[2i], out[2i+1]
// and advances them by one step, for i < len(sn): one row of the
// interleaved sinusoidal table and the move to the next. It is
//
//	for i := range sn {
//		out[2*i], out[2*i+1] = T(sn[i]), T(cs[i])
//	}
//	RotatePairs(sn, cs, stepSin, stepCos)
func StepInterleaved[T Float](out []T, sn, cs, stepSin, stepCos []float64) {
	n := len(sn)
	out, cs, stepSin, stepCos = out[:2*n], cs[:n], stepSin[:n], stepCos[:n]
	if n4 := n &^ 3; UseAVX2 && n4 > 0 && is32[T]() {
		stepInterleavedAVX2(&asF32(out)[0], &sn[0], &cs[0], &stepSin[0], &stepCos[0], n4)
		if n4 == n {
			return
		}
		out, sn, cs, stepSin, stepCos = out[2*n4:], sn[n4:], cs[n4:], stepSin[n4:], stepCos[n4:]
	}
	for i := range sn {
		o := out[2*i : 2*i+2 : 2*i+2]
		o[0], o[1] = T(sn[i]), T(cs[i])
	}
	RotatePairs(sn, cs, stepSin, stepCos)
}

// StepHalves stores sn[i] in outS[i] and cs[i] in outC[i] and advances each
// pair by one step, for i < len(sn): one row of the [sin | cos] table and
// the move to the next. It is
//
//	for i := range sn {
//		outS[i], outC[i] = T(sn[i]), T(cs[i])
//	}
//	RotatePairs(sn, cs, stepSin, stepCos)
func StepHalves[T Float](outS, outC []T, sn, cs, stepSin, stepCos []float64) {
	n := len(sn)
	outS, outC, cs, stepSin, stepCos = outS[:n], outC[:n], cs[:n], stepSin[:n], stepCos[:n]
	if n4 := n &^ 3; UseAVX2 && n4 > 0 && is32[T]() {
		stepHalvesAVX2(&asF32(outS)[0], &asF32(outC)[0], &sn[0], &cs[0], &stepSin[0], &stepCos[0], n4)
		if n4 == n {
			return
		}
		outS, outC, sn, cs, stepSin, stepCos = outS[n4:], outC[n4:], sn[n4:], cs[n4:], stepSin[n4:], stepCos[n4:]
	}
	for i := range sn {
		outS[i], outC[i] = T(sn[i]), T(cs[i])
	}
	RotatePairs(sn, cs, stepSin, stepCos)
}
