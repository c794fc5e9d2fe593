package report

import (
	"image/color"
	"strings"

	"github.com/posenc/course/pkg/viz"
)

// Style is how a run is drawn in every figure: its colour, its marker
// (plotutil.Shape(Marker−1)) and whether its line is dashed. A run keeps
// its style from figure to figure, whatever else the figure shows.
type Style struct {
	Color  color.Color
	Marker int
	Dashed bool
}

// Colours that stay apart under the common forms of colour blindness: the
// Okabe–Ito palette (Okabe & Ito 2002, viz.OkabeIto) for the six
// encodings, yellow left out (faint on white), and Paul Tol's "muted"
// scheme (Tol 2021, https://personal.sron.nl/~pault/) for the RoPE
// scalings, which share one figure with RoPE and must differ from it and
// from each other.
var (
	black         = color.NRGBA{0x00, 0x00, 0x00, 0xFF}
	orange        = color.NRGBA{0xE6, 0x9F, 0x00, 0xFF}
	skyBlue       = color.NRGBA{0x56, 0xB4, 0xE9, 0xFF}
	blue          = color.NRGBA{0x00, 0x72, 0xB2, 0xFF}
	bluishGreen   = color.NRGBA{0x00, 0x9E, 0x73, 0xFF}
	reddishPurple = color.NRGBA{0xCC, 0x79, 0xA7, 0xFF}
	vermillion    = color.NRGBA{0xD5, 0x5E, 0x00, 0xFF}
	tolRose       = color.NRGBA{0xCC, 0x66, 0x77, 0xFF}
	tolIndigo     = color.NRGBA{0x33, 0x22, 0x88, 0xFF}
	tolTeal       = color.NRGBA{0x44, 0xAA, 0x99, 0xFF}
	tolOlive      = color.NRGBA{0x99, 0x99, 0x33, 0xFF}
	tolWine       = color.NRGBA{0x88, 0x22, 0x55, 0xFF}
	tolCyan       = color.NRGBA{0x88, 0xCC, 0xEE, 0xFF}
	grey          = color.NRGBA{0x77, 0x77, 0x77, 0xFF}
)

// Styles maps every run the lab makes to its style. Sinusoidal and ALiBi,
// RoPE+PI and RoPE+NTK-eff, sinusoidal and rope-hd8, drawn side by side,
// get colours far apart;
// RoPE+dynamic, whose numbers equal RoPE+NTK-eff's by construction, is
// dashed over it with another marker, so both stay visible. A control or
// variant of an encoding takes the encoding's colour with a marker and
// dash of its own.
var Styles = map[string]Style{
	"none":       {black, 1, false},
	"sinusoidal": {orange, 2, false},
	"learned":    {skyBlue, 3, false},
	"rope":       {blue, 4, false},
	"alibi":      {bluishGreen, 5, false},
	"t5":         {reddishPurple, 6, false},

	"rope-hd8":      {tolIndigo, 7, false},
	"rope-nope-3:1": {bluishGreen, 7, true},
	"p-rope":        {reddishPurple, 8, true},

	"rope+pi":          {tolRose, 1, false},
	"rope+ntk":         {tolOlive, 2, false},
	"rope+ntk-eff":     {tolTeal, 3, false},
	"rope+dynamic":     {tolIndigo, 8, true},
	"rope+yarn":        {tolWine, 5, false},
	"rope+yarn-notemp": {tolCyan, 6, true},

	"rope+pi-finetune": {tolRose, 7, false},
	"rope-finetune":    {vermillion, 8, true},

	"sinusoidal-scaled": {orange, 7, true},
	"sinusoidal-text":   {orange, 8, true},
	"sinusoidal-long":   {orange, 1, true},
	"learned-text":      {skyBlue, 8, true},
	"learned-long":      {skyBlue, 1, true},
	"rope-text":         {blue, 8, true},
	"alibi-text":        {bluishGreen, 8, true},
}

// Reference lines, one style each wherever they are drawn.
var (
	bigramStyle = Style{Color: grey, Dashed: true}
	chanceStyle = Style{Color: grey, Dashed: true}
	markStyle   = Style{Color: color.NRGBA{0xBB, 0xBB, 0xBB, 0xFF}, Dashed: true} // a marked position (L)
)

// StyleOf returns name's style: its entry in Styles; else, for a name
// that begins with an encoding's and a '-' or '+', that encoding's colour,
// dashed, with the last marker; else grey.
func StyleOf(name string) Style {
	if s, ok := Styles[name]; ok {
		return s
	}
	for _, base := range []string{"sinusoidal", "learned", "rope", "alibi", "t5", "none"} {
		if strings.HasPrefix(name, base+"-") || strings.HasPrefix(name, base+"+") {
			return Style{Color: Styles[base].Color, Marker: 9, Dashed: true}
		}
	}
	return Style{Color: grey, Marker: 9}
}

// styled returns s drawn in name's style.
func styled(s viz.Series, st Style) viz.Series {
	s.Color, s.Marker, s.Dashed = st.Color, st.Marker, st.Dashed
	return s
}
