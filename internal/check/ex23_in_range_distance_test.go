package check

import "math"

// Learner-style implementations of exercise 23 (How far a scaled RoPE stays
// on trained angles), correct when bug is "" and otherwise wrong in one
// classic way: each must fail with the hint that names its mistake
// (feedback_test.go).

func init() { addSuite(mutInRangeSuite) }

func mutInRangeSuite() suite {
	return mutSuite(23, InRangeDistance, mutInRange, map[string]*Hint{
		"no_exemption":          hintRangeNoExemption,
		"turn_with_scaled":      hintRangeTurnedScaled,
		"strict_turn":           hintRangeStrict,
		"one_radian":            hintRangeRadian,
		"largest":               hintRangeMax,
		"first_unturned":        hintRangeOnePair,
		"last_unturned":         hintRangeOnePair,
		"inverted":              hintRangeInverted,
		"minus_one":             hintRangeMinusOne,
		"rounds_down":           hintRangeRounded,
		"rounds":                hintRangeRounded,
		"zero_when_none":        hintRangeNoInf,
		"maxfloat_for_none":     hintRangeNoInf,
		"unscaled_angles":       hintRangeIgnoresScaled,
		"scales_in_place":       hintRangeMutates,
		"marks_turned_in_place": hintRangeMutates,
		"skips_pair_0":          hintRangeFirstPair,
	})
}

func mutInRange(bug string) func(trained, scaled []float64, trainLen int) float64 {
	return func(trained, scaled []float64, trainLen int) float64 {
		best := math.Inf(1)
		if bug == "zero_when_none" {
			best = 0
		}
		if bug == "maxfloat_for_none" {
			best = math.MaxFloat64
		}
		found := false
		fullTurn := 2 * math.Pi
		if bug == "one_radian" {
			fullTurn = 1
		}
		first := 0
		if bug == "skips_pair_0" {
			first = 1
		}
		for i := first; i < len(trained); i++ {
			w, ws := trained[i], scaled[i]
			if bug == "unscaled_angles" {
				ws = w
			}
			turns := float64(trainLen) * w
			if bug == "turn_with_scaled" {
				turns = float64(trainLen) * ws
			}
			wentRound := turns >= fullTurn
			if bug == "strict_turn" {
				wentRound = turns > fullTurn
			}
			if wentRound && bug != "no_exemption" {
				if bug == "marks_turned_in_place" {
					scaled[i] = 0 // done with this pair
				}
				continue
			}
			l := float64(trainLen)
			if bug == "minus_one" {
				l = float64(trainLen - 1)
			}
			d := l * w / ws
			if bug == "inverted" {
				d = l * ws / w
			}
			if bug == "scales_in_place" { // keeps the ratio in scaled, as a scratch slice
				scaled[i] = w / ws
				d = l * scaled[i]
			}
			switch {
			case bug == "first_unturned":
				if !found {
					best = d
				}
			case bug == "last_unturned":
				best = d
			case bug == "largest":
				if !found || d > best {
					best = d
				}
			case bug == "zero_when_none" || bug == "maxfloat_for_none":
				if !found || d < best {
					best = d
				}
			default:
				best = math.Min(best, d)
			}
			found = true
		}
		switch bug {
		case "rounds_down":
			return math.Floor(best)
		case "rounds":
			return math.Round(best)
		}
		return best
	}
}
