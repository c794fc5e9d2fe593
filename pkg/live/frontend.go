package live

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"text/template"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/comms"
	"github.com/janpfeifer/gonb/gonbui/dom"
	"github.com/janpfeifer/gonb/gonbui/protocol"
)

// frontEnd is where a Panel shows its outputs and hears its controls: GoNB
// in a notebook, standard output in a plain program, a recorder in tests.
type frontEnd interface {
	// live reports whether controls can be shown; when not, why ("" for
	// the usual reason: no JupyterLab page to show them).
	live() (ok bool, why string)
	// showControls, showFigure (a PNG), showSVG (an inline <svg>) and
	// showReadout show or replace the cell's three outputs, in place; ""
	// removes the controls.
	showControls(html string)
	showFigure(png []byte)
	showSVG(svg []byte)
	showReadout(text string)
	// listen shows the controls, gives the page the CSS fonts of the
	// figures to come, and returns the page's first message (the page is
	// there: the default state, and whether other cells are queued) and
	// the channel of the messages that follow; an error when it never
	// answers.
	listen(controls, fontCSS string) (first string, msgs <-chan string, err error)
	// addFonts gives the page more fonts (CSS @font-face rules).
	addFonts(fontCSS string)
	logf(format string, args ...any)
	// close flushes what is still on its way to the page.
	close()
}

// newFrontEnd returns GoNB's front end in a notebook, standard output
// otherwise.
func newFrontEnd() frontEnd {
	if !gonbui.IsNotebook {
		return &plainFrontEnd{}
	}
	uid := gonbui.UniqueId()
	return &gonbFrontEnd{
		controlsID: "course_live_controls_" + uid,
		figureID:   "course_live_figure_" + uid,
		readoutID:  "course_live_readout_" + uid,
		rootID:     "course-live-" + uid,
		address:    "/course/live/" + uid,
	}
}

// plainFrontEnd prints the readout and a note for the figure, as viz.Show
// does outside a notebook.
type plainFrontEnd struct{}

func (*plainFrontEnd) live() (bool, string)    { return false, "not in a notebook" }
func (*plainFrontEnd) showControls(string)     {}
func (f *plainFrontEnd) showFigure([]byte)     { fmt.Println("[figure: shown in notebooks]") }
func (*plainFrontEnd) showSVG([]byte)          {}
func (*plainFrontEnd) showReadout(text string) { fmt.Println(text) }
func (*plainFrontEnd) addFonts(string)         {}
func (*plainFrontEnd) listen(string, string) (string, <-chan string, error) {
	return "", nil, fmt.Errorf("not in a notebook")
}
func (*plainFrontEnd) logf(format string, args ...any) { log.Printf(format, args...) }
func (*plainFrontEnd) close()                          {}

// gonbFrontEnd shows a Panel in a GoNB cell: three outputs with display ids
// (the figure and readout are ordinary outputs the first time, replaced in
// place afterwards), and the controls' messages through GoNB's comms.
type gonbFrontEnd struct {
	controlsID, figureID, readoutID string // display ids
	rootID                          string // the controls' element id in the page
	address                         string // where the page sends the controls' state
	messages                        *comms.AddressChan[string]
}

// live: JupyterLab's server names the notebook in JPY_SESSION_NAME for the
// kernels it starts; nbclient (nbconvert --execute, course run) and
// Jupyter Notebook 6 do not, and have no page that could show controls, so a
// cell there never waits for one. COURSE_LIVE=0 turns the controls off.
func (g *gonbFrontEnd) live() (bool, string) {
	switch {
	case os.Getenv("COURSE_LIVE") == "0":
		return false, "COURSE_LIVE=0 turns them off"
	case gonbui.Error() != nil:
		return false, fmt.Sprintf("GoNB's connection failed (%v)", gonbui.Error())
	case os.Getenv("JPY_SESSION_NAME") == "":
		return false, ""
	}
	return true, ""
}

// display shows data in the output with display id id: a new output the
// first time, the same one replaced afterwards (Jupyter's
// update_display_data).
func display(id string, data map[protocol.MIMEType]any) {
	gonbui.SendData(&protocol.DisplayData{Data: data, DisplayID: id})
}

func (g *gonbFrontEnd) showControls(h string) {
	if h != "" {
		h = fmt.Sprintf(`<div id="%s">%s</div>`, g.rootID, h)
	}
	display(g.controlsID, map[protocol.MIMEType]any{protocol.MIMETextHTML: h})
}

func (g *gonbFrontEnd) showFigure(png []byte) {
	display(g.figureID, map[protocol.MIMEType]any{protocol.MIMEImagePNG: png})
}

func (g *gonbFrontEnd) showSVG(svg []byte) {
	display(g.figureID, map[protocol.MIMEType]any{protocol.MIMETextHTML: `<div class="course-live-figure">` + string(svg) + `</div>`})
}

// fontsJS adds a style element holding fontCSS to the page's head, once.
func fontsJS(fontCSS string) string {
	css, _ := json.Marshal(fontCSS)
	id := fmt.Sprintf("course-live-fonts-%x", sha256.Sum256([]byte(fontCSS)))[:34]
	return fmt.Sprintf(`(() => {
	if (!document.getElementById(%q)) {
		const style = document.createElement("style");
		style.id = %q;
		style.textContent = %s;
		document.head.appendChild(style);
	}
})();
`, id, id, css)
}

func (g *gonbFrontEnd) addFonts(fontCSS string) { dom.TransientJavascript(fontsJS(fontCSS)) }

func (g *gonbFrontEnd) showReadout(text string) {
	display(g.readoutID, map[protocol.MIMEType]any{protocol.MIMETextPlain: text})
}

//go:embed controls.js
var controlsJS string

var controlsTmpl = template.Must(template.New("controls.js").Parse(controlsJS))

func (g *gonbFrontEnd) listen(controls, fontCSS string) (string, <-chan string, error) {
	// Subscribing first makes GoNB install its websocket in the page (it
	// waits up to 3 s for it), so that the script below finds gonb_comm.
	g.messages = comms.Listen[string](g.address)
	if err := gonbui.Error(); err != nil {
		return "", nil, fmt.Errorf("GoNB's connection failed (%v)", err)
	}
	js := bytes.NewBufferString(fontsJS(fontCSS))
	if err := controlsTmpl.Execute(js, struct{ RootID, Address string }{g.rootID, g.address}); err != nil {
		panic(err) // the embedded template is wrong
	}
	out := make(chan string)
	go func() {
		defer close(out)
		for m := range g.messages.C {
			out <- m
		}
	}()
	// GoNB's script in the page gives the kernel 500 ms to acknowledge its
	// connection, and gives up for good when a busy machine takes longer:
	// then the controls never speak. Ask GoNB to connect the page again
	// (comms.Start) and show the controls anew, a few times.
	for attempt := 1; attempt <= handshakeTries; attempt++ {
		if attempt > 1 {
			comms.Start()
		}
		g.showControls(controls)
		dom.TransientJavascript(js.String())
		select {
		case first := <-out: // the page is there, with the defaults
			return first, out, nil
		case <-time.After(handshake):
		}
	}
	return "", nil, fmt.Errorf("no JupyterLab page answered within %s, %d times", human(handshake), handshakeTries)
}

func (*gonbFrontEnd) logf(format string, args ...any) { log.Printf(format, args...) }

func (g *gonbFrontEnd) close() {
	if g.messages != nil {
		g.messages.Close()
	}
	gonbui.Sync()
}
