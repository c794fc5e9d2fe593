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

func ExampleLongRoPEScaling() {
	// LongRoPE on a 4-dimensional head trained on 4096 positions and
	// extended 32 times: short factors up to 4096 positions, long beyond.
	short, long := []float64{1, 2}, []float64{1.5, 60}
	for _, seq := range []int{4096, 4097} {
		r := posenc.NewRoPE(4).WithScaling(posenc.LongRoPEScaling(32, 4096, seq, short, long))
		freq, _ := r.InvFreq()
		fmt.Printf("seq %d: long %v, %s attention ×%.4f\n", seq, r.Scaling.UsesLongFactor(), row(freq), r.AttentionFactor())
	}
	// Output:
	// seq 4096: long false, [1.0000 0.0050] attention ×1.1902
	// seq 4097: long true, [0.6667 0.0002] attention ×1.1902
}
