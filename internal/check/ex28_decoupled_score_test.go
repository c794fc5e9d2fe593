package check

import "math"

// Learner-style implementations of exercise 28 (DeepSeek's decoupled
// score), correct when bug is "" and otherwise wrong in one classic way:
// each must fail with the hint that names its mistake (feedback_test.go).

func init() { addSuite(mutDecoupledSuite) }

func mutDecoupledSuite() suite {
	return mutSuite(28, DecoupledScore, mutDecoupled, map[string]*Hint{
		"rotates_whole_head":     hintDecRotatesNope,
		"both_at_m":              hintDecSamePosition,
		"query_by_n_minus_m":     hintDecSign,
		"forgets_nope":           hintDecNoNope,
		"half_split":             hintDecHalves,
		"frequencies_whole_head": hintDecWholeHeadDim,
		"rotates_query_in_place": hintDecMutates,
		"integer_exponent":       hintDecIntExponent,
		"float32_angles":         hintDecFloat32,
		"divides_by_sqrt_d":      hintDecScaled,
	})
}

func mutDecoupled(bug string) func(qNope, kNope, qRope, kRope []float64, base float64, m, n int) float64 {
	return func(qNope, kNope, qRope, kRope []float64, base float64, m, n int) float64 {
		rotate := func(v []float64, pos, den int, halves, inPlace bool) []float64 {
			out := v
			if !inPlace {
				out = append([]float64(nil), v...)
			}
			src := append([]float64(nil), v...)
			h := len(v) / 2
			for i := range h {
				a, b := 2*i, 2*i+1
				if halves {
					a, b = i, i+h
				}
				e := float64(2*i) / float64(den)
				if bug == "integer_exponent" {
					e = float64(2 * i / den)
				}
				ang := float64(pos) * math.Pow(base, -e)
				if bug == "float32_angles" { // a float32 tensor holds the angles
					ang = float64(float32(ang))
				}
				out[a] = src[a]*math.Cos(ang) - src[b]*math.Sin(ang)
				out[b] = src[a]*math.Sin(ang) + src[b]*math.Cos(ang)
			}
			return out
		}
		dotp := func(a, b []float64) (s float64) {
			for i := range a {
				s += a[i] * b[i]
			}
			return s
		}
		if bug == "rotates_whole_head" {
			q := append(append([]float64(nil), qNope...), qRope...)
			k := append(append([]float64(nil), kNope...), kRope...)
			return dotp(rotate(q, m, len(q), false, false), rotate(k, n, len(k), false, false))
		}
		d := len(qRope)
		den := d
		if bug == "frequencies_whole_head" {
			den = d + len(qNope)
		}
		qm, kn := m, n
		switch bug {
		case "both_at_m":
			kn = m
		case "query_by_n_minus_m":
			qm, kn = n, m
		}
		rope := dotp(rotate(qRope, qm, den, bug == "half_split", bug == "rotates_query_in_place"),
			rotate(kRope, kn, den, bug == "half_split", false))
		if bug == "forgets_nope" {
			return rope
		}
		if bug == "divides_by_sqrt_d" {
			return (dotp(qNope, kNope) + rope) / math.Sqrt(float64(len(qNope)+d))
		}
		return dotp(qNope, kNope) + rope
	}
}
