package viz

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// plainTicks are gonum's default ticks, labelled as integers when every
// labelled tick is one. gonum picks the labels' decimals from the tick
// spacing, so that an axis of layers 0–29 reads "0.00" and "25.00".
type plainTicks struct{}

// Ticks implements plot.Ticker.
func (plainTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for _, t := range ticks {
		if t.Label != "" && (t.Value != math.Trunc(t.Value) || math.Abs(t.Value) >= 1e15) {
			return ticks
		}
	}
	for i, t := range ticks {
		if t.Label != "" {
			ticks[i].Label = strconv.FormatFloat(t.Value, 'f', 0, 64)
		}
	}
	return ticks
}
