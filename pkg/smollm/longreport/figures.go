package longreport

import (
	"fmt"
	"image/color"
	"math"

	"github.com/posenc/course/pkg/lab/report"
	"github.com/posenc/course/pkg/smollm/longrun"
	"github.com/posenc/course/pkg/viz"
)

// labNames are the names lesson 8 gives the same scalings of its RoPE
// model, whose styles (report.StyleOf) the figures reuse: a method keeps
// its colour from the toy lab to the real model.
var labNames = map[string]string{
	"none": "rope", "pi": "rope+pi", "ntk": "rope+ntk", "dynamic": "rope+dynamic",
	"yarn": "rope+yarn", "yarn-no-temp": "rope+yarn-notemp",
}

// Labels are the methods' names as the lesson writes them.
var Labels = map[string]string{
	"none": "no scaling", "pi": "PI", "ntk": "NTK-aware", "dynamic": "dynamic NTK",
	"yarn": "YaRN", "yarn-no-temp": "YaRN, no temperature",
}

// Label returns method's name as the lesson writes it.
func Label(method string) string {
	if l, ok := Labels[method]; ok {
		return l
	}
	return method
}

// Series returns an empty series named and styled for method: its label,
// and the colour, marker and dash lesson 8 gives the same scaling.
func Series(method string) viz.Series { return styled(viz.Series{Name: Label(method)}, method) }

func styled(s viz.Series, method string) viz.Series {
	st := report.StyleOf(labNames[method])
	s.Color, s.Marker, s.Dashed = st.Color, st.Marker, st.Dashed
	return s
}

// trainedLength marks the trained context in a figure: a grey dashed line.
func trainedLength(x, lo, hi float64) viz.Series {
	return viz.Series{Name: "trained length", X: []float64{x, x}, Y: []float64{lo, hi}, Dashed: true,
		Color: color.RGBA{R: 0x88, G: 0x88, B: 0x88, A: 0xff}}
}

// NLLByPosition draws each method's NLL against the position, averaged
// over bins of bin positions: the mean over the texts, with a bar from the
// lowest text's bin mean to the highest, and the trained length marked.
func (r *Report) NLLByPosition(bin int, methods ...string) (*viz.Figure, error) {
	if bin < 1 {
		return nil, fmt.Errorf("longreport: bin %d, want at least 1 position", bin)
	}
	var series []viz.Series
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, m := range methods {
		s := Series(m)
		for from := 0; from+bin <= r.Config.Window; from += bin {
			sp, err := r.RangeNLL(m, from, from+bin)
			if err != nil {
				return nil, err
			}
			s.X, s.Y = append(s.X, float64(from)+float64(bin)/2), append(s.Y, sp.Mean)
			s.Lo, s.Hi = append(s.Lo, sp.Min), append(s.Hi, sp.Max)
			lo, hi = math.Min(lo, sp.Min), math.Max(hi, sp.Max)
		}
		s.Marker = 0 // a marker at every bin would hide the bars
		series = append(series, s)
	}
	series = append(series, trainedLength(float64(r.Config.OriginalLen), lo, hi))
	title := fmt.Sprintf("SmolLM2-135M, factor %g: NLL by position (bins of %d; bars: the %d texts' range)", r.Config.Factor, bin, len(r.Config.Texts))
	return viz.Lines(title, "position", "NLL (nats/token)", series...), nil
}

// PasskeyByLength draws each method's passkey pass rate (Passkey: every
// answer token right) against the prompt length, over every depth, with
// its 95% Wilson interval; lengths a method did not run are left out.
func (r *Report) PasskeyByLength(methods ...string) (*viz.Figure, error) {
	series, err := r.passkeySeries(exact, methods)
	if err != nil {
		return nil, err
	}
	return viz.Lines("SmolLM2 passkey: every answer token right (95% Wilson)",
		"prompt length (tokens)", "pass rate", series...), nil
}

// PasskeyDigitsByLength is PasskeyByLength scored by PasskeyDigits: the
// key's digits right, whatever the answer's first token.
func (r *Report) PasskeyDigitsByLength(tok longrun.Tokenizer, methods ...string) (*viz.Figure, error) {
	series, err := r.passkeySeries(digits(tok), methods)
	if err != nil {
		return nil, err
	}
	return viz.Lines("SmolLM2 passkey: the key's digits right (95% Wilson)",
		"prompt length (tokens)", "pass rate", series...), nil
}

// passkeySeries returns each method's rate against the prompt length, each
// trial scored by pass, and the trained length's marker. A length a method
// did not run is left out; a trial pass cannot score is an error.
func (r *Report) passkeySeries(pass scoring, methods []string) ([]viz.Series, error) {
	var series []viz.Series
	for _, m := range methods {
		s := Series(m)
		for _, n := range r.Config.PasskeyLengths {
			if len(r.trialsAt(m, n, nil)) == 0 {
				continue
			}
			p, err := r.passkeyRate(m, n, nil, pass)
			if err != nil {
				return nil, err
			}
			s.X, s.Y = append(s.X, float64(n)), append(s.Y, p.Rate())
			s.Lo, s.Hi = append(s.Lo, p.Lo), append(s.Hi, p.Hi)
		}
		if len(s.X) == 0 {
			return nil, fmt.Errorf("longreport: no passkey trials of %s", m)
		}
		series = append(series, s)
	}
	return append(series, trainedLength(float64(r.Config.OriginalLen), 0, 1)), nil
}
