package bandview_test

import (
	"fmt"

	"github.com/posenc/course/pkg/bandview"
)

// What YaRN does to Llama 2's head, trained on 4096 tokens, run on 16384:
// the readout of lesson 5's band view.
func ExampleCompute() {
	b, err := bandview.Compute(bandview.Config{HeadDim: 128, Base: 10000, TrainLen: 4096, Factor: 4, Method: "YaRN"})
	if err != nil {
		panic(err)
	}
	fmt.Println(b.Readout(bandview.PastTrained))
	fmt.Println(b.Count(bandview.Kept), b.Count(bandview.Interpolated))
	// Output:
	// YaRN: d = 128, base = 10000, L = 4096, factor s = 4 (target 16384 tokens)
	// wavelengths: 6.3 to 54410 tokens unscaled, 6.3 to 217641 scaled
	// pairs kept 21, blended 25, interpolated 18, divided by more than s 0
	// pairs past their trained angle at 16384 tokens: 0
	// logit multiplier 1/t = 1.2965
	// 21 18
}

// Explore shows the view with controls in JupyterLab; elsewhere, as here,
// the configuration's view and readout.
func ExampleExplore() {
	bandview.Explore(bandview.Config{HeadDim: 128, Base: 10000, TrainLen: 4096, Factor: 4, Method: "none"},
		bandview.PastTrained, bandview.MethodControl, bandview.BaseControl)
	// Output:
	// [figure: shown in notebooks]
	// method = none, base b = 10000
	// none: d = 128, base = 10000, L = 4096, factor s = 4 (target 16384 tokens)
	// wavelengths: 6.3 to 54410 tokens unscaled, 6.3 to 54410 scaled
	// pairs kept 64, blended 0, interpolated 0, divided by more than s 0
	// pairs past their trained angle at 16384 tokens: 18 (pairs 46 to 63)
	// No controls for method and base b here: not in a notebook.
}
