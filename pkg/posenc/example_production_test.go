package posenc_test

import (
	"fmt"
	"math"

	"github.com/posenc/course/pkg/posenc"
)

func ExamplePositionIDsFromMask() {
	// Two prompts in one batch, the shorter left-padded: its real tokens
	// count from 0, exactly as when it runs alone; pads get 1.
	for _, mask := range [][]int{{1, 1, 1, 1}, {0, 0, 1, 1}} {
		ids, _ := posenc.PositionIDsFromMask(mask)
		fmt.Println(mask, "→", ids)
	}
	_, err := posenc.PositionIDsFromMask([]int{1, 2})
	fmt.Println(err)
	// Output:
	// [1 1 1 1] → [0 1 2 3]
	// [0 0 1 1] → [1 1 0 1]
	// posenc: attention_mask[1] must be 0 or 1, got 2
}

func ExamplePackedPositionIDs() {
	// Three documents packed into one row of 6 tokens.
	ids, _ := posenc.PackedPositionIDs([]int{3, 2, 1})
	fmt.Println(ids)
	// Output:
	// [0 1 2 0 1 0]
}

func ExamplePackedCausalMask() {
	// Two documents of 2 and 3 tokens: one causal block each.
	lens := []int{2, 3}
	mask, _ := posenc.PackedCausalMask(lens)
	for i := range 5 {
		for j := range 5 {
			if mask[i*5+j] {
				fmt.Print("1")
			} else {
				fmt.Print(".")
			}
		}
		fmt.Println()
	}
	// Output:
	// 1....
	// 11...
	// ..1..
	// ..11.
	// ..111
}

func ExampleRotateBy() {
	// A key cached at position 700 moved to position 204, as StreamingLLM
	// does when it evicts 496 tokens: the same as rotating it to 204.
	r := posenc.NewRoPE(4)
	k := []float64{1, 0, 0.5, 0.5}
	at700, moved, at204 := make([]float64, 4), make([]float64, 4), make([]float64, 4)
	_ = posenc.RotateTo(at700, k, r, 700)
	_ = posenc.RotateBy(moved, at700, r, 204-700)
	_ = posenc.RotateTo(at204, k, r, 204)
	fmt.Println(row(moved))
	fmt.Println(row(at204))
	// Output:
	// [-0.9794 0.2021 -0.6721 0.2199]
	// [-0.9794 0.2021 -0.6721 0.2199]
}

func ExampleStreamingKept() {
	// StreamingLLM's cache of 2 sinks and a window of 3, after 10 tokens.
	kept, _ := posenc.StreamingKept(10, 2, 3)
	fmt.Println(kept)
	// Output:
	// [0 1 7 8 9]
}

func ExampleFormat_Round() {
	// Integers above 256 are not all bfloat16 values: 257 rounds to 256 and
	// 1000 to 1000; float16's largest finite value is 65504.
	for _, x := range []float64{257, 1000, 1001, 65504, 70000} {
		fmt.Printf("%6g: bfloat16 %g, float16 %g\n", x, posenc.BFloat16.Round(x), posenc.Float16.Round(x))
	}
	// Output:
	//    257: bfloat16 256, float16 257
	//   1000: bfloat16 1000, float16 1000
	//   1001: bfloat16 1000, float16 1001
	//  65504: bfloat16 65536, float16 65504
	//  70000: bfloat16 70144, float16 +Inf
}

func ExampleBFloat16Bits() {
	fmt.Printf("%#04x %#04x\n", posenc.BFloat16Bits(1), posenc.BFloat16Bits(math.Pi))
	// Output:
	// 0x3f80 0x4049
}

func ExampleFloat16Bits() {
	fmt.Printf("%#04x %#04x %#04x\n", posenc.Float16Bits(1), posenc.Float16Bits(65504), posenc.Float16Bits(0x1p-24))
	// Output:
	// 0x3c00 0x7bff 0x0001
}

func ExampleRotateRoundedTo() {
	// With bfloat16 positions, position 257 is rotated as 256.
	r := posenc.NewRoPE(2)
	x := []float64{1, 0}
	a, b := make([]float64, 2), make([]float64, 2)
	_ = posenc.RotateRoundedTo(a, x, r, 257, posenc.RoPEPrecision{Position: posenc.BFloat16})
	_ = posenc.RotateTo(b, x, r, 256)
	fmt.Println(row(a), row(b))
	// Output:
	// [-0.0398 -0.9992] [-0.0398 -0.9992]
}

func ExampleRelativePropertyError() {
	// The score of a query at m and a key at n should not change when both
	// move by t. In float64 it does not; with bfloat16 positions it does.
	r := posenc.NewRoPE(8)
	q, k := []float64{1, 0, 1, 0, 1, 0, 1, 0}, []float64{1, 0, 1, 0, 1, 0, 1, 0}
	for _, p := range []posenc.RoPEPrecision{{}, {Position: posenc.BFloat16}} {
		e, _ := posenc.RelativePropertyError(q, k, r, p, 5, 0, 4000)
		fmt.Printf("positions in %v: %.3f\n", p.Position, e)
	}
	// Output:
	// positions in float64: 0.000
	// positions in bfloat16: 0.210
}

func ExampleMRoPEAxes() {
	// The axes of 12 pairs, 4 each: Qwen2-VL's blocks and Qwen3-VL's
	// interleaving (0 = t, 1 = h, 2 = w).
	blocked, _ := posenc.MRoPEAxes([]int{4, 4, 4}, 12, false)
	interleaved, _ := posenc.MRoPEAxes([]int{4, 4, 4}, 12, true)
	fmt.Println(blocked)
	fmt.Println(interleaved)
	_, err := posenc.MRoPEAxes([]int{16, 24, 20}, 64, false)
	fmt.Println(err)
	// Output:
	// [0 0 0 0 1 1 1 1 2 2 2 2]
	// [0 1 2 0 1 2 0 1 2 0 1 2]
	// posenc: mrope_section must add up to the 64 rotary pairs, got [16 24 20]
}

func ExampleMRoPEPositionIDs() {
	// Two text tokens, an image of 2×3 tokens, one more text token: the
	// text after the image starts at 2 + 3, not at 2 + 6.
	ids, _ := posenc.MRoPEPositionIDs([]posenc.MRoPESegment{{Text: 2}, {Grid: [3]int{1, 2, 3}}, {Text: 1}})
	fmt.Println(ids)
	// Output:
	// [[0 0 0] [1 1 1] [2 2 2] [2 2 3] [2 2 4] [2 3 2] [2 3 3] [2 3 4] [5 5 5]]
}

func ExampleRotateMRoPETo() {
	// A text token (equal IDs) is rotated exactly as by 1-D RoPE.
	r := posenc.NewRoPE(8).WithLayout(posenc.Halves)
	axes, _ := posenc.MRoPEAxes([]int{2, 1, 1}, 4, false)
	x := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	m, one := make([]float64, 8), make([]float64, 8)
	_ = posenc.RotateMRoPETo(m, x, r, [3]int{9, 9, 9}, axes)
	_ = posenc.RotateTo(one, x, r, 9)
	fmt.Println(row(m))
	fmt.Println(row(one))
	// Output:
	// [-2.9717 -3.4567 2.3587 3.9278 -4.1435 5.2963 7.2413 8.0357]
	// [-2.9717 -3.4567 2.3587 3.9278 -4.1435 5.2963 7.2413 8.0357]
}

func ExampleGridPositions() {
	x, y, _ := posenc.GridPositions(2, 3)
	fmt.Println(x, y)
	_, _, err := posenc.GridPositions(0, 3)
	fmt.Println(err)
	// Output:
	// [0 1 2 0 1 2] [0 0 0 1 1 1]
	// posenc: grid_h must be positive, got 0
}

func ExampleAxialFreqs() {
	// Axial RoPE on a head of 8: pairs 0 and 1 follow x, 2 and 3 follow y.
	fx, fy, _ := posenc.AxialFreqs(8, 100)
	fmt.Println(row(fx), row(fy))
	// Output:
	// [1.0000 0.1000 0.0000 0.0000] [0.0000 0.0000 1.0000 0.1000]
}

func ExampleMixedFreqs() {
	// RoPE-Mixed's start for a head turned by 45°: every pair moves along
	// a diagonal.
	fx, fy, _ := posenc.MixedFreqs(8, 100, math.Pi/4)
	fmt.Println(row(fx), row(fy))
	// Output:
	// [0.7071 0.0707 -0.7071 -0.0707] [0.7071 0.0707 0.7071 0.0707]
}

func ExampleRotate2DTo() {
	// Two patches of a 2-D grid: the score depends on their offset only.
	fx, fy, _ := posenc.AxialFreqs(4, 100)
	q, k := []float64{1, 0.5, -0.2, 1}, []float64{0.3, 1, 1, -0.4}
	score := func(qx, qy, kx, ky int) float64 {
		a, b := make([]float64, 4), make([]float64, 4)
		_ = posenc.Rotate2DTo(a, q, fx, fy, qx, qy)
		_ = posenc.Rotate2DTo(b, k, fx, fy, kx, ky)
		return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3]
	}
	fmt.Printf("%.6f %.6f\n", score(3, 1, 1, 0), score(10, 7, 8, 6))
	// Output:
	// -0.658349 -0.658349
}
