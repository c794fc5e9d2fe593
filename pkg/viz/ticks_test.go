package viz

import (
	"reflect"
	"testing"
)

func TestPlainTicksLabelIntegersAsIntegers(t *testing.T) {
	for _, c := range []struct {
		min, max float64
		want     []string
	}{
		{0, 29, []string{"0", "25"}},      // gonum: "0.00", "25.00"
		{-0.5, 29.5, []string{"0", "25"}}, // a heatmap's rows
		{0, 31, []string{"0", "10", "20", "30"}},
		{0, 1, []string{"0.0", "0.5", "1.0"}}, // not all integers: gonum's labels
		{0, 8192, []string{"0", "4000", "8000"}},
	} {
		var got []string
		for _, tk := range (plainTicks{}).Ticks(c.min, c.max) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Ticks(%g, %g) labels %q, want %q", c.min, c.max, got, c.want)
		}
	}
}
