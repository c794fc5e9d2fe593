package viz

import (
	"strings"
	"sync"

	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
)

// subscriptOf maps characters to their Unicode subscript forms.
var subscriptOf = map[rune]rune{
	'0': '₀', '1': '₁', '2': '₂', '3': '₃', '4': '₄', '5': '₅', '6': '₆', '7': '₇', '8': '₈', '9': '₉',
	'+': '₊', '-': '₋', '−': '₋', '=': '₌', '(': '₍', ')': '₎',
	'a': 'ₐ', 'e': 'ₑ', 'h': 'ₕ', 'i': 'ᵢ', 'j': 'ⱼ', 'k': 'ₖ', 'l': 'ₗ', 'm': 'ₘ', 'n': 'ₙ', 'o': 'ₒ',
	'p': 'ₚ', 'r': 'ᵣ', 's': 'ₛ', 't': 'ₜ', 'u': 'ᵤ', 'v': 'ᵥ', 'x': 'ₓ',
	'β': 'ᵦ', 'γ': 'ᵧ', 'ρ': 'ᵨ', 'φ': 'ᵩ', 'χ': 'ᵪ',
}

var (
	fontGlyphsOnce sync.Once
	fontGlyphs     map[rune]bool // which subscripts the plots' font draws
)

// hasGlyph reports whether the default plot font has a glyph for r.
func hasGlyph(r rune) bool {
	fontGlyphsOnce.Do(func() {
		fontGlyphs = map[rune]bool{}
		face := font.DefaultCache.Lookup(plot.DefaultFont, 12)
		if face.Face == nil {
			return
		}
		var buf sfnt.Buffer
		for _, sub := range subscriptOf {
			if i, err := face.Face.GlyphIndex(&buf, sub); err == nil && i != 0 {
				fontGlyphs[sub] = true
			}
		}
	})
	return fontGlyphs[r]
}

// Subscripts returns s with "_c" and "_{…}" written as Unicode subscripts
// ("ω_i" → "ωᵢ", "x_{12}" → "x₁₂") where the plots' font has a glyph for
// every character of the subscript; other subscripts are left as written
// ("R_m": the font has no subscript m).
func Subscripts(s string) string {
	if !strings.Contains(s, "_") {
		return s
	}
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		if rs[i] != '_' || i+1 >= len(rs) || i == 0 {
			b.WriteRune(rs[i])
			continue
		}
		body, end := rs[i+1:i+2], i+2 // "_c"
		if rs[i+1] == '{' {
			j := i + 2
			for j < len(rs) && rs[j] != '}' {
				j++
			}
			if j == len(rs) || j == i+2 {
				b.WriteRune(rs[i])
				continue
			}
			body, end = rs[i+2:j], j+1
		}
		sub, ok := make([]rune, len(body)), true
		for k, r := range body {
			sub[k] = subscriptOf[r]
			ok = ok && hasGlyph(sub[k])
		}
		if !ok {
			b.WriteRune(rs[i])
			continue
		}
		b.WriteString(string(sub))
		i = end - 1
	}
	return b.String()
}
