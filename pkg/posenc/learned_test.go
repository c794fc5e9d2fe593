package posenc

import "testing"

func TestLearnedHost(t *testing.T) {
	l := NewLearned(512, 768)
	if l.MaxLen != 512 || l.Dim != 768 || l.NumParams() != 512*768 {
		t.Errorf("NewLearned(512, 768) = %+v with %d params; want 512×768 = %d", l, l.NumParams(), 512*768)
	}
	if err := l.Validate(); err != nil {
		t.Errorf("Validate() = %v", err)
	}
	if err := l.CheckPositions([]int{0, 1, 511}); err != nil {
		t.Errorf("CheckPositions(0, 1, 511) = %v; want nil", err)
	}
	// A learned table cannot extrapolate: position 512 is an error that says so.
	err := l.CheckPositions([]int{0, 1, 512, 3})
	want := "posenc: positions[2] is past the learned table: max_len is 512, so positions must be in [0, 512), got 512"
	if err == nil || err.Error() != want {
		t.Errorf("CheckPositions(…, 512, …) = %v; want %q", err, want)
	}
}

func TestLearnedLookupTo(t *testing.T) {
	l := NewLearned(4, 3)
	table := []float32{
		0, 1, 2,
		10, 11, 12,
		20, 21, 22,
		30, 31, 32,
	}
	dst := make([]float32, 4*3)
	if err := LearnedLookupTo(dst, table, l, []int{3, 0, 2, 2}); err != nil {
		t.Fatal(err)
	}
	assertClose(t, "LearnedLookupTo", dst, []float32{30, 31, 32, 0, 1, 2, 20, 21, 22, 20, 21, 22}, 0)
	// No positions, no rows.
	if err := LearnedLookupTo([]float64{}, make([]float64, 12), l, nil); err != nil {
		t.Errorf("no positions: err = %v; want nil", err)
	}
}
