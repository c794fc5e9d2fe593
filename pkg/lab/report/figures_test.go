package report

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/lab"
	"github.com/posenc/course/pkg/posgraph"
	"github.com/posenc/course/pkg/viz"
)

func TestTrainedAndScaled(t *testing.T) {
	r := handResults()
	// Trained models once each, in order of first run: no scaled
	// evaluation, no fine-tune (rope-finetune is trained and unscaled).
	if got, want := Trained(r), []string{"rope", "learned"}; !slices.Equal(got, want) {
		t.Errorf("Trained() = %v; want %v", got, want)
	}
	// rope, then its scalings in the order of lab.Methods, not of the runs.
	if got, want := Scaled(r), []string{"rope", "rope+pi", "rope+yarn"}; !slices.Equal(got, want) {
		t.Errorf("Scaled() = %v; want %v", got, want)
	}
	r.Runs = slices.DeleteFunc(r.Runs, func(run lab.Run) bool { return run.Scaling != "" && run.Train == nil })
	if got := Scaled(r); !slices.Equal(got, []string{"rope"}) {
		t.Errorf("without scalings: Scaled() = %v; want [rope]", got)
	}
	if got := Chance(); got != 1.0/26 {
		t.Errorf("Chance() = %g; want 1/26", got)
	}
}

// Each figure draws what it is given, undefined lengths and all, and says
// which run it lacks.
func TestFigures(t *testing.T) {
	r := handResults()
	for _, c := range []struct {
		name string
		fig  func(names ...string) (*viz.Figure, error)
	}{
		{"LossByLength", func(n ...string) (*viz.Figure, error) { return LossByLength(r, n...) }},
		{"LossByPosition", func(n ...string) (*viz.Figure, error) { return LossByPosition(r, 1, 4, n...) }},
		{"RecallByLength", func(n ...string) (*viz.Figure, error) { return RecallByLength(r, n...) }},
		{"RecallByDepth", func(n ...string) (*viz.Figure, error) { return RecallByDepth(r, 2, n...) }},
		{"LearningCurves", func(n ...string) (*viz.Figure, error) { return LearningCurves(r, n...) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			names := []string{"rope", "learned"}
			if c.name == "LossByPosition" {
				names = []string{"rope", "rope+pi"}
			}
			f, err := c.fig(names...)
			if err != nil {
				t.Fatal(err)
			}
			data, err := f.PNG(0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := png.Decode(bytes.NewReader(data)); err != nil {
				t.Fatal(err)
			}
			if _, err := c.fig("rope", "alibi"); err == nil || !strings.Contains(err.Error(), `"alibi"`) {
				t.Errorf("with a missing run: %v; want an error naming it", err)
			}
		})
	}
	if _, err := LearningCurves(r, "rope+pi"); err == nil || !strings.Contains(err.Error(), `"rope+pi" has no learning curve`) {
		t.Errorf("LearningCurves(rope+pi) error = %v; want: no learning curve", err)
	}
	if _, err := LossByPosition(r, 2, 4, "learned"); err == nil || !strings.Contains(err.Error(), "no loss at 2×L") {
		t.Errorf("LossByPosition(learned at 2L) error = %v; want: undefined", err)
	}
}

// labFigures are WriteFigures' files for results with scalings and
// fine-tunes; the first five are drawn for any.
var labFigures = []string{
	"learning-curves.png", "loss-by-length.png", "loss-by-position.png", "recall-by-length.png", "recall-by-depth-L.png",
	"scaling-loss-by-length.png", "scaling-recall-by-length.png",
	"finetune-loss-by-length.png", "finetune-recall-by-length.png",
}

// checkFigures checks that paths are the files want in dir, each a PNG.
func checkFigures(t *testing.T, dir string, paths, want []string) {
	t.Helper()
	var got []string
	for _, p := range paths {
		if filepath.Dir(p) != dir {
			t.Errorf("figure %s is not in %s", p, dir)
		}
		got = append(got, filepath.Base(p))
		data, err := os.ReadFile(p)
		if err != nil {
			t.Error(err)
			continue
		}
		if _, err := png.DecodeConfig(bytes.NewReader(data)); err != nil || len(data) < 5000 {
			t.Errorf("%s: %d bytes, %v; want a figure", p, len(data), err)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("figures %v; want %v", got, want)
	}
}

func TestWriteFigures(t *testing.T) {
	r := handResults()
	dir := t.TempDir()
	paths, err := WriteFigures(r, dir)
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, dir, paths, labFigures)
	// Lesson 9's suite: no scalings, no fine-tunes, the first five.
	r.Runs = slices.DeleteFunc(r.Runs, func(run lab.Run) bool {
		return strings.Contains(run.Name, "+") || strings.HasSuffix(run.Name, "finetune")
	})
	dir = t.TempDir()
	if paths, err = WriteFigures(r, dir); err != nil {
		t.Fatal(err)
	}
	checkFigures(t, dir, paths, labFigures[:5])
}

// WriteFigures on what RunLab measures: one seed of learned and RoPE, a
// few steps.
func TestWriteFiguresQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("trains two models")
	}
	c := lab.Quick(lab.DefaultConfig())
	c.Encodings, c.Variants, c.Seeds = []lab.Encoding{lab.Learned, lab.RoPE}, nil, []int64{1}
	c.Steps, c.FinetuneSteps = 5, 2
	res, err := lab.RunLab(c, lab.Options{Backend: posgraph.GoBackend()})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	paths, err := WriteFigures(res, dir)
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, dir, paths, labFigures)
}
