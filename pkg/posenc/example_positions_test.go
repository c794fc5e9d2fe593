package posenc_test

import (
	"fmt"

	"github.com/posenc/course/pkg/posenc"
)

func ExampleProportionalScaling() {
	// p-RoPE on a 16-dimensional head: a quarter of the 8 pairs rotate, with
	// full RoPE's two highest frequencies; the rest have frequency 0.
	p := posenc.NewRoPE(16).WithScaling(posenc.ProportionalScaling(0.25))
	freq, _ := p.InvFreq()
	fmt.Printf("p-RoPE  %s, %d rotating pairs\n", row(freq), p.RotatedPairs())

	// Partial rotary over the same 4 dimensions recomputes the frequencies
	// over the rotated width: its second pair is 100 times slower.
	partial, _ := posenc.NewRoPE(16).WithRotaryDim(4).InvFreq()
	fmt.Printf("partial %s\n", row(partial))
	// Output:
	// p-RoPE  [1.0000 0.3162 0.0000 0.0000 0.0000 0.0000 0.0000 0.0000], 2 rotating pairs
	// partial [1.0000 0.0100]
}
