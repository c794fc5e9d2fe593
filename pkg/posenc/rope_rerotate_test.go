package posenc

import (
	"math"
	"slices"
	"testing"
)

// TestRotateByComposes checks R(Δ)·R(n) = R(n+Δ): a key rotated to n and
// then by Δ (negative too) is the key rotated to n+Δ, for both layouts,
// partial rotary and a scaling, to 1e-12.
func TestRotateByComposes(t *testing.T) {
	rng := newRand(10)
	for _, r := range []RoPE{
		NewRoPE(8),
		NewRoPE(16).WithLayout(Halves).WithBase(500),
		NewRoPE(12).WithRotaryDim(8),
		NewRoPE(8).WithScaling(LinearScaling(4)),
	} {
		k := randSlice[float64](rng, r.HeadDim)
		for _, c := range []struct{ n, delta int }{{5, 3}, {100, -60}, {7, -7}, {0, 4000}, {123456, 1}} {
			at, moved, want := make([]float64, r.HeadDim), make([]float64, r.HeadDim), make([]float64, r.HeadDim)
			if err := RotateTo(at, k, r, c.n); err != nil {
				t.Fatal(err)
			}
			if err := RotateBy(moved, at, r, c.delta); err != nil {
				t.Fatal(err)
			}
			if err := RotateTo(want, k, r, c.n+c.delta); err != nil {
				t.Fatal(err)
			}
			if d, i := maxAbsDiff(moved, want); d > 1e-12 {
				t.Errorf("%+v n=%d Δ=%d: differs by %g at %d", r, c.n, c.delta, d, i)
			}
		}
	}
}

// TestRotateBySinkCache checks RotateBy against Hugging Face's SinkCache
// re-rotation (cache_utils.py, _get_rerotation_cos_sin, in transformers
// until SinkCache was removed), which builds the rotation from the tables
// at the original and the shifted positions:
//
//	rerotation_cos = original_cos * shifted_cos + original_sin * shifted_sin
//	rerotation_sin = -original_sin * shifted_cos + original_cos * shifted_sin
//	k' = k * rerotation_cos + rotate_half(k) * rerotation_sin
//
// with original = the key's position and shifted = that minus the tokens
// dropped, so the key turns by shifted − original.
func TestRotateBySinkCache(t *testing.T) {
	r := NewRoPE(8).WithLayout(Halves)
	freq, _ := r.InvFreq()
	k := []float64{0.3, -1.2, 0.5, 0.9, 1.1, 0.2, -0.7, 0.4}
	orig, shifted := 700, 4+200 // a key at 700 moves to 204 after dropping 496 tokens
	want := make([]float64, 8)
	for i, w := range freq {
		oc, os := math.Cos(float64(orig)*w), math.Sin(float64(orig)*w)
		sc, ss := math.Cos(float64(shifted)*w), math.Sin(float64(shifted)*w)
		c, s := oc*sc+os*ss, -os*sc+oc*ss
		want[i] = k[i]*c - k[i+4]*s // rotate_half puts −x2 in the first half
		want[i+4] = k[i+4]*c + k[i]*s
	}
	got := make([]float64, 8)
	if err := RotateBy(got, k, r, shifted-orig); err != nil {
		t.Fatal(err)
	}
	if d, i := maxAbsDiff(got, want); d > 1e-12 {
		t.Errorf("differs from SinkCache's re-rotation by %g at %d", d, i)
	}
	_, err := StreamingKept(-1, 4, 8)
	wantParamError(t, err, "total", "-1")
	err = RotateBy(got, k, r, 1<<41)
	wantParamError(t, err, "delta", "2199023255552")
	err = RotateBy(got[:4], k, r, 1)
	wantParamError(t, err, "len(dst)", "4")
}

// TestStreamingKept checks the kept tokens against StreamingLLM's
// StartRecentKVCache (mit-han-lab/streaming-llm, kv_cache.py), which on
// overflow keeps k[:start_size] and k[seq_len − recent_size:seq_len]; the
// paper's setting is 4 sinks.
func TestStreamingKept(t *testing.T) {
	kept, err := StreamingKept(1000, 4, 512)
	if err != nil {
		t.Fatal(err)
	}
	want := []int{0, 1, 2, 3}
	for i := 1000 - 512; i < 1000; i++ {
		want = append(want, i)
	}
	if !slices.Equal(kept, want) {
		t.Errorf("kept %v…; want %v…", kept[:6], want[:6])
	}
	short, _ := StreamingKept(10, 4, 8)
	if len(short) != 10 || short[9] != 9 {
		t.Errorf("under capacity: %v", short)
	}
	noSinks, _ := StreamingKept(10, 0, 3)
	if !slices.Equal(noSinks, []int{7, 8, 9}) {
		t.Errorf("window only: %v", noSinks)
	}
	_, err = StreamingKept(10, 0, 0)
	wantParamError(t, err, "sinks+window", "0+0")
	_, err = StreamingKept(10, -1, 3)
	wantParamError(t, err, "sinks", "-1")
}
