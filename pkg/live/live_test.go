package live

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/posenc/course/pkg/viz"
)

// fakeFrontEnd records what a Panel shows and feeds it messages.
type fakeFrontEnd struct {
	mu        sync.Mutex
	isLive    bool
	why       string
	listenErr error
	first     string // the page's first message; "" for the defaults, nothing queued
	messages  chan string
	controls  []string // every showControls
	figures   int
	readouts  []string
	closed    bool
}

func (f *fakeFrontEnd) live() (bool, string) { return f.isLive, f.why }
func (f *fakeFrontEnd) showControls(h string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.controls = append(f.controls, h)
}
func (f *fakeFrontEnd) showFigure([]byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.figures++
}
func (f *fakeFrontEnd) showSVG([]byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.figures++
}
func (f *fakeFrontEnd) showReadout(text string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.readouts = append(f.readouts, text)
}
func (f *fakeFrontEnd) addFonts(string) {}
func (f *fakeFrontEnd) listen(string, string) (string, <-chan string, error) {
	if f.listenErr != nil {
		return "", nil, f.listenErr
	}
	first := f.first
	if first == "" {
		first = msg(0, 2, 0, false)
	}
	return first, f.messages, nil
}
func (f *fakeFrontEnd) logf(string, ...any) {}
func (f *fakeFrontEnd) close()              { f.closed = true }

func (f *fakeFrontEnd) lastReadout() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.readouts[len(f.readouts)-1]
}

// panel returns a panel with a slider over 1, 2, 4, 8 (default 4) and a
// select of "a", "b", and a draw that records the settings it drew.
func panel() (*Panel, *[]string, func() (View, error)) {
	p := New()
	s := p.Slider("factor s", []float64{1, 2, 4, 8}, 2, "%g")
	m := p.Select("method", []string{"a", "b"}, 0)
	var drawn []string
	draw := func() (View, error) {
		setting := fmt.Sprintf("%s s=%g", m.Value(), s.Value())
		drawn = append(drawn, setting)
		if s.Value() == 8 && m.Value() == "b" {
			return View{}, errors.New("b cannot take 8")
		}
		return View{Figure: viz.Lines("t", "x", "y", viz.Series{X: []float64{0, 1}, Y: []float64{0, s.Value()}}), Readout: "readout " + setting}, nil
	}
	return p, &drawn, draw
}

// runLive runs p on fe in the background; the channel closes when it ends.
func runLive(p *Panel, draw func() (View, error), fe *fakeFrontEnd) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		p.run(draw, fe)
		close(done)
	}()
	return done
}

func msg(seq int, s, m int, done bool) string {
	return fmt.Sprintf(`{"seq":%d,"values":[%d,%d],"done":%t}`, seq, s, m, done)
}

func TestHeadlessShowsTheDefaultOnly(t *testing.T) {
	for _, c := range []struct{ why, note string }{
		{"", "Run this cell in JupyterLab to explore it with controls for factor s and method."},
		{"COURSE_LIVE=0 turns them off", "No controls for factor s and method here: COURSE_LIVE=0 turns them off."},
	} {
		p, drawn, draw := panel()
		fe := &fakeFrontEnd{why: c.why}
		p.run(draw, fe)
		if len(*drawn) != 1 || (*drawn)[0] != "a s=4" {
			t.Errorf("drew %q, want the default once", *drawn)
		}
		if fe.figures != 1 || len(fe.controls) != 0 || !fe.closed {
			t.Errorf("figures %d, controls %q, closed %v: want one figure, no controls, closed", fe.figures, fe.controls, fe.closed)
		}
		if want := "factor s = 4, method = a\nreadout a s=4\n" + c.note; fe.lastReadout() != want {
			t.Errorf("readout %q, want %q", fe.lastReadout(), want)
		}
	}
}

func TestNoPageFallsBackToTheDefault(t *testing.T) {
	p, drawn, draw := panel()
	fe := &fakeFrontEnd{isLive: true, listenErr: errors.New("no JupyterLab page answered within 5 s")}
	p.run(draw, fe)
	if len(*drawn) != 1 {
		t.Errorf("drew %q, want the default once", *drawn)
	}
	if got := fe.controls[len(fe.controls)-1]; got != "" {
		t.Errorf("controls left showing %q", got)
	}
	if want := "No controls for factor s and method here: no JupyterLab page answered within 5 s."; !strings.HasSuffix(fe.lastReadout(), want) {
		t.Errorf("readout %q, want it to end %q", fe.lastReadout(), want)
	}
}

func TestLiveRedrawsTheNewestStateUntilDone(t *testing.T) {
	p, drawn, draw := panel()
	fe := &fakeFrontEnd{isLive: true, messages: make(chan string)}
	done := runLive(p, draw, fe)
	fe.messages <- msg(1, 3, 0, false) // s = 8
	fe.messages <- msg(3, 0, 1, false) // b, s = 1
	fe.messages <- msg(2, 1, 0, false) // older than 3: dropped
	fe.messages <- "not json"          // ignored
	fe.messages <- msg(4, 0, 1, true)  // Done, same setting
	<-done
	last := (*drawn)[len(*drawn)-1]
	if last != "b s=1" {
		t.Errorf("last drawn %q, want %q (the newest state); all: %q", last, "b s=1", *drawn)
	}
	for i, d := range *drawn {
		if d == "a s=2" {
			t.Errorf("drew the stale state (seq 2) at %d: %q", i, *drawn)
		}
	}
	if got := fe.controls[len(fe.controls)-1]; got != "" {
		t.Errorf("controls left showing %q", got)
	}
	if want := "factor s = 1, method = b\nreadout b s=1\nControls closed (Done pressed): run the cell again to explore."; fe.lastReadout() != want {
		t.Errorf("final readout %q, want %q", fe.lastReadout(), want)
	}
}

// Run All: the page's first message says that other cells are queued, so
// the cell ends at once with its default figure and readout, no controls.
func TestQueuedCellsEndThePanelAtOnce(t *testing.T) {
	p, drawn, draw := panel()
	fe := &fakeFrontEnd{isLive: true, first: `{"seq":0,"values":[2,0],"done":false,"queued":true}`, messages: make(chan string)}
	start := time.Now()
	p.run(draw, fe)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %s", took)
	}
	if len(*drawn) != 1 || fe.figures != 1 {
		t.Errorf("drew %q (%d figures), want the default once", *drawn, fe.figures)
	}
	if got := fe.controls[len(fe.controls)-1]; got != "" || !fe.closed {
		t.Errorf("controls left showing %q (closed %v)", got, fe.closed)
	}
	want := "factor s = 4, method = a\nreadout a s=4\nControls closed (another cell is queued to run): run this cell on its own (Shift+Enter) to explore it."
	if fe.lastReadout() != want {
		t.Errorf("readout %q, want %q", fe.lastReadout(), want)
	}
}

// A learner explores, then runs another cell: the page says so, and the
// cell ends, keeping the figure of the last setting.
func TestRunningAnotherCellClosesTheControls(t *testing.T) {
	p, _, draw := panel()
	fe := &fakeFrontEnd{isLive: true, messages: make(chan string)}
	done := runLive(p, draw, fe)
	fe.messages <- msg(1, 3, 0, false) // s = 8
	fe.messages <- `{"seq":2,"values":[3,0],"done":true,"queued":true}`
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the panel still listens after another cell was queued")
	}
	want := "factor s = 8, method = a\nreadout a s=8\nControls closed (another cell is queued to run): run this cell on its own (Shift+Enter) to explore it."
	if fe.lastReadout() != want {
		t.Errorf("readout %q, want %q", fe.lastReadout(), want)
	}
}

func TestLiveShowsADrawErrorAndGoesOn(t *testing.T) {
	p, _, draw := panel()
	fe := &fakeFrontEnd{isLive: true, messages: make(chan string)}
	done := runLive(p, draw, fe)
	fe.messages <- msg(1, 3, 1, false) // b, s = 8: draw fails
	waitFor(t, func() bool {
		return strings.HasPrefix(fe.lastReadout(), "factor s = 8, method = b\nerror: b cannot take 8 (the figure shows the last setting that worked)\nLive: ")
	})
	fe.messages <- msg(2, 3, 0, false) // a, s = 8: fine again
	waitFor(t, func() bool {
		return strings.HasPrefix(fe.lastReadout(), "factor s = 8, method = a\nreadout a s=8\nLive: ")
	})
	fe.messages <- msg(3, 3, 1, true) // b, s = 8 again, and Done
	<-done
	if want := "factor s = 8, method = a\nreadout a s=8\nControls closed (Done pressed)"; !strings.HasPrefix(fe.lastReadout(), want) {
		t.Errorf("final readout %q, want it to start %q", fe.lastReadout(), want)
	}
}

func TestLiveStopsByItself(t *testing.T) {
	for _, c := range []struct {
		idle, limit time.Duration
		why         string
	}{
		{50 * time.Millisecond, time.Hour, "Controls closed (after 0.05 s without a change)"},
		{time.Hour, 80 * time.Millisecond, "Controls closed (after 0.08 s)"},
	} {
		p, _, draw := panel()
		p.Idle, p.Limit = c.idle, c.limit
		fe := &fakeFrontEnd{isLive: true, messages: make(chan string)}
		start := time.Now()
		p.run(draw, fe)
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("took %s to stop", took)
		}
		if !strings.Contains(fe.lastReadout(), c.why) {
			t.Errorf("final readout %q, want it to say %q", fe.lastReadout(), c.why)
		}
	}
}

func TestParseStateRejectsBadMessages(t *testing.T) {
	counts := []int{4, 2}
	for _, c := range []struct{ msg, err string }{
		{`{"seq":1,"values":[3,1],"done":false}`, ""},
		{`{"seq":1,"values":[3,1],"done":true,"queued":true}`, ""},
		{`{"seq":-1,"values":[3,1]}`, "sequence number -1 is negative"},
		{`{"seq":1,"values":[3]}`, "1 values for 2 controls"},
		{`{"seq":1,"values":[4,0]}`, "control 0: index 4 is outside [0, 4)"},
		{`{"seq":1,"values":[0,-1]}`, "control 1: index -1 is outside [0, 2)"},
		{`[1,2]`, "not a panel state"},
	} {
		_, err := parseState(c.msg, counts)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.msg, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: got error %v, want %q", c.msg, err, c.err)
		}
	}
}

func TestBadPanelsPanic(t *testing.T) {
	for name, f := range map[string]func(){
		"slider without values":   func() { New().Slider("s", nil, 0, "%g") },
		"slider default too big":  func() { New().Slider("s", []float64{1}, 1, "%g") },
		"select default negative": func() { New().Select("m", []string{"a"}, -1) },
		"default draw fails": func() {
			New().run(func() (View, error) { return View{}, errors.New("bad") }, &fakeFrontEnd{})
		},
		"default draw without figure": func() {
			New().run(func() (View, error) { return View{Readout: "x"}, nil }, &fakeFrontEnd{})
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

func TestControlsHTML(t *testing.T) {
	p := New()
	p.Slider("base <b>", []float64{100, 10000}, 1, "%g")
	p.Select("method", []string{"none", "Llama 3"}, 1)
	h := p.controlsHTML()
	for _, want := range []string{
		`base &lt;b&gt; <input type="range" data-course-control="0" min="0" max="1" step="1" value="1" data-course-text="[&#34;100&#34;,&#34;10000&#34;]"`,
		`<output data-course-output="0" style="min-width:4.5em;font-family:var(--jp-code-font-family,monospace)">10000</output>`,
		`<select data-course-control="1"><option value="0">none</option><option value="1" selected>Llama 3</option></select>`,
		`<button type="button" data-course-done="1">Done</button>`,
	} {
		if !strings.Contains(h, want) {
			t.Errorf("controls HTML lacks %q:\n%s", want, h)
		}
	}
}

func TestValues(t *testing.T) {
	if got := Values(1, 2, 0.25); fmt.Sprint(got) != "[1 1.25 1.5 1.75 2]" {
		t.Errorf("Values(1, 2, 0.25) = %v", got)
	}
	if got := Values(0, 0.3, 0.1); len(got) != 4 {
		t.Errorf("Values(0, 0.3, 0.1) = %v: want 4 values despite rounding", got)
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatal("condition not met within 5 s")
}
