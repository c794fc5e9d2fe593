package posenc

import (
	"math"
	"math/cmplx"
	"testing"
)

// hfInvFreq is Hugging Face's default inverse frequency
// (_compute_default_rope_parameters in src/transformers/modeling_rope_utils.py):
// inv_freq = 1 / base^(arange(0, dim, 2) / dim), dim the rotary dimension.
func hfInvFreq(dim int, base float64) []float64 {
	out := make([]float64, dim/2)
	for i := range out {
		out[i] = 1 / math.Pow(base, float64(2*i)/float64(dim))
	}
	return out
}

// hfRotateHalfApply is Hugging Face's apply_rotary_pos_emb for one head
// vector (src/transformers/models/llama/modeling_llama.py, and GPT-NeoX's
// partial rotary): emb = cat(freqs, freqs), q_embed = q·cos(emb) +
// rotate_half(q)·sin(emb) with rotate_half(x) = cat(−x2, x1), on the first
// rot dimensions; the rest pass through.
func hfRotateHalfApply(q []float64, rot int, invFreq []float64, pos int) []float64 {
	half := rot / 2
	out := append([]float64(nil), q...)
	for j := range rot {
		freq := float64(pos) * invFreq[j%half]
		var rotated float64 // rotate_half(q)[j]
		if j < half {
			rotated = -q[j+half]
		} else {
			rotated = q[j-half]
		}
		out[j] = q[j]*math.Cos(freq) + rotated*math.Sin(freq)
	}
	return out
}

// roformerInterleavedApply is RoFormer's rotation (Su et al. 2021, eq. 34)
// as Meta's Llama reference code computes it (apply_rotary_emb in
// meta-llama/llama, model.py): pairs (x[2i], x[2i+1]) are viewed as complex
// numbers and multiplied by e^{i·pos·θ_i}.
func roformerInterleavedApply(q []float64, rot int, invFreq []float64, pos int) []float64 {
	out := append([]float64(nil), q...)
	for i := range rot / 2 {
		z := complex(q[2*i], q[2*i+1]) * cmplx.Rect(1, float64(pos)*invFreq[i])
		out[2*i], out[2*i+1] = real(z), imag(z)
	}
	return out
}

// referenceRoPE applies r (without scaling) to q at pos with the reference
// formula of its layout.
func referenceRoPE(q []float64, r RoPE, pos int) []float64 {
	inv := hfInvFreq(r.Rot(), r.Base)
	if r.Layout == Halves {
		return hfRotateHalfApply(q, r.Rot(), inv, pos)
	}
	return roformerInterleavedApply(q, r.Rot(), inv, pos)
}

// ropeConfigs covers both layouts, partial rotary and another base.
var ropeConfigs = []RoPE{
	NewRoPE(8),
	NewRoPE(8).WithLayout(Halves),
	NewRoPE(64).WithBase(500000),
	NewRoPE(64).WithLayout(Halves).WithBase(1e6),
	NewRoPE(10).WithRotaryDim(4),
	NewRoPE(12).WithRotaryDim(8).WithLayout(Halves),
	NewRoPE(2),
}

func ropeName(r RoPE) string {
	return "hd" + itoa(r.HeadDim) + "/rot" + itoa(r.Rot()) + "/" + r.Layout.String()
}

func TestRotateToMatchesReferences(t *testing.T) {
	rng := newRand(2)
	for _, r := range ropeConfigs {
		t.Run(ropeName(r), func(t *testing.T) {
			for _, pos := range []int{0, 1, 7, 1000, 65535} {
				x := randSlice[float64](rng, r.HeadDim)
				want := referenceRoPE(x, r, pos)
				got := make([]float64, r.HeadDim)
				if err := RotateTo(got, x, r, pos); err != nil {
					t.Fatal(err)
				}
				assertClose(t, "float64 pos "+itoa(pos), got, want, 1e-11)
				x32 := make([]float32, len(x))
				for i, v := range x {
					x32[i] = float32(v)
				}
				want32 := referenceRoPE(toF64(x32), r, pos)
				if err := RotateTo(x32, x32, r, pos); err != nil { // in place
					t.Fatal(err)
				}
				assertClose(t, "float32 pos "+itoa(pos), x32, want32, 1.2e-7)
				for j := r.Rot(); j < r.HeadDim; j++ {
					if got[j] != x[j] {
						t.Errorf("pass-through dim %d = %v; want %v", j, got[j], x[j])
					}
				}
			}
		})
	}
}

// rotateAll rotates every [.., seq, hd] row of x with RotateTo at the
// position pos(s) of its sequence index s.
func rotateAll(t *testing.T, x []float64, r RoPE, seq int, pos func(s int) int) []float64 {
	t.Helper()
	hd := r.HeadDim
	out := make([]float64, len(x))
	for row := range len(x) / hd {
		if err := RotateTo(out[row*hd:(row+1)*hd], x[row*hd:(row+1)*hd], r, pos(row%seq)); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func TestApplyRoPEToMatchesRotateTo(t *testing.T) {
	rng := newRand(3)
	for _, r := range append(ropeConfigs, NewRoPE(16).WithScaling(YaRNScaling(4, 64))) {
		t.Run(ropeName(r), func(t *testing.T) {
			const batch, heads, seq = 2, 3, 5
			cache, err := NewRoPECache(r, 300)
			if err != nil {
				t.Fatal(err)
			}
			if cache.Len() != 300 || cache.RoPE() != r {
				t.Errorf("cache Len() = %d, RoPE() = %+v; want 300, %+v", cache.Len(), cache.RoPE(), r)
			}
			x := randSlice[float64](rng, batch*heads*seq*r.HeadDim)
			for _, start := range []int{0, 9, 295} {
				want := rotateAll(t, x, r, seq, func(s int) int { return start + s })
				got := make([]float64, len(x))
				if err := ApplyRoPETo(got, x, cache, seq, start); err != nil {
					t.Fatal(err)
				}
				assertClose(t, "float64 start "+itoa(start), got, want, 1e-13)

				x32 := make([]float32, len(x))
				for i, v := range x {
					x32[i] = float32(v)
				}
				want32 := rotateAll(t, toF64(x32), r, seq, func(s int) int { return start + s })
				if err := ApplyRoPETo(x32, x32, cache, seq, start); err != nil { // in place
					t.Fatal(err)
				}
				assertClose(t, "float32 start "+itoa(start), x32, want32, 1.2e-7*r.AttentionFactor())
			}
		})
	}
}

func TestApplyRoPEAtToMatchesRotateTo(t *testing.T) {
	rng := newRand(4)
	for _, r := range ropeConfigs {
		positions := []int{3, 0, 17, 17, 99, 5}
		cache, err := NewRoPECache(r, 100)
		if err != nil {
			t.Fatal(err)
		}
		x := randSlice[float64](rng, 2*len(positions)*r.HeadDim)
		want := rotateAll(t, x, r, len(positions), func(s int) int { return positions[s] })
		got := make([]float64, len(x))
		if err := ApplyRoPEAtTo(got, x, cache, positions); err != nil {
			t.Fatal(err)
		}
		assertClose(t, ropeName(r), got, want, 1e-13)
	}
}

func TestRoPECacheTables(t *testing.T) {
	for _, r := range []RoPE{NewRoPE(16), NewRoPE(32).WithRotaryDim(8).WithScaling(YaRNScaling(8, 32))} {
		cache, err := NewRoPECache(r, 1000)
		if err != nil {
			t.Fatal(err)
		}
		freq, _ := r.InvFreq()
		af, half := r.AttentionFactor(), r.Rot()/2
		cos, sin := cache.Cos(), cache.Sin()
		if len(cos) != 1000*half || len(sin) != 1000*half {
			t.Fatalf("len(Cos()), len(Sin()) = %d, %d; want %d", len(cos), len(sin), 1000*half)
		}
		for m := range 1000 {
			for i, w := range freq {
				s, c := compensatedSincos(m, w)
				if math.Abs(cos[m*half+i]-af*c) > 1e-13 || math.Abs(sin[m*half+i]-af*s) > 1e-13 {
					t.Fatalf("position %d pair %d: (cos, sin) = (%v, %v); want %v·(%v, %v)",
						m, i, cos[m*half+i], sin[m*half+i], af, c, s)
				}
			}
		}
	}
}

// TestRoPEPreservesNorm: a rotation does not change a vector's length.
func TestRoPEPreservesNorm(t *testing.T) {
	rng := newRand(5)
	for _, r := range ropeConfigs {
		for _, pos := range []int{0, 3, 4096, 100_000, 1 << 30} {
			x := randSlice[float64](rng, r.HeadDim)
			y := make([]float64, len(x))
			if err := RotateTo(y, x, r, pos); err != nil {
				t.Fatal(err)
			}
			if nx, ny := math.Sqrt(dot(x, x)), math.Sqrt(dot(y, y)); !relClose(nx, ny, 1e-14) {
				t.Errorf("%s pos %d: |R x| = %v; want |x| = %v", ropeName(r), pos, ny, nx)
			}
		}
	}
}

// TestRoPEScoresDependOnlyOnOffset checks RoFormer's defining property:
// ⟨R(m)q, R(n)k⟩ is a function of m − n alone.
func TestRoPEScoresDependOnlyOnOffset(t *testing.T) {
	rng := newRand(6)
	score := func(r RoPE, q, k []float64, m, n int) float64 {
		qm, kn := make([]float64, len(q)), make([]float64, len(k))
		if err := RotateTo(qm, q, r, m); err != nil {
			t.Fatal(err)
		}
		if err := RotateTo(kn, k, r, n); err != nil {
			t.Fatal(err)
		}
		return dot(qm, kn)
	}
	for _, r := range ropeConfigs {
		q, k := randSlice[float64](rng, r.HeadDim), randSlice[float64](rng, r.HeadDim)
		for _, mn := range [][2]int{{5, 2}, {2, 5}, {100, 100}, {1000, 37}} {
			want := score(r, q, k, mn[0], mn[1])
			for _, shift := range []int{1, 17, 5000} {
				if got := score(r, q, k, mn[0]+shift, mn[1]+shift); math.Abs(got-want) > 1e-11 {
					t.Errorf("%s: ⟨R(%d)q, R(%d)k⟩ = %v; want ⟨R(%d)q, R(%d)k⟩ = %v",
						ropeName(r), mn[0]+shift, mn[1]+shift, got, mn[0], mn[1], want)
				}
			}
		}
		// And it does depend on the offset (the check above can fail).
		if a, b := score(r, q, k, 3, 0), score(r, q, k, 0, 3); r.Rot() > 0 && math.Abs(a-b) < 1e-6 {
			t.Errorf("%s: scores at offsets +3 and −3 agree (%v): rotation missing?", ropeName(r), a)
		}
	}
}

func TestRoPEWithMethods(t *testing.T) {
	sc := LinearScaling(2)
	r := NewRoPE(64).WithBase(500000).WithLayout(Halves).WithRotaryDim(32).WithScaling(sc)
	want := RoPE{HeadDim: 64, RotaryDim: 32, Base: 500000, Layout: Halves, Scaling: sc}
	if r != want {
		t.Errorf("With… chain = %+v; want %+v", r, want)
	}
	if r.Rot() != 32 || NewRoPE(64).Rot() != 64 {
		t.Errorf("Rot() = %d, %d; want 32, 64", r.Rot(), NewRoPE(64).Rot())
	}
}

func TestLayoutPermutation(t *testing.T) {
	for _, tc := range []struct {
		hd, rot  int
		from, to Layout
		want     []int
	}{
		{8, 0, Interleaved, Halves, []int{0, 2, 4, 6, 1, 3, 5, 7}},
		{8, 0, Halves, Interleaved, []int{0, 4, 1, 5, 2, 6, 3, 7}},
		{8, 0, Halves, Halves, []int{0, 1, 2, 3, 4, 5, 6, 7}},
		{10, 4, Interleaved, Halves, []int{0, 2, 1, 3, 4, 5, 6, 7, 8, 9}},
	} {
		got, err := LayoutPermutation(tc.hd, tc.rot, tc.from, tc.to)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(tc.want) {
			t.Fatalf("LayoutPermutation(%d, %d, %v, %v) = %v; want %v", tc.hd, tc.rot, tc.from, tc.to, got, tc.want)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("LayoutPermutation(%d, %d, %v, %v) = %v; want %v", tc.hd, tc.rot, tc.from, tc.to, got, tc.want)
				break
			}
		}
	}
	// Always a permutation, and the two directions are inverses.
	for _, hd := range []int{2, 6, 64, 130} {
		for _, rot := range []int{0, 2, hd / 2 &^ 1, hd} {
			fwd, err1 := LayoutPermutation(hd, rot, Interleaved, Halves)
			back, err2 := LayoutPermutation(hd, rot, Halves, Interleaved)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			seen := make([]bool, hd)
			for _, p := range fwd {
				if p < 0 || p >= hd || seen[p] {
					t.Fatalf("LayoutPermutation(%d, %d) = %v: not a permutation", hd, rot, fwd)
				}
				seen[p] = true
			}
			for j := range hd {
				if fwd[back[j]] != j {
					t.Fatalf("hd %d rot %d: halves→interleaved is not the inverse of interleaved→halves", hd, rot)
				}
			}
		}
	}
}

// TestConvertQKWeightsKeepsScores converts the q and k projections of a
// two-head attention between layouts and checks that every attention score
// q_m·k_n after RoPE is unchanged, for [out, in] and [in, out] storage and
// for partial rotary.
func TestConvertQKWeightsKeepsScores(t *testing.T) {
	rng := newRand(7)
	const numHeads, inDim, seq = 2, 5, 6
	for _, r := range []RoPE{NewRoPE(8), NewRoPE(8).WithLayout(Halves), NewRoPE(10).WithRotaryDim(6), NewRoPE(12).WithRotaryDim(4).WithLayout(Halves)} {
		to := Halves
		if r.Layout == Halves {
			to = Interleaved
		}
		hd, out := r.HeadDim, numHeads*r.HeadDim
		tokens := randSlice[float64](rng, seq*inDim)
		for _, outAxis := range []int{0, 1} {
			wq, wk := randSlice[float64](rng, out*inDim), randSlice[float64](rng, out*inDim)
			// project returns [seq, out] = tokens·W for either storage.
			project := func(w []float64) []float64 {
				p := make([]float64, seq*out)
				for s := range seq {
					for o := range out {
						for i := range inDim {
							wv := w[o*inDim+i] // [out, in]
							if outAxis == 1 {
								wv = w[i*out+o] // [in, out]
							}
							p[s*out+o] += tokens[s*inDim+i] * wv
						}
					}
				}
				return p
			}
			// scores returns the [heads, seq, seq] RoPE attention scores.
			scores := func(r RoPE, wq, wk []float64) []float64 {
				q, k := project(wq), project(wk)
				sc := make([]float64, numHeads*seq*seq)
				for h := range numHeads {
					for m := range seq {
						qm := make([]float64, hd)
						if err := RotateTo(qm, q[m*out+h*hd:m*out+(h+1)*hd], r, m); err != nil {
							t.Fatal(err)
						}
						for n := range seq {
							kn := make([]float64, hd)
							if err := RotateTo(kn, k[n*out+h*hd:n*out+(h+1)*hd], r, n); err != nil {
								t.Fatal(err)
							}
							sc[(h*seq+m)*seq+n] = dot(qm, kn)
						}
					}
				}
				return sc
			}
			before := scores(r, wq, wk)
			cq, ck := make([]float64, len(wq)), make([]float64, len(wk))
			if err := ConvertQKWeightsTo(cq, wq, r, to, numHeads, inDim, outAxis); err != nil {
				t.Fatal(err)
			}
			if err := ConvertQKWeightsTo(ck, wk, r, to, numHeads, inDim, outAxis); err != nil {
				t.Fatal(err)
			}
			name := ropeName(r) + "→" + to.String() + " outAxis " + itoa(outAxis)
			assertClose(t, name, scores(r.WithLayout(to), cq, ck), before, 1e-12)
			// Without the conversion the other layout changes the scores.
			if d, _ := maxAbsDiff(scores(r.WithLayout(to), wq, wk), before); d < 1e-3 {
				t.Errorf("%s: unconverted weights give the same scores (diff %.3g): the check cannot fail", name, d)
			}
		}
	}
}
