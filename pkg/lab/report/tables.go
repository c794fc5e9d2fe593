package report

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/posenc/course/pkg/lab"
)

// Summary returns the headline table of r: each run's loss at every
// evaluation length (mean over seeds, with their range) and its recall at
// every length over the depth probes (the same), then the baselines, the
// wall time and the machine.
func Summary(r *lab.Results) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(w, "run\t")
	for _, k := range r.Config.Multiples {
		fmt.Fprintf(w, "loss %d×L\t", k)
	}
	fmt.Fprint(w, "|")
	for _, k := range r.Config.Multiples {
		fmt.Fprintf(w, "recall %d×L\t", k)
	}
	fmt.Fprintln(w)
	for _, name := range r.Names() {
		fmt.Fprintf(w, "%s\t", name)
		for _, k := range r.Config.Multiples {
			fmt.Fprintf(w, "%s\t", SpreadText(r, name, k))
		}
		fmt.Fprint(w, "|")
		for _, k := range r.Config.Multiples {
			fmt.Fprintf(w, "%s\t", RecallText(r, name, k))
		}
		fmt.Fprintln(w)
	}
	w.Flush()
	p := r.Provenance
	fmt.Fprintf(&b, "L = %d; %d seeds (a control may take fewer: Variant.Seeds); loss in nats per character on the same last-L targets at every length, mean [min–max over seeds];\n",
		r.Config.TrainLen, len(r.Config.Seeds))
	fmt.Fprintf(&b, "recall over the depth probes, mean [min–max over seeds] (chance %.3f); — undefined; ? not measured (a control: L only); baselines: unigram %.3f, bigram %.3f\n",
		1/float64(len(lab.Symbols)), r.Baselines.Unigram, r.Baselines.Bigram)
	fmt.Fprintf(&b, "%.0f s on %s (%d cores, load %.2f → %.2f), backend %s, %s\n", p.WallSeconds,
		p.CPU, p.Cores, p.LoadBefore[0], p.LoadAfter[0], p.Backend, p.GoVersion)
	return b.String()
}

// SpreadText returns the loss of name at multiple·L over seeds as "1.661
// [1.650–1.672]", "—" where undefined, "?" where missing.
func SpreadText(r *lab.Results, name string, multiple int) string {
	xs, ok, err := r.Loss(name, multiple)
	switch {
	case err != nil:
		return "?"
	case !ok:
		return "—"
	}
	s := lab.SpreadOf(xs)
	if s.N == 1 {
		return fmt.Sprintf("%.3f", s.Mean)
	}
	return fmt.Sprintf("%.3f [%.3f–%.3f]", s.Mean, s.Min, s.Max)
}

// RecallPooled returns name's recall at multiple·L pooled over every depth
// and seed: correct answers, probes, and whether it is defined.
func RecallPooled(r *lab.Results, name string, multiple int) (correct, n int, defined bool, err error) {
	s, err := RecallOver(r, name, multiple)
	return s.Correct, s.N, s.Defined, err
}

// RecallOver returns name's recall at multiple·L pooled over the given
// depths (every depth of the run when none is given) and over seeds:
// Correct, N, Rate and its 95% Wilson interval Lo–Hi. It is not Defined
// where any of those depths has no probes at that length. A pooled rate has
// no single distance or per-seed rates: those fields stay zero.
func RecallOver(r *lab.Results, name string, multiple int, depths ...float64) (lab.RecallStat, error) {
	if len(depths) == 0 {
		depths = r.Config.Depths
	}
	var p lab.RecallStat
	for _, d := range depths {
		s, err := r.RecallAt(name, multiple, d)
		if err != nil {
			return lab.RecallStat{}, err
		}
		if !s.Defined {
			return lab.RecallStat{}, nil
		}
		p.Correct, p.N = p.Correct+s.Correct, p.N+s.N
	}
	p.Defined = true
	p.Rate = float64(p.Correct) / float64(p.N)
	p.Lo, p.Hi = lab.Wilson(p.Correct, p.N)
	return p, nil
}

// RecallText returns name's recall at multiple·L over the depth probes as
// "0.84 [0.80–0.88]": the mean over seeds and their range
// (EstimateRecall); "—" where undefined, "?" where missing.
func RecallText(r *lab.Results, name string, multiple int) string {
	e, err := EstimateRecall(r, name, DepthCells(multiple))
	switch {
	case err != nil:
		return "?"
	case !e.Defined:
		return "—"
	case e.Seeds == 1:
		return fmt.Sprintf("%.2f", e.Mean)
	}
	return fmt.Sprintf("%.2f [%.2f–%.2f]", e.Mean, e.SeedMin, e.SeedMax)
}

// RecallPooledText returns RecallPooled as "0.84".
func RecallPooledText(r *lab.Results, name string, multiple int) string {
	k, n, ok, err := RecallPooled(r, name, multiple)
	switch {
	case err != nil:
		return "?"
	case !ok:
		return "—"
	}
	return fmt.Sprintf("%.2f", float64(k)/float64(n))
}
