package report

import (
	"fmt"
	"image/color"
	"math"
	"testing"

	"github.com/posenc/course/pkg/lab"
)

// TestStyles checks that every run the lab makes has a style of its own
// (no two alike in colour, marker and dash), the same in every figure, and
// that the pairs drawn side by side which were hard to tell apart now
// differ in colour by more than a threshold.
func TestStyles(t *testing.T) {
	var names []string
	for _, c := range []lab.Config{lab.DefaultConfig(), lab.LayersConfig()} {
		for _, e := range c.Encodings {
			names = append(names, string(e))
		}
		for _, v := range c.Variants {
			names = append(names, v.Name)
		}
	}
	for _, m := range lab.Methods {
		names = append(names, "rope+"+m)
	}
	names = append(names, "rope+pi-finetune", "rope-finetune")
	seen := map[string]string{}
	for _, n := range names {
		st, ok := Styles[n]
		if !ok {
			t.Errorf("%s has no entry in Styles", n)
			continue
		}
		key := fmt.Sprint(st)
		if other, ok := seen[key]; ok && other != n {
			t.Errorf("%s and %s share the style %v", n, other, st)
		}
		seen[key] = n
		if st.Marker < 1 || st.Marker > 8 {
			t.Errorf("%s: marker %d; want one of the 8 glyphs", n, st.Marker)
		}
		if StyleOf(n) != st {
			t.Errorf("StyleOf(%s) = %v; want its entry %v", n, StyleOf(n), st)
		}
	}
	// Pairs the review found alike: sinusoidal and ALiBi, RoPE+PI and
	// RoPE+NTK-eff; and RoPE against each scaling in the scaling figure.
	for _, p := range [][2]string{{"sinusoidal", "alibi"}, {"rope+pi", "rope+ntk-eff"}, {"sinusoidal", "t5"}, {"sinusoidal", "rope-hd8"}, {"rope", "rope-hd8"}, {"rope-finetune", "rope+pi-finetune"},
		{"rope", "rope+pi"}, {"rope", "rope+ntk"}, {"rope", "rope+yarn"}, {"rope+yarn", "rope+yarn-notemp"}} {
		if d := colourDistance(Styles[p[0]].Color, Styles[p[1]].Color); d < 100 {
			t.Errorf("%s and %s: colours %.0f apart (RGB); want 100 or more", p[0], p[1], d)
		}
	}
	// Identical numbers stay visible: one dashed over the other.
	if a, b := Styles["rope+dynamic"], Styles["rope+ntk-eff"]; a.Dashed == b.Dashed || a.Marker == b.Marker {
		t.Errorf("rope+dynamic %v and rope+ntk-eff %v: want one dashed, other markers", a, b)
	}
	// A name the map lacks still gets a style: its encoding's colour.
	if st := StyleOf("alibi-new"); st.Color != Styles["alibi"].Color || !st.Dashed {
		t.Errorf("StyleOf(alibi-new) = %v; want alibi's colour, dashed", st)
	}
	if bigramStyle.Color == nil || !bigramStyle.Dashed {
		t.Error("the bigram line has no fixed style")
	}
}

// colourDistance is the Euclidean distance of two colours in RGB (0–255).
func colourDistance(a, b color.Color) float64 {
	ar, ag, ab, _ := a.RGBA()
	br, bg, bb, _ := b.RGBA()
	d := func(x, y uint32) float64 { v := float64(x>>8) - float64(y>>8); return v * v }
	return math.Sqrt(d(ar, br) + d(ag, bg) + d(ab, bb))
}
