package lab

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Wilson's interval (Wilson 1927, "Probable inference, the law of
// succession, and statistical inference", JASA 22:209–212), the interval
// Brown, Cai & DasGupta (2001, "Interval estimation for a binomial
// proportion", Statistical Science 16:101–133) recommend for small n;
// the values are its formula at z = 1.959964, to 4 decimals.
func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 10, 0, 0.2775},
		{1, 10, 0.0179, 0.4042},
		{5, 10, 0.2366, 0.7634},
		{10, 10, 0.7225, 1},
		{50, 100, 0.4038, 0.5962},
		{0, 1, 0, 0.7935},
		{1, 1, 0.2065, 1},
		{384, 640, 0.5616, 0.6372}, // 5 depths × 128 probes
	} {
		lo, hi := Wilson(c.k, c.n)
		if math.Abs(lo-c.lo) > 5e-5 || math.Abs(hi-c.hi) > 5e-5 {
			t.Errorf("Wilson(%d, %d) = [%.4f, %.4f]; want [%.4f, %.4f]", c.k, c.n, lo, hi, c.lo, c.hi)
		}
		// The interval holds the rate, and turns into 1 − itself for n − k.
		p := float64(c.k) / float64(c.n)
		lo2, hi2 := Wilson(c.n-c.k, c.n)
		if !(lo <= p && p <= hi) || math.Abs(lo-(1-hi2)) > 1e-12 || math.Abs(hi-(1-lo2)) > 1e-12 {
			t.Errorf("Wilson(%d, %d) = [%g, %g], Wilson(%d, %d) = [%g, %g]: not around %g or not mirrored", c.k, c.n, lo, hi, c.n-c.k, c.n, lo2, hi2, p)
		}
	}
	// More trials, a narrower interval.
	if lo1, hi1 := Wilson(5, 10); func() bool { lo2, hi2 := Wilson(50, 100); return hi2-lo2 >= hi1-lo1 }() {
		t.Error("Wilson(50, 100) is not narrower than Wilson(5, 10)")
	}
	for _, n := range []int{0, -1} {
		if lo, hi := Wilson(0, n); !math.IsNaN(lo) || !math.IsNaN(hi) {
			t.Errorf("Wilson(0, %d) = [%g, %g]; want NaN, NaN (no trials, no interval)", n, lo, hi)
		}
	}
}

func TestSpreadOf(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want Spread
	}{
		{[]float64{1, 2, 3}, Spread{Mean: 2, Min: 1, Max: 3, SD: 1, N: 3}},
		{[]float64{3, 1}, Spread{Mean: 2, Min: 1, Max: 3, SD: math.Sqrt2, N: 2}}, // the sample SD, n − 1
		{[]float64{1.5}, Spread{Mean: 1.5, Min: 1.5, Max: 1.5, SD: 0, N: 1}},
		{[]float64{-2, -2, -2, -2}, Spread{Mean: -2, Min: -2, Max: -2, SD: 0, N: 4}},
	} {
		got := SpreadOf(c.xs)
		if math.Abs(got.Mean-c.want.Mean) > 1e-12 || got.Min != c.want.Min || got.Max != c.want.Max ||
			math.Abs(got.SD-c.want.SD) > 1e-12 || got.N != c.want.N {
			t.Errorf("SpreadOf(%v) = %+v; want %+v", c.xs, got, c.want)
		}
	}
	if s := SpreadOf(nil); !math.IsNaN(s.Mean) || !math.IsNaN(s.Min) || !math.IsNaN(s.Max) || !math.IsNaN(s.SD) || s.N != 0 {
		t.Errorf("SpreadOf(nil) = %+v; want NaNs and N 0", s)
	}
}

func TestOverlaps(t *testing.T) {
	s := func(lo, hi float64) Spread { return Spread{Min: lo, Max: hi} }
	for _, c := range []struct {
		a, b Spread
		want bool
	}{
		{s(1, 2), s(1.5, 3), true},
		{s(1, 2), s(2, 3), true}, // touching: a tie
		{s(1, 2), s(2.01, 3), false},
		{s(1, 4), s(2, 3), true}, // one inside the other
		{s(1, 1), s(1, 1), true},
		{s(5, 6), s(1, 2), false},
	} {
		if got, back := c.a.Overlaps(c.b), c.b.Overlaps(c.a); got != c.want || back != c.want {
			t.Errorf("[%g, %g] and [%g, %g]: Overlaps %t and %t; want %t both ways", c.a.Min, c.a.Max, c.b.Min, c.b.Max, got, back, c.want)
		}
	}
}

func TestRecallStatOverlaps(t *testing.T) {
	s := func(lo, hi float64) RecallStat { return RecallStat{Lo: lo, Hi: hi} }
	for _, c := range []struct {
		a, b RecallStat
		want bool
	}{
		{s(0.2, 0.3), s(0.25, 0.4), true},
		{s(0.2, 0.3), s(0.3, 0.4), true}, // touching: a tie
		{s(0.2, 0.3), s(0.31, 0.4), false},
		{s(0.1, 0.5), s(0.2, 0.3), true}, // one inside the other
		{s(0.6, 0.7), s(0.1, 0.2), false},
	} {
		if got, back := c.a.Overlaps(c.b), c.b.Overlaps(c.a); got != c.want || back != c.want {
			t.Errorf("[%g, %g] and [%g, %g]: Overlaps %t and %t; want %t both ways", c.a.Lo, c.a.Hi, c.b.Lo, c.b.Hi, got, back, c.want)
		}
	}
}

// handResults returns results of two lengths (L, 2L) and two depths (0, 1):
// three seeds of rope, listed out of order among the others, and learned,
// undefined at 2L.
func handResults() *Results {
	rope := func(seed int64, loss1, loss2 float64, correct [4]int) Run {
		return Run{Name: "rope", Encoding: RoPE, Seed: seed, Train: &TrainStats{Steps: 10},
			Lengths: []Length{
				{Multiple: 1, Length: 16, Defined: true, Mean: loss1, PerPosition: []float64{loss1 + 1, loss1}},
				{Multiple: 2, Length: 32, Defined: true, Mean: loss2, PerPosition: []float64{loss2 + 1, loss2, loss2, loss2}},
			},
			Recall: []RecallCell{
				{Multiple: 1, Length: 16, Depth: 0, Distance: 14, Defined: true, Correct: correct[0], N: 10},
				{Multiple: 1, Length: 16, Depth: 1, Distance: 1, Defined: true, Correct: correct[1], N: 10},
				{Multiple: 2, Length: 32, Depth: 0, Distance: 30, Defined: true, Correct: correct[2], N: 10},
				{Multiple: 2, Length: 32, Depth: 1, Distance: 1, Defined: true, Correct: correct[3], N: 10},
			}}
	}
	learned := func(seed int64, loss1 float64) Run {
		return Run{Name: "learned", Encoding: Learned, Seed: seed, Train: &TrainStats{Steps: 10},
			Lengths: []Length{{Multiple: 1, Length: 16, Defined: true, Mean: loss1, PerPosition: []float64{loss1}}, {Multiple: 2, Length: 32}},
			Recall: []RecallCell{
				{Multiple: 1, Length: 16, Depth: 0, Distance: 14, Defined: true, Correct: 2, N: 10},
				{Multiple: 1, Length: 16, Depth: 1, Distance: 1, Defined: true, Correct: 9, N: 10},
				{Multiple: 2, Length: 32, Depth: 0, Distance: 30, N: 10},
				{Multiple: 2, Length: 32, Depth: 1, Distance: 1, N: 10},
			}}
	}
	c := Quick(DefaultConfig())
	c.Seeds, c.Multiples, c.Depths = []int64{1, 2, 3}, []int{1, 2}, []float64{0, 1}
	return &Results{Config: c, Baselines: Baselines{Unigram: 3, Bigram: 2.5}, Runs: []Run{
		rope(3, 2.3, 2.9, [4]int{3, 10, 1, 8}),
		learned(2, 2.2),
		rope(1, 2.1, 2.7, [4]int{5, 9, 0, 7}),
		learned(1, 2.0),
		rope(2, 2.2, 2.8, [4]int{4, 10, 2, 9}),
	}}
}

func TestResultsSeeds(t *testing.T) {
	r := handResults()
	if got, want := r.Names(), []string{"rope", "learned"}; !slices.Equal(got, want) {
		t.Errorf("Names() = %v; want %v, in order of first run", got, want)
	}
	runs, err := r.Seeds("rope")
	if err != nil {
		t.Fatal(err)
	}
	var seeds []int64
	for _, run := range runs {
		seeds = append(seeds, run.Seed)
	}
	if !slices.Equal(seeds, []int64{1, 2, 3}) {
		t.Errorf("Seeds(rope) in seed order %v; want [1 2 3]", seeds)
	}
	if _, err := r.Seeds("alibi"); err == nil || !strings.Contains(err.Error(), `no run "alibi"`) || !strings.Contains(err.Error(), "rope") {
		t.Errorf("Seeds(alibi) error = %v; want one naming the missing run and the ones there are", err)
	}
	// Seeds far apart: their difference overflows an int64.
	r.Runs = []Run{{Name: "a", Seed: math.MaxInt64}, {Name: "a", Seed: -2}, {Name: "a", Seed: math.MinInt64}, {Name: "a", Seed: 0}}
	runs, _ = r.Seeds("a")
	seeds = seeds[:0]
	for _, run := range runs {
		seeds = append(seeds, run.Seed)
	}
	if want := []int64{math.MinInt64, -2, 0, math.MaxInt64}; !slices.Equal(seeds, want) {
		t.Errorf("Seeds(a) in seed order %v; want %v", seeds, want)
	}
}

func TestResultsLoss(t *testing.T) {
	r := handResults()
	for _, c := range []struct {
		name     string
		multiple int
		want     []float64
		defined  bool
		err      string
	}{
		{"rope", 1, []float64{2.1, 2.2, 2.3}, true, ""}, // seed order
		{"rope", 2, []float64{2.7, 2.8, 2.9}, true, ""},
		{"learned", 1, []float64{2.0, 2.2}, true, ""},
		{"learned", 2, nil, false, ""},
		{"rope", 4, nil, false, `run "rope" has no length 4×L`},
		{"alibi", 1, nil, false, `no run "alibi"`},
	} {
		got, ok, err := r.Loss(c.name, c.multiple)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Loss(%s, %d) error = %v; want %q", c.name, c.multiple, err, c.err)
			}
			continue
		}
		if err != nil || ok != c.defined || !slices.Equal(got, c.want) {
			t.Errorf("Loss(%s, %d) = %v, %t, %v; want %v, %t", c.name, c.multiple, got, ok, err, c.want, c.defined)
		}
	}
	per, err := r.PerPosition("rope", 1)
	if want := []float64{3.2, 2.2}; err != nil || len(per) != 2 || math.Abs(per[0]-want[0]) > 1e-12 || math.Abs(per[1]-want[1]) > 1e-12 {
		t.Errorf("PerPosition(rope, 1) = %v, %v; want the mean over seeds %v", per, err, want)
	}
	if _, err := r.PerPosition("learned", 2); err == nil || !strings.Contains(err.Error(), `"learned" has no loss at 2×L`) {
		t.Errorf("PerPosition(learned, 2) error = %v; want one: undefined", err)
	}
	if _, err := r.PerPosition("t5", 1); err == nil || !strings.Contains(err.Error(), `no run "t5"`) {
		t.Errorf("PerPosition(t5, 1) error = %v; want one naming t5", err)
	}
}

func TestResultsRecallAt(t *testing.T) {
	r := handResults()
	for _, c := range []struct {
		name      string
		multiple  int
		depth     float64
		want      RecallStat
		wantRates []float64
	}{
		// Seeds 1, 2, 3 get 5, 4, 3 of 10.
		{"rope", 1, 0, RecallStat{Defined: true, Distance: 14, Correct: 12, N: 30, Rate: 0.4, SeedMin: 0.3, SeedMax: 0.5}, []float64{0.5, 0.4, 0.3}},
		{"rope", 2, 1, RecallStat{Defined: true, Distance: 1, Correct: 24, N: 30, Rate: 0.8, SeedMin: 0.7, SeedMax: 0.9}, []float64{0.7, 0.9, 0.8}},
		{"learned", 1, 1, RecallStat{Defined: true, Distance: 1, Correct: 18, N: 20, Rate: 0.9, SeedMin: 0.9, SeedMax: 0.9}, []float64{0.9, 0.9}},
		{"learned", 2, 0, RecallStat{Distance: 30}, nil}, // undefined
	} {
		got, err := r.RecallAt(c.name, c.multiple, c.depth)
		if err != nil {
			t.Errorf("RecallAt(%s, %d, %g): %v", c.name, c.multiple, c.depth, err)
			continue
		}
		want := c.want
		want.PerSeed = c.wantRates
		if want.Defined {
			want.Lo, want.Hi = Wilson(want.Correct, want.N)
		}
		near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
		if got.Defined != want.Defined || got.Distance != want.Distance || got.Correct != want.Correct || got.N != want.N ||
			!near(got.Rate, want.Rate) || got.Lo != want.Lo || got.Hi != want.Hi || !near(got.SeedMin, want.SeedMin) || !near(got.SeedMax, want.SeedMax) ||
			len(got.PerSeed) != len(want.PerSeed) {
			t.Errorf("RecallAt(%s, %d, %g) = %+v; want %+v", c.name, c.multiple, c.depth, got, want)
			continue
		}
		for i := range want.PerSeed {
			if !near(got.PerSeed[i], want.PerSeed[i]) {
				t.Errorf("RecallAt(%s, %d, %g): per seed %v; want %v, in seed order", c.name, c.multiple, c.depth, got.PerSeed, want.PerSeed)
			}
		}
	}
	for _, c := range []struct {
		name     string
		multiple int
		depth    float64
		want     string
	}{
		{"rope", 1, 0.5, `run "rope" has no recall at 1×L, depth 0.5`},
		{"rope", 4, 0, "no recall at 4×L"},
		{"alibi", 1, 0, `no run "alibi"`},
	} {
		if _, err := r.RecallAt(c.name, c.multiple, c.depth); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("RecallAt(%s, %d, %g) error = %v; want %q", c.name, c.multiple, c.depth, err, c.want)
		}
	}
}

func TestResultsWriteRead(t *testing.T) {
	r := handResults()
	r.Provenance = Provenance{Command: "go run ./cmd/lab --suite lab", Commit: "abc", Backend: "go", LoadBefore: [3]float64{1, 2, 3}}
	path := filepath.Join(t.TempDir(), "results.json")
	if err := r.Write(path); err != nil {
		t.Fatal(err)
	}
	back, err := ReadResults(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, r) {
		t.Errorf("read back\n%+v\nwant\n%+v", back, r)
	}
	if _, err := ReadResults(filepath.Join(t.TempDir(), "none.json")); err == nil {
		t.Error("ReadResults of a missing file: no error")
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"runs": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadResults(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("ReadResults of truncated JSON: %v; want an error naming the file", err)
	}
}

// The baselines on a text small enough to count by hand: the training
// text is "abb" 30 times, the one window "abba" → "bbab".
func TestBaselines(t *testing.T) {
	train := Encode([]byte(strings.Repeat("abb", 30)))
	ev := &evaluation{c: Config{TrainLen: 4}, valid: Encode([]byte("abbab")), windows: Windows{Ends: []int{4}}}
	got := ev.baselines(train)
	// Add-one smoothing over VocabSize tokens. Unigram: a 30 times and b
	// 60 in 90 tokens. Bigram: a is followed by b 30 times (of 30), b by b
	// 30 times and by a 29 (of 59: the last b is followed by nothing).
	v := float64(VocabSize)
	uni := -(3*math.Log(61/(90+v)) + math.Log(31/(90+v))) / 4                      // b, b, a, b
	bi := -(2*math.Log(31/(30+v)) + math.Log(31/(59+v)) + math.Log(30/(59+v))) / 4 // a→b twice, b→b, b→a
	if want := (Baselines{Unigram: round4(uni), Bigram: round4(bi)}); got != want {
		t.Errorf("baselines %+v; want %+v", got, want)
	}
}
