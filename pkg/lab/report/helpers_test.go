package report

import (
	"math"

	"github.com/posenc/course/pkg/lab"
)

// na is an undefined number of a run: a loss (NaN) or a recall count (−1).
var na = math.NaN()

const naCount = -1

// run returns a run of name and seed at L = 16 over multiples 1, 2, 4 and
// depths 0 and 1: loss[i] at the i-th multiple and, of 10 probes at each,
// correct0[i] answered at depth 0 and correct1[i] at depth 1.
func run(name string, seed int64, loss []float64, correct0, correct1 []int) lab.Run {
	r := lab.Run{Name: name, Encoding: lab.RoPE, Seed: seed}
	if name == "learned" {
		r.Encoding = lab.Learned
	}
	for i, k := range []int{1, 2, 4} {
		n := 16 * k
		l := lab.Length{Multiple: k, Length: n}
		if !math.IsNaN(loss[i]) {
			l.Defined, l.Mean, l.PerPosition = true, loss[i], make([]float64, n)
			for p := range l.PerPosition {
				l.PerPosition[p] = loss[i] + float64(n-p)/float64(n)
			}
		}
		r.Lengths = append(r.Lengths, l)
		for j, c := range []int{correct0[i], correct1[i]} {
			d := float64(j)
			cell := lab.RecallCell{Multiple: k, Length: n, Depth: d, Distance: lab.ProbeDistance(n, lab.ProbeOffset(n, d)), N: 10}
			if c >= 0 {
				cell.Defined, cell.Correct = true, c
			}
			r.Recall = append(r.Recall, cell)
		}
	}
	return r
}

// trained gives r a training with a learning curve of validation losses
// at steps 10 and 20.
func trained(r lab.Run, valid10, valid20 float64) lab.Run {
	r.Train = &lab.TrainStats{Steps: 20, FinalLoss: valid20, Curve: []lab.CurvePoint{
		{Step: 10, Train: valid10 + 0.1, Valid: valid10}, {Step: 20, Train: valid20 + 0.1, Valid: valid20}}}
	return r
}

// tuned gives r a fine-tune's training, with no curve, and scaling.
func tuned(r lab.Run, scaling string) lab.Run {
	r.Train, r.Scaling = &lab.TrainStats{Steps: 10, FinalLoss: 2}, scaling
	return r
}

// scaled marks r an evaluation with method.
func scaled(r lab.Run, method string) lab.Run { r.Scaling = method; return r }

// handResults returns results of L = 16 at 1, 2 and 4 L and depths 0 and
// 1, two seeds each, listed out of order: rope, learned (undefined past
// L), rope's PI and YaRN scalings (YaRN first), rope's fine-tunes. At
// depth 0 the distances are 14 (1×L), 30 (2×L) and 62 (4×L); at depth 1,
// 1.
func handResults() *lab.Results {
	c := lab.Quick(lab.DefaultConfig())
	c.Seeds, c.Multiples, c.Depths, c.Methods = []int64{1, 2}, []int{1, 2, 4}, []float64{0, 1}, []string{"pi", "yarn"}
	return &lab.Results{
		Config:     c,
		Provenance: lab.Provenance{Command: "go run ./cmd/lab --suite lab", CPU: "a CPU", Cores: 2, Backend: "go", GoVersion: "go1.26.8", WallSeconds: 42},
		Baselines:  lab.Baselines{Unigram: 3, Bigram: 2.5},
		Runs: []lab.Run{
			trained(run("rope", 2, []float64{2.2, 2.6, 3.0}, []int{8, 4, 2}, []int{10, 10, 9}), 2.5, 2.3),
			trained(run("learned", 1, []float64{2.0, na, na}, []int{9, naCount, naCount}, []int{10, naCount, naCount}), 2.4, 2.1),
			trained(run("rope", 1, []float64{2.0, 2.4, 2.8}, []int{10, 6, 9}, []int{10, 9, 10}), 2.3, 2.1),
			scaled(run("rope+yarn", 1, []float64{2.0, 2.2, 2.3}, []int{10, 9, 8}, []int{10, 10, 10}), "yarn"),
			scaled(run("rope+yarn", 2, []float64{2.2, 2.4, 2.5}, []int{8, 8, 8}, []int{10, 10, 10}), "yarn"),
			scaled(run("rope+pi", 1, []float64{2.0, 2.5, 2.9}, []int{10, 5, 1}, []int{10, 5, 1}), "pi"),
			scaled(run("rope+pi", 2, []float64{2.2, 2.7, 3.1}, []int{8, 5, 1}, []int{10, 5, 1}), "pi"),
			tuned(run("rope+pi-finetune", 1, []float64{2.1, 2.2, 2.3}, []int{9, 9, 9}, []int{9, 9, 9}), "pi×4"),
			tuned(run("rope-finetune", 1, []float64{2.1, 2.3, 2.6}, []int{9, 8, 7}, []int{9, 8, 7}), ""),
			trained(run("learned", 2, []float64{2.2, na, na}, []int{7, naCount, naCount}, []int{10, naCount, naCount}), 2.6, 2.3),
			tuned(run("rope+pi-finetune", 2, []float64{2.1, 2.2, 2.3}, []int{9, 9, 9}, []int{9, 9, 9}), "pi×4"),
			tuned(run("rope-finetune", 2, []float64{2.1, 2.3, 2.6}, []int{9, 8, 7}, []int{9, 8, 7}), ""),
		},
	}
}
