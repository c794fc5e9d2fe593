package bandview

import (
	"slices"

	"github.com/posenc/course/pkg/live"
)

// Control is a setting Explore lets the learner change.
type Control int

const (
	MethodControl   Control = iota // a select over Methods
	FactorControl                  // a slider over the factor s
	BaseControl                    // a slider over the base b
	TrainLenControl                // a slider over the training length L
)

// The values the sliders offer; Explore adds the configuration's own when
// it is not among them.
var (
	factorValues   = []float64{1, 1.5, 2, 3, 4, 6, 8, 12, 16, 32, 64}
	baseValues     = []float64{500, 1000, 5000, 10000, 50000, 100000, 500000, 1e6, 1e7}
	trainLenValues = []float64{256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 131072}
)

// Explore shows c's band view and the readout of check, with a control for
// each of controls: in JupyterLab the learner changes them and the view
// redraws; elsewhere (a headless run, Notebook 6, the committed notebook)
// the view of c is shown as an ordinary figure. See package live. It panics
// when c itself is invalid: a mistake in the lesson.
func Explore(c Config, check Check, controls ...Control) {
	p := live.New()
	var method *live.Select
	var factor, base, trainLen *live.Slider
	for _, ctl := range controls {
		switch ctl {
		case MethodControl:
			names := MethodNames()
			method = p.Select("method", names, max(slices.Index(names, c.Method), 0))
		case FactorControl:
			values, i := with(factorValues, c.Factor)
			factor = p.Slider("factor s", values, i, "%g")
		case BaseControl:
			values, i := with(baseValues, c.Base)
			base = p.Slider("base b", values, i, "%.0f")
		case TrainLenControl:
			values, i := with(trainLenValues, float64(c.TrainLen))
			trainLen = p.Slider("training length L", values, i, "%.0f")
		}
	}
	p.Run(func() (live.View, error) {
		cfg := c
		if method != nil {
			cfg.Method = method.Value()
		}
		if factor != nil {
			cfg.Factor = factor.Value()
		}
		if base != nil {
			cfg.Base = base.Value()
		}
		if trainLen != nil {
			cfg.TrainLen = trainLen.Int()
		}
		b, err := Compute(cfg)
		if err != nil {
			return live.View{}, err
		}
		return live.View{Figure: b.Figure(), Readout: b.Readout(check)}, nil
	})
}

// with returns values with v inserted in order if it is not there, and v's
// index.
func with(values []float64, v float64) ([]float64, int) {
	if i := slices.Index(values, v); i >= 0 {
		return values, i
	}
	out := append(slices.Clone(values), v)
	slices.Sort(out)
	return out, slices.Index(out, v)
}
