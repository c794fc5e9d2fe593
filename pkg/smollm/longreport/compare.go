package longreport

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/posenc/course/pkg/lab"
)

// Two methods scored the same tokens, so their losses pair position by
// position, and the difference is measured far more precisely than two
// separate means would allow. Neighbouring positions' losses are not
// independent (a hard passage is hard under every method), so the
// interval resamples blocks of positions, not positions: a moving-block
// bootstrap (Künsch 1989) with non-overlapping blocks, within each text.

// DefaultBlock is the block of positions the bootstrap resamples: a
// compromise, long enough to keep a sentence or a short function together,
// short enough to leave 16 blocks in the shortest range of the table
// (1,024 positions). A claim that rests on the interval should also hold
// with longer blocks (CompareBlocks); lesson 11's checks repeat its claims
// with blocks four times as long.
const DefaultBlock = 64

// bootstrapReps is the bootstrap's number of resamples.
const bootstrapReps = 2000

// Diff is method A's NLL minus method B's over positions From … To−1.
type Diff struct {
	A, B     string
	From, To int
	// ByText is each text's mean difference, in Config.Texts' order.
	ByText []float64
	// Interval is the mean over the texts of their mean differences, with a
	// 95% block-bootstrap interval over positions (the texts fixed): it says
	// how precisely these texts measure the difference, not how another
	// text would come out; ByText shows that.
	Interval lab.Interval
	Block    int
}

// Resolved reports whether the difference is told apart from zero: the
// bootstrap interval excludes 0 and every text's difference has the same
// sign. Anything else is "not resolved".
func (d Diff) Resolved() bool {
	if !d.Interval.Excludes(0) {
		return false
	}
	pos, neg := 0, 0
	for _, x := range d.ByText {
		if x > 0 {
			pos++
		} else if x < 0 {
			neg++
		}
	}
	return pos == len(d.ByText) || neg == len(d.ByText)
}

// Below reports whether A's NLL is lower than B's, resolved.
func (d Diff) Below() bool { return d.Resolved() && d.Interval.Estimate < 0 }

// Above reports whether A's NLL is higher than B's, resolved.
func (d Diff) Above() bool { return d.Resolved() && d.Interval.Estimate > 0 }

// Compare returns a's NLL minus b's over positions from … to−1, paired by
// position within each text, with blocks of DefaultBlock positions.
func (r *Report) Compare(a, b string, from, to int) (Diff, error) {
	return r.CompareBlocks(a, b, from, to, DefaultBlock)
}

// CompareBlocks is Compare with a block of block positions.
func (r *Report) CompareBlocks(a, b string, from, to, block int) (Diff, error) {
	if block < 1 {
		return Diff{}, fmt.Errorf("longreport: block %d, want at least 1 position", block)
	}
	d := Diff{A: a, B: b, From: from, To: to, Block: block}
	var texts [][]float64 // per text, its blocks' summed differences and their sizes below
	var sizes [][]int
	for _, text := range r.Config.Texts {
		la, err := r.losses(a, text, from, to)
		if err != nil {
			return Diff{}, err
		}
		lb, err := r.losses(b, text, from, to)
		if err != nil {
			return Diff{}, err
		}
		var sums []float64
		var ns []int
		total := 0.0
		for lo := 0; lo < len(la); lo += block {
			hi := min(lo+block, len(la))
			s := 0.0
			for i := lo; i < hi; i++ {
				s += float64(la[i]) - float64(lb[i])
			}
			sums, ns, total = append(sums, s), append(ns, hi-lo), total+s
		}
		d.ByText = append(d.ByText, total/float64(len(la)))
		texts, sizes = append(texts, sums), append(sizes, ns)
	}
	d.Interval = blockBootstrap(texts, sizes, bootstrapReps, 1)
	d.Interval.Estimate = lab.SpreadOf(d.ByText).Mean
	return d, nil
}

// blockBootstrap returns the 95% percentile interval of the mean over
// texts of each text's mean, resampling each text's blocks (sums[t][j]
// over sizes[t][j] positions) with replacement, from a fixed seed.
func blockBootstrap(sums [][]float64, sizes [][]int, reps int, seed uint64) lab.Interval {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	stats := make([]float64, reps)
	for k := range stats {
		m := 0.0
		for t := range sums {
			s, n := 0.0, 0
			for range sums[t] {
				j := rng.IntN(len(sums[t]))
				s, n = s+sums[t][j], n+sizes[t][j]
			}
			m += s / float64(n)
		}
		stats[k] = m / float64(len(sums))
	}
	slices.Sort(stats)
	return lab.Interval{Lo: quantile(stats, 0.025), Hi: quantile(stats, 0.975)}
}

// quantile returns the q-quantile of sorted xs, interpolating linearly.
func quantile(xs []float64, q float64) float64 {
	p := q * float64(len(xs)-1)
	i := int(p)
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	return xs[i] + (p-float64(i))*(xs[i+1]-xs[i])
}
