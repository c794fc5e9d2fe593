package viz

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// maxLogLabels is the most decades a logarithmic axis labels; beyond it only
// every k-th decade gets a label.
const maxLogLabels = 8

// decadeTicks marks a logarithmic axis at the powers of ten within its range.
//
// gonum's plot.LogTicks builds each decade by repeated multiplication, which
// drifts below 1 (its label for 1e-11 reads "1.0000000000000001e-11"), and
// labels every decade, which crowds an axis spanning 30 of them (attention
// weights under a bias). Here each power is the float64 nearest 10^e, and labels
// are thinned to at most maxLogLabels; unlabelled decades keep a tick.
// (math.Pow10 is not exact either for large negative powers: pow10 parses
// "1e<e>", which is correctly rounded, so that labels print as 1e-29.)
// Ranges holding fewer than two powers of ten fall back to plainTicks.
type decadeTicks struct{}

// Ticks implements plot.Ticker.
func (decadeTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0 && max >= min) || math.IsInf(max, 0) {
		return plainTicks{}.Ticks(min, max)
	}
	lo := int(math.Ceil(math.Log10(min)))
	hi := int(math.Floor(math.Log10(max)))
	if pow10(lo-1) >= min { // Log10 rounding at an exact power
		lo--
	}
	if pow10(hi+1) <= max {
		hi++
	}
	if hi-lo < 1 {
		return plainTicks{}.Ticks(min, max)
	}
	step := 1
	for (hi-lo)/step+1 > maxLogLabels {
		step++
	}
	var ticks []plot.Tick
	for e := lo; e <= hi; e++ {
		v := pow10(e)
		t := plot.Tick{Value: v}
		if (e-lo)%step == 0 {
			t.Label = strconv.FormatFloat(v, 'g', -1, 64)
		}
		ticks = append(ticks, t)
		if hi-lo <= 3 { // few decades: minor ticks at 2…9 × 10^e
			for m := 2; m < 10; m++ {
				if w := float64(m) * v; w <= max {
					ticks = append(ticks, plot.Tick{Value: w})
				}
			}
		}
	}
	return ticks
}

// pow10 returns the float64 nearest to 10^e.
func pow10(e int) float64 {
	v, _ := strconv.ParseFloat("1e"+strconv.Itoa(e), 64)
	return v
}
