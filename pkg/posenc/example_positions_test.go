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

func ExampleParseHFConfig() {
	// Gemma 2/3-style interleaving: local layers keep base 10⁴, the global
	// layer has base 10⁶ and, here, a linear factor of 8 (rope_scaling
	// applies to the global layers only).
	m, err := posenc.ParseHFConfig([]byte(`{
		"model_type": "gemma3_text", "num_hidden_layers": 3, "head_dim": 256,
		"max_position_embeddings": 131072, "sliding_window": 1024,
		"layer_types": ["sliding_attention", "sliding_attention", "full_attention"],
		"rope_theta": 1000000.0, "rope_local_base_freq": 10000.0,
		"rope_scaling": {"rope_type": "linear", "factor": 8.0}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, l := range m.Layers {
		fmt.Printf("layer %d %-17s window %4d base %g scaling %s×%g\n", i, l.Type, l.Window, l.RoPE.Base, l.RoPE.Scaling.Kind, l.RoPE.Scaling.Factor)
	}
	// A missing required key is an error naming it, never a silent default;
	// a key transformers ignores with a warning is a warning.
	_, err = posenc.ParseHFConfig([]byte(`{"model_type": "llama", "num_hidden_layers": 1, "head_dim": 64,
		"max_position_embeddings": 4096, "rope_theta": 10000.0, "rope_scaling": {"type": "yarn"}}`))
	fmt.Println(err)
	m, _ = posenc.ParseHFConfig([]byte(`{"model_type": "llama", "num_hidden_layers": 1, "head_dim": 64,
		"max_position_embeddings": 4096, "rope_theta": 10000.0, "rope_scaling": {"type": "linear", "factor": 2, "beta": 1}}`))
	fmt.Println(m.Warnings)
	// Output:
	// layer 0 sliding_attention window 1024 base 10000 scaling none×0
	// layer 1 sliding_attention window 1024 base 10000 scaling none×0
	// layer 2 full_attention    window    0 base 1e+06 scaling linear×8
	// posenc: rope_scaling.factor is required by rope_type yarn, got missing
	// [rope_scaling.beta = 1: is not a key of rope_type linear; transformers warns and ignores it]
}

func ExampleDecoupledScore() {
	// DeepSeek's decoupled RoPE: a position-free part plus a rotary part.
	// The score depends on the distance only: 7−3 = 1007−1003.
	r := posenc.NewRoPE(2).WithLayout(posenc.Interleaved)
	qNope, kNope := []float64{1, 2}, []float64{0.5, 0.5}
	qRope, kRope := []float64{1, 0}, []float64{1, 0}
	a, _ := posenc.DecoupledScore(qNope, kNope, qRope, kRope, r, 7, 3)
	b, _ := posenc.DecoupledScore(qNope, kNope, qRope, kRope, r, 1007, 1003)
	fmt.Printf("%.4f %.4f = 1.5 + cos(4)\n", a, b)
	// Output:
	// 0.8464 0.8464 = 1.5 + cos(4)
}
