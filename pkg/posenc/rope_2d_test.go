package posenc

import (
	"math"
	"slices"
	"testing"
)

// TestAxialFreqs checks AxialFreqs against a transcription of rope-vit's
// compute_axial_cis (naver-ai/rope-vit, models/vit_rope.py):
//
//	freqs_x = 1.0 / (theta ** (torch.arange(0, dim, 4)[: (dim // 4)].float() / dim))
//	freqs_y = (the same)
//	return torch.cat([polar(outer(t_x, freqs_x)), polar(outer(t_y, freqs_y))], dim=-1)
//
// and the grid against its init_t_xy (t_x = t % end_x, t_y = t // end_x).
func TestAxialFreqs(t *testing.T) {
	fx, fy, err := AxialFreqs(16, 100)
	if err != nil {
		t.Fatal(err)
	}
	var want []float64
	for i := 0; i < 16 && len(want) < 4; i += 4 {
		want = append(want, 1/math.Pow(100, float64(i)/16))
	}
	assertClose(t, "fx", fx, append(slices.Clone(want), 0, 0, 0, 0), 1e-15)
	assertClose(t, "fy", fy, append([]float64{0, 0, 0, 0}, want...), 1e-15)
	x, y, err := GridPositions(2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(x, []int{0, 1, 2, 0, 1, 2}) || !slices.Equal(y, []int{0, 0, 0, 1, 1, 1}) {
		t.Errorf("grid x %v y %v", x, y)
	}
	_, _, err = GridPositions(0, 3)
	wantParamError(t, err, "grid_h", "0")
	_, _, err = GridPositions(4, -1)
	wantParamError(t, err, "grid_w", "-1")
	_, _, err = AxialFreqs(14, 100)
	wantParamError(t, err, "head_dim", "14")
	_, _, err = AxialFreqs(16, 1)
	wantParamError(t, err, "theta", "1")
}

// TestMixedFreqs checks MixedFreqs against a transcription of rope-vit's
// init_random_2d_freqs for one head with angle φ:
//
//	mag = 1 / (theta ** (torch.arange(0, dim, 4)[: (dim // 4)].float() / dim))
//	fx = torch.cat([mag * torch.cos(angles), mag * torch.cos(torch.pi/2 + angles)], dim=-1)
//	fy = torch.cat([mag * torch.sin(angles), mag * torch.sin(torch.pi/2 + angles)], dim=-1)
//
// and Rotate2DTo's score for a shift invariance in (Δx, Δy).
func TestMixedFreqs(t *testing.T) {
	phi := 0.7
	fx, fy, err := MixedFreqs(8, 10, phi)
	if err != nil {
		t.Fatal(err)
	}
	mag := []float64{1, 1 / math.Pow(10, 4.0/8)}
	wx := []float64{mag[0] * math.Cos(phi), mag[1] * math.Cos(phi), mag[0] * math.Cos(math.Pi/2+phi), mag[1] * math.Cos(math.Pi/2+phi)}
	wy := []float64{mag[0] * math.Sin(phi), mag[1] * math.Sin(phi), mag[0] * math.Sin(math.Pi/2+phi), mag[1] * math.Sin(math.Pi/2+phi)}
	assertClose(t, "fx", fx, wx, 1e-15)
	assertClose(t, "fy", fy, wy, 1e-15)

	rng := newRand(2)
	q, k := randSlice[float64](rng, 8), randSlice[float64](rng, 8)
	score := func(qx, qy, kx, ky int) float64 {
		a, b := make([]float64, 8), make([]float64, 8)
		if err := Rotate2DTo(a, q, fx, fy, qx, qy); err != nil {
			t.Fatal(err)
		}
		_ = Rotate2DTo(b, k, fx, fy, kx, ky)
		return dot(a, b)
	}
	if s1, s2 := score(3, 1, 1, 4), score(13, 21, 11, 24); math.Abs(s1-s2) > 1e-12 {
		t.Errorf("scores %g, %g for the same offset", s1, s2)
	}
	// Pair j turns by px·fx_j + py·fy_j.
	got := make([]float64, 8)
	_ = Rotate2DTo(got, []float64{1, 0, 1, 0, 1, 0, 1, 0}, fx, fy, 5, 2)
	for j := range 4 {
		a := 5*fx[j] + 2*fy[j]
		if math.Abs(got[2*j]-math.Cos(a)) > 1e-14 || math.Abs(got[2*j+1]-math.Sin(a)) > 1e-14 {
			t.Errorf("pair %d: (%g, %g); want angle %g", j, got[2*j], got[2*j+1], a)
		}
	}
	err = Rotate2DTo(got, q, fx, fy[:3], 0, 0)
	wantParamError(t, err, "len(fy)", "3")
	err = Rotate2DTo(got, q, fx, fy, -1, 0)
	wantParamError(t, err, "px", "-1")
	_, _, err = MixedFreqs(8, 10, math.NaN())
	wantParamError(t, err, "phi", "NaN")
}
