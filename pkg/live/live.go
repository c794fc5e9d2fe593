// Package live gives a notebook cell sliders and selects that redraw its
// figure: the learner moves a control and watches a claim of the lesson hold
// or break.
//
// Controls are an addition, never a dependency. A Panel first shows the
// figure and readout of its default settings as ordinary outputs, so the
// committed notebook, a code host's preview, the static site, Jupyter
// Notebook 6 and headless execution (nbconvert, `course run`) all show them
// and none waits for anything. Only when the cell runs in JupyterLab, with a
// browser attached, does the Panel add its controls under them and redraw in
// place at every change, until the learner presses Done, runs another cell,
// or leaves the controls unused for Idle, or Limit has passed: a GoNB cell
// keeps the kernel busy while it listens, so it must stop by itself, and it
// says so.
//
// Run All never waits on a learner. The page tells the cell, in its first
// message and whenever it changes, whether another cell of the notebook is
// queued to run (JupyterLab shows [*] on every cell that Run All, Run All
// Below, or a Shift+Enter further down has queued): then the controls close
// at once, leaving the default figure and readout and a line saying to run
// the cell on its own to explore it. A learner who runs the cell on its own
// gets the controls; running any other cell, or this one again, closes them.
//
// The controls talk to the cell through GoNB's comms (gonbui/comms, over the
// websocket GoNB installs in the page) with a small script of their own
// rather than gonbui/widgets, for two reasons found in GoNB's sources
// (v0.11.3; v0.11.5's gonbui is the same): a widget's Done waits for the
// front end's first message with no time limit, which would hang a headless
// run; and comms hands each incoming message to its own goroutine, so two
// quick slider moves can arrive out of order. Each message here carries a sequence number and the whole state of
// the panel, and the Panel draws the newest.
//
// A redrawn figure is an inline SVG the size of the default PNG: a few
// milliseconds to draw where a PNG's rasterizing and compression take tens,
// which is what keeps a redraw under 200 ms on two busy cores. Its text is
// set in gonum's own fonts, which the page gets once with the controls.
package live

import (
	"encoding/json"
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/posenc/course/pkg/viz"
)

// Default limits of a Panel: how long its controls may sit unused, and how
// long they may listen in all, before the cell ends by itself.
const (
	DefaultIdle  = 2 * time.Minute
	DefaultLimit = 20 * time.Minute
)

// handshake is how long a Panel waits for the page to answer once its
// controls are shown (GoNB itself gives the page 3 s to connect), and
// handshakeTries how many times it shows them before it gives up.
const (
	handshake      = 4 * time.Second
	handshakeTries = 3
)

// View is what a Panel shows for one setting of its controls: a figure and
// a readout, a few lines of plain text with the numbers the lesson cares
// about.
type View struct {
	Figure  *viz.Figure
	Readout string
}

// Panel is a cell's controls and the view they drive. Build it with New,
// add controls, then call Run once.
type Panel struct {
	controls []control
	// Idle and Limit end the cell: after Idle without a change, or Limit
	// after the controls appeared. Zero means DefaultIdle, DefaultLimit.
	Idle, Limit time.Duration
	ran         bool
}

// New returns a Panel without controls.
func New() *Panel { return &Panel{} }

// control is one slider or select.
type control interface {
	label() string
	options() []string // what each position shows: formatted values, or the choices
	index() int
	set(i int)
}

// Slider is a control over a list of numbers.
type Slider struct {
	name   string
	values []float64
	text   []string
	i      int
}

// Slider adds a slider over values (in the order given, usually
// increasing), starting at values[def], each shown with format ("%g",
// "%.0f"). It panics when values is empty or def is out of range: a
// programming error in the lesson.
func (p *Panel) Slider(label string, values []float64, def int, format string) *Slider {
	if len(values) == 0 {
		panic(fmt.Sprintf("live: slider %q has no values", label))
	}
	if def < 0 || def >= len(values) {
		panic(fmt.Sprintf("live: slider %q: default index %d is outside [0, %d)", label, def, len(values)))
	}
	s := &Slider{name: label, values: values, i: def}
	for _, v := range values {
		s.text = append(s.text, fmt.Sprintf(format, v))
	}
	p.add(s)
	return s
}

// Value returns the slider's current value.
func (s *Slider) Value() float64 { return s.values[s.i] }

// Int returns the slider's current value rounded to an integer.
func (s *Slider) Int() int { return int(math.Round(s.values[s.i])) }

func (s *Slider) label() string     { return s.name }
func (s *Slider) options() []string { return s.text }
func (s *Slider) index() int        { return s.i }
func (s *Slider) set(i int)         { s.i = i }

// Select is a control choosing one of several names.
type Select struct {
	name    string
	choices []string
	i       int
}

// Select adds a drop-down list of choices, starting at choices[def]. It
// panics when choices is empty or def is out of range.
func (p *Panel) Select(label string, choices []string, def int) *Select {
	if len(choices) == 0 {
		panic(fmt.Sprintf("live: select %q has no choices", label))
	}
	if def < 0 || def >= len(choices) {
		panic(fmt.Sprintf("live: select %q: default index %d is outside [0, %d)", label, def, len(choices)))
	}
	s := &Select{name: label, choices: choices, i: def}
	p.add(s)
	return s
}

// Value returns the chosen name.
func (s *Select) Value() string { return s.choices[s.i] }

// Index returns the position of the chosen name.
func (s *Select) Index() int { return s.i }

func (s *Select) label() string     { return s.name }
func (s *Select) options() []string { return s.choices }
func (s *Select) index() int        { return s.i }
func (s *Select) set(i int)         { s.i = i }

func (p *Panel) add(c control) {
	if p.ran {
		panic("live: a control added after Run")
	}
	p.controls = append(p.controls, c)
}

// Values returns numbers from lo to hi (both included) in steps of step:
// the values of a slider over integers or an even grid.
func Values(lo, hi, step float64) []float64 {
	var out []float64
	for i := 0; ; i++ {
		v := lo + float64(i)*step
		if v > hi+step*1e-9 {
			return out
		}
		out = append(out, v)
	}
}

// Names returns what the controls are called, "a, b and c", for the notes
// a Panel prints.
func (p *Panel) names() string {
	var n []string
	for _, c := range p.controls {
		n = append(n, c.label())
	}
	switch len(n) {
	case 0:
		return "the controls"
	case 1:
		return n[0]
	}
	return strings.Join(n[:len(n)-1], ", ") + " and " + n[len(n)-1]
}

// Run shows draw's view for the controls' defaults, then, when the cell
// runs in JupyterLab with a page attached, the controls, redrawing in place
// at each change until the learner presses Done or a limit passes. A draw
// that fails for the defaults panics (the lesson is wrong); one that fails
// for a setting the learner chose shows the error in the readout and keeps
// the last figure.
func (p *Panel) Run(draw func() (View, error)) {
	p.run(draw, newFrontEnd())
}

// run is Run on a given front end (a test double in the tests).
func (p *Panel) run(draw func() (View, error), fe frontEnd) {
	if p.ran {
		panic("live: Run called twice on one Panel")
	}
	p.ran = true
	idle, limit := p.Idle, p.Limit
	if idle <= 0 {
		idle = DefaultIdle
	}
	if limit <= 0 {
		limit = DefaultLimit
	}
	v, err := draw()
	if err != nil {
		panic(fmt.Sprintf("live: the default view: %v", err))
	}
	if v.Figure == nil {
		panic("live: the default view has no figure")
	}
	png, err := v.Figure.PNG(0, 0)
	if err != nil {
		panic(err)
	}
	if ok, why := fe.live(); !ok {
		// Ordinary outputs only: what the committed notebook shows.
		fe.showFigure(png)
		fe.showReadout(p.readout(v.Readout, p.staticNote(why)))
		fe.close()
		return
	}

	// The controls above the figure; a placeholder until the page answers.
	fe.showControls(`<div class="course-live-wait">Connecting the controls…</div>`)
	fe.showFigure(png)
	fe.showReadout(p.readout(v.Readout, ""))
	// Redrawn figures are SVG, set in the fonts of the default one: the
	// page gets them with the controls.
	_, fonts, err := v.Figure.InlineSVG(0, 0)
	if err != nil {
		panic(err)
	}
	first, states, err := fe.listen(p.controlsHTML(), fonts)
	if err == nil {
		var s state
		if s, err = parseState(first, p.optionCounts()); err == nil && s.Queued {
			// Run All (or another queued cell) is waiting: no controls.
			fe.showControls("")
			fe.showReadout(p.readout(v.Readout, closedNote(queuedStop)))
			fe.close()
			return
		}
	}
	if err != nil {
		fe.showControls("")
		fe.showReadout(p.readout(v.Readout, p.staticNote(err.Error())))
		fe.close()
		return
	}
	fe.showReadout(p.readout(v.Readout, p.liveNote(idle, limit)))

	// A learner's changes, newest first: each message holds the whole
	// panel and a sequence number, so a late, older one is dropped.
	var (
		mu     sync.Mutex
		newest *state
		wake   = make(chan struct{}, 1)
	)
	go func() {
		for msg := range states {
			s, err := parseState(msg, p.optionCounts())
			if err != nil {
				fe.logf("live: ignoring a message from the page: %v", err)
				continue
			}
			mu.Lock()
			if newest == nil || s.Seq > newest.Seq {
				newest = &s
			}
			mu.Unlock()
			select {
			case wake <- struct{}{}:
			default:
			}
		}
	}()

	drawn := 0 // sequence number of the state on screen: the page's first message, the defaults
	idleTimer, limitTimer := time.NewTimer(idle), time.NewTimer(limit)
	defer idleTimer.Stop()
	defer limitTimer.Stop()
	stop := ""
	last := p.readout(v.Readout, "") // the readout of the figure on screen
	for stop == "" {
		select {
		case <-wake:
		case <-idleTimer.C:
			stop = fmt.Sprintf("after %s without a change", human(idle))
			continue
		case <-limitTimer.C:
			stop = fmt.Sprintf("after %s", human(limit))
			continue
		}
		mu.Lock()
		s := newest
		mu.Unlock()
		if s == nil || s.Seq <= drawn {
			continue
		}
		drawn = s.Seq
		changed := false
		for i, c := range p.controls {
			if c.index() != s.Values[i] {
				c.set(s.Values[i])
				changed = true
			}
		}
		if changed {
			if !idleTimer.Stop() {
				select {
				case <-idleTimer.C:
				default:
				}
			}
			idleTimer.Reset(idle)
			svg, css, readout, err := p.redraw(draw)
			if err == nil && css != fonts {
				fe.addFonts(css)
				fonts = css
			}
			if err != nil {
				fe.showReadout(p.readout("error: "+err.Error()+" (the figure shows the last setting that worked)", p.liveNote(idle, limit)))
			} else {
				fe.showSVG(svg)
				fe.showReadout(p.readout(readout, p.liveNote(idle, limit)))
				last = p.readout(readout, "")
			}
		}
		switch {
		case s.Queued:
			stop = queuedStop
		case s.Done:
			stop = "Done pressed"
		}
	}
	fe.showControls("")
	fe.showReadout(last + "\n" + closedNote(stop))
	fe.close()
}

// queuedStop is why the controls close when another cell waits to run.
const queuedStop = "another cell is queued to run"

// closedNote is the last line of a readout whose controls have closed:
// why, and how to get them back.
func closedNote(why string) string {
	if why == queuedStop {
		return fmt.Sprintf("Controls closed (%s): run this cell on its own (Shift+Enter) to explore it.", why)
	}
	return fmt.Sprintf("Controls closed (%s): run the cell again to explore.", why)
}

// redraw draws the view of the controls' current setting as an inline SVG
// the size of the default view's PNG (which is what the committed notebook
// shows), with the CSS of its fonts: a few milliseconds where a PNG takes
// tens, so that the figure follows the slider.
func (p *Panel) redraw(draw func() (View, error)) (svg []byte, fontCSS, readout string, err error) {
	v, err := draw()
	if err != nil {
		return nil, "", "", err
	}
	if v.Figure == nil {
		return nil, "", "", fmt.Errorf("the view has no figure")
	}
	svg, fontCSS, err = v.Figure.InlineSVG(0, 0)
	return svg, fontCSS, v.Readout, err
}

// setting describes the controls' current values, "factor s = 4, base b =
// 10000": the first line of every readout, so that what the figure shows is
// never in doubt.
func (p *Panel) setting() string {
	var parts []string
	for _, c := range p.controls {
		parts = append(parts, c.label()+" = "+c.options()[c.index()])
	}
	return strings.Join(parts, ", ")
}

// readout is what the readout output shows: the setting, the view's
// readout, and a note, each on its lines when not empty.
func (p *Panel) readout(body, note string) string {
	var lines []string
	for _, l := range []string{p.setting(), body, note} {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

func (p *Panel) optionCounts() []int {
	n := make([]int, len(p.controls))
	for i, c := range p.controls {
		n[i] = len(c.options())
	}
	return n
}

// staticNote is the line under a readout without controls: why there are
// none, or, for the usual reason (no JupyterLab page), where to get them.
func (p *Panel) staticNote(why string) string {
	if why == "" {
		return fmt.Sprintf("Run this cell in JupyterLab to explore it with controls for %s.", p.names())
	}
	return fmt.Sprintf("No controls for %s here: %s.", p.names(), why)
}

// liveNote is the line under a readout while the controls listen.
func (p *Panel) liveNote(idle, limit time.Duration) string {
	return fmt.Sprintf("Live: move the controls above. Press Done to free the kernel; running another cell also closes them, as do %s without a change, or %s in all.",
		human(idle), human(limit))
}

// human writes a duration as "2 minutes", "90 s".
func human(d time.Duration) string {
	if d >= time.Minute && d%time.Minute == 0 {
		if d == time.Minute {
			return "1 minute"
		}
		return fmt.Sprintf("%d minutes", d/time.Minute)
	}
	return strconv.FormatFloat(d.Seconds(), 'g', 3, 64) + " s"
}

// state is one message from the page: the index of every control, in the
// Panel's order, whether Done was pressed, and whether another cell is
// queued to run (or this one was run again: its controls left the page).
type state struct {
	Seq    int   `json:"seq"`
	Values []int `json:"values"`
	Done   bool  `json:"done"`
	Queued bool  `json:"queued"`
}

// parseState decodes a message and checks it against the panel's controls.
func parseState(msg string, counts []int) (state, error) {
	var s state
	if err := json.Unmarshal([]byte(msg), &s); err != nil {
		return s, fmt.Errorf("not a panel state: %w", err)
	}
	if s.Seq < 0 {
		return s, fmt.Errorf("sequence number %d is negative", s.Seq)
	}
	if len(s.Values) != len(counts) {
		return s, fmt.Errorf("%d values for %d controls", len(s.Values), len(counts))
	}
	for i, v := range s.Values {
		if v < 0 || v >= counts[i] {
			return s, fmt.Errorf("control %d: index %d is outside [0, %d)", i, v, counts[i])
		}
	}
	return s, nil
}

// controlsHTML is the panel's controls, without behaviour: script adds it.
func (p *Panel) controlsHTML() string {
	var b strings.Builder
	b.WriteString(`<div class="course-live" style="display:flex;flex-wrap:wrap;align-items:center;gap:0.4em 1.6em;margin:0.3em 0;font-family:var(--jp-ui-font-family,sans-serif);font-size:var(--jp-ui-font-size1,13px)">`)
	for i, c := range p.controls {
		opts := c.options()
		fmt.Fprintf(&b, `<label style="display:inline-flex;align-items:center;gap:0.4em">%s `, html.EscapeString(c.label()))
		switch c.(type) {
		case *Slider:
			text, _ := json.Marshal(opts)
			fmt.Fprintf(&b, `<input type="range" data-course-control="%d" min="0" max="%d" step="1" value="%d" data-course-text="%s" style="width:11em">`,
				i, len(opts)-1, c.index(), html.EscapeString(string(text)))
			fmt.Fprintf(&b, `<output data-course-output="%d" style="min-width:4.5em;font-family:var(--jp-code-font-family,monospace)">%s</output>`,
				i, html.EscapeString(opts[c.index()]))
		case *Select:
			fmt.Fprintf(&b, `<select data-course-control="%d">`, i)
			for j, o := range opts {
				sel := ""
				if j == c.index() {
					sel = " selected"
				}
				fmt.Fprintf(&b, `<option value="%d"%s>%s</option>`, j, sel, html.EscapeString(o))
			}
			b.WriteString(`</select>`)
		}
		b.WriteString(`</label>`)
	}
	b.WriteString(`<button type="button" data-course-done="1">Done</button></div>`)
	return b.String()
}
