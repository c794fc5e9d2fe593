package check

import "math"

// Learner-style implementations of exercise 31 (moving a cached key),
// correct when bug is "" and otherwise wrong in one classic way: each must
// fail with the hint that names its mistake (feedback_test.go).

func init() { addSuite(mutReRotateSuite) }

func mutReRotateSuite() suite {
	return mutSuite(31, ReRotateKey, mutReRotate, map[string]*Hint{
		"opposite":     hintReRotOpposite,
		"halves":       hintReRotHalves,
		"swapped":      hintReRotSwapped,
		"no_frequency": hintReRotNoFreq,
		"in_place":     hintReRotMutates,
		"new_x":        hintReRotNewX,
		"float32":      hintReRotFloat32,
		"degrees":      hintReRotDegrees,
	})
}

func mutReRotate(bug string) func(key, invFreq []float64, delta int) []float64 {
	return func(key, invFreq []float64, delta int) []float64 {
		out := make([]float64, len(key))
		if bug == "in_place" {
			out = key
		}
		for i, w := range invFreq {
			a, b := 2*i, 2*i+1
			if bug == "halves" {
				a, b = i, i+len(key)/2
			}
			angle := float64(delta) * w
			switch bug {
			case "opposite":
				angle = -angle
			case "no_frequency":
				angle = float64(delta)
			case "float32": // the product rounded to float32, as a float32 tensor holds it
				angle = float64(float32(angle))
			case "degrees":
				angle = angle / 180 * math.Pi
			}
			s, c := math.Sincos(angle)
			x, y := key[a], key[b]
			if bug == "swapped" {
				out[a], out[b] = x*s+y*c, x*c-y*s
				continue
			}
			if bug == "new_x" {
				out[a] = x*c - y*s
				out[b] = out[a]*s + y*c
				continue
			}
			out[a], out[b] = x*c-y*s, x*s+y*c
		}
		return out
	}
}
