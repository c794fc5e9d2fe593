package lab

import "math"

// Wilson returns the 95% Wilson score interval of a proportion of k
// successes in n trials (Wilson 1927; Brown, Cai & DasGupta 2001 recommend
// it over the normal approximation for small n or rates near 0 and 1).
func Wilson(k, n int) (lo, hi float64) {
	if n <= 0 {
		return math.NaN(), math.NaN()
	}
	const z = 1.959963984540054 // the 97.5% quantile of the standard normal
	p, nf := float64(k)/float64(n), float64(n)
	denom := 1 + z*z/nf
	centre := (p + z*z/(2*nf)) / denom
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / denom
	return math.Max(0, centre-half), math.Min(1, centre+half)
}

// Spread summarises values measured once per seed: their mean, smallest
// and largest, and sample standard deviation (0 for one value).
type Spread struct {
	Mean, Min, Max, SD float64
	N                  int
}

// SpreadOf returns the spread of xs.
func SpreadOf(xs []float64) Spread {
	s := Spread{Min: math.Inf(1), Max: math.Inf(-1), N: len(xs)}
	if len(xs) == 0 {
		return Spread{Mean: math.NaN(), Min: math.NaN(), Max: math.NaN(), SD: math.NaN()}
	}
	for _, x := range xs {
		s.Mean += x / float64(len(xs))
		s.Min, s.Max = math.Min(s.Min, x), math.Max(s.Max, x)
	}
	if len(xs) > 1 {
		for _, x := range xs {
			s.SD += (x - s.Mean) * (x - s.Mean)
		}
		s.SD = math.Sqrt(s.SD / float64(len(xs)-1))
	}
	return s
}

// Overlaps reports whether the ranges [Min, Max] of s and o meet: two
// conditions whose seeds overlap are a tie at this number of seeds.
func (s Spread) Overlaps(o Spread) bool { return s.Min <= o.Max && o.Min <= s.Max }
