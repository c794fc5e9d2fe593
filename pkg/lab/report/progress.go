package report

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/posenc/course/pkg/lab"
)

// Progress draws a progress bar for a lab run on w: the model and seed,
// the step, the loss, tokens per second and the time left; it is the run's
// lab.Observer. On a terminal it redraws
// one line; elsewhere (a notebook, a CI log) it prints a line every tenth
// of the steps.
type Progress struct {
	w          io.Writer
	terminal   bool
	name       string
	lastTenth  int
	totalSteps int // of the whole run, for its ETA
	doneSteps  int
	start      time.Time
}

// NewProgress returns a progress bar on w (nil: none) for a run of
// totalSteps training steps in all (lab.Config.TotalSteps); when it is positive
// the bar also shows the whole run's ETA.
func NewProgress(w io.Writer, totalSteps int) *Progress {
	p := &Progress{w: w, totalSteps: totalSteps, start: time.Now()}
	if f, ok := w.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			p.terminal = true
		}
	}
	return p
}

// Begin starts the bar of one model.
func (p *Progress) Begin(name string, seed int64) {
	if p == nil {
		return
	}
	p.name, p.lastTenth = fmt.Sprintf("%s s%d", name, seed), -1
}

// Done prints the loss of a run at every length when it is evaluated.
func (p *Progress) Done(run *lab.Run) {
	if p == nil || p.w == nil {
		return
	}
	s := ""
	for _, l := range run.Lengths {
		if l.Defined {
			s += fmt.Sprintf(" %d×L %.3f", l.Multiple, l.Mean)
		} else {
			s += fmt.Sprintf(" %d×L —", l.Multiple)
		}
	}
	fmt.Fprintf(p.w, "%-22s loss%s (%.0f s to evaluate)\n", fmt.Sprintf("%s s%d", run.Name, run.Seed), s, run.EvalSeconds)
}

// Step draws step s of the current model.
func (p *Progress) Step(s lab.Step) {
	if p == nil || p.w == nil {
		return
	}
	tenth := 10 * s.Step / s.Steps
	if !p.terminal && tenth == p.lastTenth && s.Step != s.Steps {
		return
	}
	p.lastTenth = tenth
	const width = 20
	filled := width * s.Step / s.Steps
	bar := strings.Repeat("█", filled) + strings.Repeat("·", width-filled)
	eta := "…"
	if s.TokensPerSecond > 0 {
		perStep := s.Elapsed.Seconds() / float64(s.Step)
		left := float64(s.Steps-s.Step) * perStep
		eta = fmtDuration(left)
		if p.totalSteps > 0 {
			// The lab's steps left include this model's: left is part of it.
			eta += ", lab " + fmtDuration(float64(p.totalSteps-p.doneSteps-s.Step)*perStep)
		}
	}
	line := fmt.Sprintf("%-22s %s %5d/%d  loss %.3f  %5.1fk tok/s  ETA %s", p.name, bar, s.Step, s.Steps,
		s.Loss, s.TokensPerSecond/1000, eta)
	if p.terminal {
		fmt.Fprintf(p.w, "\r%-100s", line)
		if s.Step == s.Steps {
			fmt.Fprintln(p.w)
		}
	} else {
		fmt.Fprintln(p.w, line)
	}
	if s.Step == s.Steps {
		p.doneSteps += s.Steps
	}
}

// Note prints a line (after the bar, if one is drawn).
func (p *Progress) Note(format string, args ...any) {
	if p == nil || p.w == nil {
		return
	}
	fmt.Fprintf(p.w, format+"\n", args...)
}

func fmtDuration(seconds float64) string {
	d := time.Duration(seconds * float64(time.Second)).Round(time.Second)
	return fmt.Sprintf("%d:%02d", int(d.Minutes()), int(d.Seconds())%60)
}
