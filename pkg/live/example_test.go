package live_test

import (
	"fmt"

	"github.com/posenc/course/pkg/live"
	"github.com/posenc/course/pkg/viz"
)

// A panel with a slider and a select. Outside a notebook (here) Run shows
// the default view only: the readout, and a note where the figure would be.
func ExamplePanel() {
	p := live.New()
	slope := p.Slider("slope", live.Values(1, 4, 1), 1, "%.0f")
	shape := p.Select("shape", []string{"line", "square"}, 0)
	p.Run(func() (live.View, error) {
		x := viz.Range(5)
		y := make([]float64, len(x))
		for i := range x {
			y[i] = slope.Value() * x[i]
			if shape.Value() == "square" {
				y[i] *= x[i]
			}
		}
		return live.View{
			Figure:  viz.Lines("y", "x", "y", viz.Series{X: x, Y: y}),
			Readout: fmt.Sprintf("y(4) = %g", y[4]),
		}, nil
	})
	// Output:
	// [figure: shown in notebooks]
	// slope = 2, shape = line
	// y(4) = 8
	// No controls for slope and shape here: not in a notebook.
}
