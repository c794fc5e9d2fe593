package report

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/posenc/course/pkg/lab"
	"github.com/posenc/course/pkg/viz"
)

// Trained returns the names of r's trained models, fine-tunes left out:
// the runs with training and no scaling.
func Trained(r *lab.Results) []string {
	var names []string
	for _, run := range r.Runs {
		if run.Train != nil && run.Scaling == "" && !strings.HasSuffix(run.Name, "finetune") && !slices.Contains(names, run.Name) {
			names = append(names, run.Name)
		}
	}
	return names
}

// Controls returns the names of r's controls that it has runs of
// (lab.Controls: variants trained otherwise than their encoding), in
// config order, and the encodings they control for that it has runs of.
func Controls(r *lab.Results) (controls, bases []string) {
	for _, v := range r.Config.Variants {
		if _, err := r.Seeds(v.Name); err != nil {
			continue
		}
		if v.ScaleEmbeddings || v.TextOnly || v.Steps > 0 {
			controls = append(controls, v.Name)
			if _, err := r.Seeds(string(v.Encoding)); err == nil && !slices.Contains(bases, string(v.Encoding)) {
				bases = append(bases, string(v.Encoding))
			}
		}
	}
	return controls, bases
}

// Scaled returns "rope" and the names of r's scaled RoPE evaluations, in
// the order of lab.Methods.
func Scaled(r *lab.Results) []string {
	names := []string{"rope"}
	for _, m := range lab.Methods {
		if _, err := r.Seeds("rope+" + m); err == nil {
			names = append(names, "rope+"+m)
		}
	}
	return names
}

// Chance is the recall a model gets by guessing a letter.
func Chance() float64 { return 1 / float64(len(lab.Symbols)) }

// LossByLength draws each named run's loss on the same targets against the
// evaluation length: the mean over seeds, with a bar from the lowest seed
// to the highest, and the bigram baseline dashed. An undefined length (a
// learned table past its rows) is left out.
func LossByLength(r *lab.Results, names ...string) (*viz.Figure, error) {
	var series []viz.Series
	for _, name := range names {
		s := styled(viz.Series{Name: name}, StyleOf(name))
		defined := 0
		for _, k := range r.Config.Multiples {
			xs, ok, err := r.Loss(name, k)
			if err != nil {
				return nil, err
			}
			sp := lab.SpreadOf(xs)
			if !ok {
				sp = lab.Spread{Mean: math.NaN(), Min: math.NaN(), Max: math.NaN()}
			} else {
				defined++
			}
			s.X, s.Y = append(s.X, float64(k*r.Config.TrainLen)), append(s.Y, sp.Mean)
			s.Lo, s.Hi = append(s.Lo, sp.Min), append(s.Hi, sp.Max)
		}
		s.Points = defined < 2 // one point makes no line
		series = append(series, s)
	}
	series = append(series, baseline(r, "bigram", r.Baselines.Bigram))
	title := fmt.Sprintf("Loss on the same targets by input length (L = %d)", r.Config.TrainLen)
	return viz.Lines(title, "input length (tokens)", "loss (nats per character)", series...).LogX().TicksX(lengths(r)...), nil
}

// lengths returns r's evaluation lengths.
func lengths(r *lab.Results) []float64 {
	var x []float64
	for _, k := range r.Config.Multiples {
		x = append(x, float64(k*r.Config.TrainLen))
	}
	return x
}

// baseline is a dashed horizontal line at y across r's lengths.
func baseline(r *lab.Results, name string, y float64) viz.Series {
	ms := r.Config.Multiples
	x0, x1 := float64(ms[0]*r.Config.TrainLen), float64(ms[len(ms)-1]*r.Config.TrainLen)
	return reference(name, x0, x1, y)
}

// reference is the horizontal line of a baseline (bigram, chance) from x0
// to x1 at y, in its one style.
func reference(name string, x0, x1, y float64) viz.Series {
	st := chanceStyle
	if name == "bigram" {
		st = bigramStyle
	}
	return styled(viz.Series{Name: name, X: []float64{x0, x1}, Y: []float64{y, y}}, st)
}

// LossByPosition draws each named run's loss at each position of windows
// of multiple·L tokens, averaged over bins of bin positions: the mean over
// seeds, with a bar from the lowest seed's bin mean to the highest, and L
// marked.
func LossByPosition(r *lab.Results, multiple, bin int, names ...string) (*viz.Figure, error) {
	var series []viz.Series
	top := 0.0
	for _, name := range names {
		runs, err := r.Seeds(name)
		if err != nil {
			return nil, err
		}
		s := styled(viz.Series{Name: name}, StyleOf(name))
		var bins [][]float64 // by seed, then bin
		for _, run := range runs {
			i := slices.IndexFunc(run.Lengths, func(l lab.Length) bool { return l.Multiple == multiple })
			if i < 0 || !run.Lengths[i].Defined {
				return nil, fmt.Errorf("report: run %q has no loss at %d×L", name, multiple)
			}
			per := run.Lengths[i].PerPosition
			var means []float64
			for p := 0; p+bin <= len(per); p += bin {
				sum := 0.0
				for _, v := range per[p : p+bin] {
					sum += v
				}
				means = append(means, sum/float64(bin))
			}
			bins = append(bins, means)
		}
		for j := range bins[0] {
			var xs []float64
			for _, seed := range bins {
				xs = append(xs, seed[j])
			}
			sp := lab.SpreadOf(xs)
			s.X, s.Y = append(s.X, float64(j*bin)+float64(bin-1)/2), append(s.Y, sp.Mean)
			s.Lo, s.Hi = append(s.Lo, sp.Min), append(s.Hi, sp.Max)
			top = math.Max(top, sp.Max)
		}
		s.Marker = 0 // a marker every bin would hide the bars
		series = append(series, s)
	}
	L := float64(r.Config.TrainLen)
	series = append(series, styled(viz.Series{Name: "L", X: []float64{L, L}, Y: []float64{0, top}}, markStyle))
	title := fmt.Sprintf("Loss by position in windows of %d tokens (L = %d)", multiple*r.Config.TrainLen, r.Config.TrainLen)
	return viz.Lines(title, "position", fmt.Sprintf("loss (mean over bins of %d positions; bars: seeds' range)", bin), series...), nil
}

// RecallByLength draws each named run's recall against the input length,
// over the depth probes: the mean over seeds, with its 95% bootstrap
// interval over seeds and probes (the seeds' range for results without
// per-probe outcomes, EstimateRecall), and chance dashed.
func RecallByLength(r *lab.Results, names ...string) (*viz.Figure, error) {
	var series []viz.Series
	for _, name := range names {
		s := styled(viz.Series{Name: name}, StyleOf(name))
		defined := 0
		for _, k := range r.Config.Multiples {
			p, err := EstimateRecall(r, name, DepthCells(k))
			if err != nil {
				return nil, err
			}
			y, lo, hi := math.NaN(), math.NaN(), math.NaN()
			if p.Defined {
				y, lo, hi = p.Mean, p.Lo, p.Hi
				defined++
			}
			s.X, s.Y = append(s.X, float64(k*r.Config.TrainLen)), append(s.Y, y)
			s.Lo, s.Hi = append(s.Lo, lo), append(s.Hi, hi)
		}
		s.Points = defined < 2
		series = append(series, s)
	}
	series = append(series, baseline(r, "chance", Chance()))
	title := fmt.Sprintf("Recall by input length (L = %d)", r.Config.TrainLen)
	f := viz.Lines(title, "input length (tokens)", "recall (share answered)", series...).LogX().TicksX(lengths(r)...)
	f.Plot().Y.Min, f.Plot().Y.Max = 0, 1
	return f, nil
}

// RecallByDepth draws each named run's recall at multiple·L against where
// the probed pair stands (0: the first token, or Config.FirstOffset tokens
// in; 1: right before the query): the mean over seeds, with its 95%
// interval as in RecallByLength, and chance dashed.
func RecallByDepth(r *lab.Results, multiple int, names ...string) (*viz.Figure, error) {
	var series []viz.Series
	for _, name := range names {
		s := styled(viz.Series{Name: name}, StyleOf(name))
		for _, d := range r.Config.Depths {
			st, err := EstimateRecall(r, name, DepthCells(multiple, d))
			if err != nil {
				return nil, err
			}
			y, lo, hi := math.NaN(), math.NaN(), math.NaN()
			if st.Defined {
				y, lo, hi = st.Mean, st.Lo, st.Hi
			}
			s.X, s.Y = append(s.X, d), append(s.Y, y)
			s.Lo, s.Hi = append(s.Lo, lo), append(s.Hi, hi)
		}
		series = append(series, s)
	}
	ds := r.Config.Depths
	series = append(series, reference("chance", ds[0], ds[len(ds)-1], Chance()))
	n := multiple * r.Config.TrainLen
	title := fmt.Sprintf("Recall by depth in %d tokens (%d×L)", n, multiple)
	f := viz.Lines(title, fmt.Sprintf("depth of the pair (0: distance %d, 1: distance 1)", lab.ProbeDistance(n, r.Config.FirstOffset)), "recall", series...)
	f.Plot().Y.Min, f.Plot().Y.Max = 0, 1
	return f, nil
}

// LearningCurves draws each named run's validation loss (at L) against the
// training step, the mean over seeds with a bar from the lowest seed to the
// highest, and the bigram baseline dashed.
func LearningCurves(r *lab.Results, names ...string) (*viz.Figure, error) {
	var series []viz.Series
	last := 0.0
	for _, name := range names {
		runs, err := r.Seeds(name)
		if err != nil {
			return nil, err
		}
		if runs[0].Train == nil || len(runs[0].Train.Curve) == 0 {
			return nil, fmt.Errorf("report: run %q has no learning curve", name)
		}
		s := styled(viz.Series{Name: name}, StyleOf(name))
		s.Marker = 0 // a marker every point would hide the bars
		for i, p := range runs[0].Train.Curve {
			var xs []float64
			for _, run := range runs {
				xs = append(xs, run.Train.Curve[i].Valid)
			}
			sp := lab.SpreadOf(xs)
			s.X, s.Y = append(s.X, float64(p.Step)), append(s.Y, sp.Mean)
			s.Lo, s.Hi = append(s.Lo, sp.Min), append(s.Hi, sp.Max)
			last = math.Max(last, float64(p.Step))
		}
		series = append(series, s)
	}
	series = append(series, reference("bigram", 0, last, r.Baselines.Bigram))
	title := fmt.Sprintf("Validation loss at L = %d while training", r.Config.TrainLen)
	f := viz.Lines(title, "training step", "loss (nats per character)", series...)
	f.Plot().Y.Max = r.Baselines.Unigram
	return f, nil
}

// namedFigure is a figure to draw into a file.
type namedFigure struct {
	file string
	fig  func() (*viz.Figure, error)
}

// WriteFigures draws the lab's standard figures of r into dir as PNG files
// and returns their paths.
func WriteFigures(r *lab.Results, dir string) ([]string, error) {
	controls, bases := Controls(r)
	trained := slices.DeleteFunc(Trained(r), func(n string) bool { return slices.Contains(controls, n) })
	longest := r.Config.Multiples[len(r.Config.Multiples)-1]
	bin := max(r.Config.TrainLen/8, 1)
	figs := []namedFigure{
		{"learning-curves.png", func() (*viz.Figure, error) { return LearningCurves(r, trained...) }},
		{"loss-by-length.png", func() (*viz.Figure, error) { return LossByLength(r, trained...) }},
		{"loss-by-position.png", func() (*viz.Figure, error) {
			return LossByPosition(r, longest, bin, slices.DeleteFunc(slices.Clone(trained), func(n string) bool { return n == string(lab.Learned) })...)
		}},
		{"recall-by-length.png", func() (*viz.Figure, error) { return RecallByLength(r, trained...) }},
		{"recall-by-depth-L.png", func() (*viz.Figure, error) { return RecallByDepth(r, 1, trained...) }},
	}
	if len(controls) > 0 {
		both := append(slices.Clone(bases), controls...)
		// The controls are evaluated at L only: their learning curves
		// end on it.
		figs = append(figs, namedFigure{"controls-learning-curves.png", func() (*viz.Figure, error) { return LearningCurves(r, both...) }})
	}
	if scaled := Scaled(r); len(scaled) > 1 {
		figs = append(figs,
			namedFigure{"scaling-loss-by-length.png", func() (*viz.Figure, error) { return LossByLength(r, scaled...) }},
			namedFigure{"scaling-recall-by-length.png", func() (*viz.Figure, error) { return RecallByLength(r, scaled...) }})
	}
	if _, err := r.Seeds("rope+pi-finetune"); err == nil {
		ft := []string{"rope", "rope+pi-finetune", "rope-finetune"}
		figs = append(figs,
			namedFigure{"finetune-loss-by-length.png", func() (*viz.Figure, error) { return LossByLength(r, ft...) }},
			namedFigure{"finetune-recall-by-length.png", func() (*viz.Figure, error) { return RecallByLength(r, ft...) }})
	}
	var paths []string
	for _, f := range figs {
		fig, err := f.fig()
		if err != nil {
			return nil, fmt.Errorf("report: %s: %w", f.file, err)
		}
		path := filepath.Join(dir, f.file)
		if err := viz.Save(fig, path, 0, 0); err != nil {
			return nil, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}
