package viz

import "testing"

func TestSubscripts(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"ω_i (radians per token)", "ωᵢ (radians per token)"},
		{"x_{12} and θ_0", "x₁₂ and θ₀"},
		{"R_m q", "R_m q"},   // the plot font has no subscript m
		{"x_{1m}", "x_{1m}"}, // all or nothing
		{"_i", "_i"},         // nothing to attach it to
		{"a_", "a_"},         // nothing after it
		{"x_{}", "x_{}"},     // empty
		{"x_{12", "x_{12"},   // unclosed
		{"plain", "plain"},
	} {
		if got := Subscripts(tc.in); got != tc.want {
			t.Errorf("Subscripts(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

func TestSubscriptGlyphsExistInThePlotFont(t *testing.T) {
	// Liberation Serif has the digits and i; if a font update loses them,
	// labels fall back to "_i" rather than drawing empty boxes.
	for _, r := range "₀₉ᵢ" {
		if !hasGlyph(r) {
			t.Errorf("the plot font has no %q", r)
		}
	}
}
