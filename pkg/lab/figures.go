package lab

import (
	"fmt"
	"math"
	"path/filepath"

	"github.com/posenc/course/pkg/viz"
)

// FigureLossByLength draws each named run's mean validation loss against
// the evaluation length (the analogue of the ALiBi paper's Figure 1). An
// undefined length (a learned table past its rows) is left out.
func FigureLossByLength(r *Results, names ...string) (*viz.Figure, error) {
	var series []viz.Series
	for _, name := range names {
		run, err := r.Run(name)
		if err != nil {
			return nil, err
		}
		s := viz.Series{Name: name}
		defined := 0
		for _, l := range run.Lengths {
			s.X, s.Y = append(s.X, float64(l.Length)), append(s.Y, undefinedNaN(l.Mean, l.Defined))
			if l.Defined {
				defined++
			}
		}
		s.Points = defined < 2 // one point makes no line
		series = append(series, s)
	}
	title := fmt.Sprintf("Validation loss by evaluation length (trained on L = %d)", r.Config.TrainLen)
	return viz.Lines(title, "evaluation length (tokens)", "loss (nats per character)", series...).LogX(), nil
}

// FigureLossByPosition draws each named run's loss at each position of
// windows of multiple·L tokens, averaged over bins of bin positions.
func FigureLossByPosition(r *Results, multiple, bin int, names ...string) (*viz.Figure, error) {
	var series []viz.Series
	for _, name := range names {
		run, err := r.Run(name)
		if err != nil {
			return nil, err
		}
		s := viz.Series{Name: name}
		for _, l := range run.Lengths {
			if l.Multiple != multiple || !l.Defined {
				continue
			}
			for i := 0; i+bin <= len(l.PerPosition); i += bin {
				sum := 0.0
				for _, v := range l.PerPosition[i : i+bin] {
					sum += v
				}
				s.X, s.Y = append(s.X, float64(i)+float64(bin-1)/2), append(s.Y, sum/float64(bin))
			}
		}
		series = append(series, s)
	}
	title := fmt.Sprintf("Loss by position, windows of %d×L = %d (L = %d)", multiple, multiple*r.Config.TrainLen, r.Config.TrainLen)
	return viz.Lines(title, "position", fmt.Sprintf("loss (mean over bins of %d positions)", bin), series...), nil
}

// FigurePasskey draws the passkey accuracy of each named run against the
// distance from value to query, with the training length marked; distances
// a run has no positions for (a learned table past L) are left out.
func FigurePasskey(r *Results, names ...string) (*viz.Figure, error) {
	var series []viz.Series
	for _, name := range names {
		run, err := r.Run(name)
		if err != nil {
			return nil, err
		}
		s := viz.Series{Name: name}
		for _, p := range run.Passkey {
			s.X, s.Y = append(s.X, float64(p.Distance)), append(s.Y, undefinedNaN(p.Accuracy, p.Defined))
		}
		series = append(series, s)
	}
	L := float64(r.Config.TrainLen)
	series = append(series, viz.Series{Name: "L", X: []float64{L, L}, Y: []float64{0, 1}, Dashed: true})
	title := fmt.Sprintf("Passkey accuracy by distance (trained on L = %d; chance %.3g)", r.Config.TrainLen, 1.0/NumValues)
	f := viz.Lines(title, "distance from value to query (tokens)", "accuracy", series...).LogX()
	f.Plot().Legend.Top = false // the curves start at the top
	return f, nil
}

func undefinedNaN(v float64, defined bool) float64 {
	if !defined {
		return math.NaN()
	}
	return v
}

// WriteFigures draws the lab's standard figures into dir as PNG files and
// returns their paths.
func WriteFigures(r *Results, dir string) ([]string, error) {
	var trained []string
	for _, run := range r.Runs {
		if run.Scaling == "" {
			trained = append(trained, run.Name)
		}
	}
	figs := map[string]func() (*viz.Figure, error){
		"loss-by-length.png": func() (*viz.Figure, error) { return FigureLossByLength(r, trained...) },
		"loss-by-position.png": func() (*viz.Figure, error) {
			return FigureLossByPosition(r, r.Config.Multiples[len(r.Config.Multiples)-1], max(r.Config.TrainLen/8, 1), trained...)
		},
		"passkey.png": func() (*viz.Figure, error) { return FigurePasskey(r, trained...) },
	}
	if _, err := r.Run("rope+pi"); err == nil {
		scaled := []string{"rope"}
		for _, m := range Methods {
			scaled = append(scaled, "rope+"+m)
		}
		if _, err := r.Run("rope+pi-finetune"); err == nil {
			scaled = append(scaled, "rope+pi-finetune")
		}
		figs["scaling-passkey.png"] = func() (*viz.Figure, error) { return FigurePasskey(r, scaled...) }
		figs["scaling-by-length.png"] = func() (*viz.Figure, error) { return FigureLossByLength(r, scaled...) }
		figs["scaling-by-position.png"] = func() (*viz.Figure, error) {
			return FigureLossByPosition(r, r.Config.Multiples[len(r.Config.Multiples)-1], max(r.Config.TrainLen/8, 1), scaled...)
		}
	}
	var paths []string
	for name, fig := range figs {
		f, err := fig()
		if err != nil {
			return nil, err
		}
		path := filepath.Join(dir, name)
		if err := viz.Save(f, path, 0, 0); err != nil {
			return nil, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}
