package lab

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// Progress draws a progress bar for a lab run on w: the model, the step,
// the loss, tokens per second and the time left. On a terminal it redraws
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
// totalSteps training steps in all (Config.TotalSteps); when it is positive
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
func (p *Progress) Begin(name string) {
	if p == nil {
		return
	}
	p.name, p.lastTenth = name, -1
}

// Update draws step s of the current model.
func (p *Progress) Update(s Step) {
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
	line := fmt.Sprintf("%-18s %s %5d/%d  loss %.3f  %5.1fk tok/s  ETA %s", p.name, bar, s.Step, s.Steps,
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
