package viz

import (
	"strings"
	"testing"
)

func TestDecadeTicks(t *testing.T) {
	for _, c := range []struct {
		name     string
		min, max float64
		want     []string // labels, in order
	}{
		{"four decades", 0.47, 16384, []string{"1", "10", "100", "1000", "10000"}},
		{"exact ends", 1, 1000, []string{"1", "10", "100", "1000"}},
		// 31 decades: every 4th is labelled, and 1e-11 reads as such.
		{"thirty decades", 1e-29, 0.1, []string{"1e-29", "1e-25", "1e-21", "1e-17", "1e-13", "1e-09", "1e-05", "0.1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, tk := range (decadeTicks{}).Ticks(c.min, c.max) {
				if tk.Value < c.min || tk.Value > c.max {
					t.Errorf("tick %g outside [%g, %g]", tk.Value, c.min, c.max)
				}
				if tk.Label != "" {
					got = append(got, tk.Label)
				}
			}
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("labels = %q; want %q", got, c.want)
			}
		})
	}
}

func TestDecadeTicksFallBackWithinOneDecade(t *testing.T) {
	ticks := (decadeTicks{}).Ticks(2, 8)
	labelled := 0
	for _, tk := range ticks {
		if tk.Label != "" {
			labelled++
		}
	}
	if labelled < 2 {
		t.Errorf("Ticks(2, 8) has %d labels; want the default ticker's (at least 2)", labelled)
	}
}
