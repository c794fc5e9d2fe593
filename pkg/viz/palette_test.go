package viz

import (
	"errors"
	"image/color"
	"math"
	"testing"

	"gonum.org/v1/plot/palette"
)

// lightness returns CIE L* of an sRGB colour (D65), from 0 (black) to 100.
func lightness(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		x := float64(v) / 0xffff
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	y := 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
	if y > 216.0/24389 {
		return 116*math.Cbrt(y) - 16
	}
	return y * 24389 / 27
}

func TestViridisEndsAndLightness(t *testing.T) {
	cm := Viridis()
	cm.SetMin(-3)
	cm.SetMax(5)
	lo, err := cm.At(-3)
	if err != nil || lo != color.Color(viridisStops[0]) {
		t.Errorf("At(min) = %v, %v; want %v", lo, err, viridisStops[0])
	}
	hi, err := cm.At(5)
	if err != nil || hi != color.Color(viridisStops[len(viridisStops)-1]) {
		t.Errorf("At(max) = %v, %v; want %v", hi, err, viridisStops[len(viridisStops)-1])
	}
	// Perceptually ordered: lightness rises all the way, from about 15 to 92.
	prev := -1.0
	for i, c := range cm.Palette(64).Colors() {
		l := lightness(c)
		if l <= prev {
			t.Fatalf("lightness falls at colour %d: %.2f after %.2f", i, l, prev)
		}
		prev = l
	}
	if l0, l1 := lightness(lo), lightness(hi); l0 > 20 || l1 < 85 {
		t.Errorf("lightness runs from %.1f to %.1f; want from under 20 to over 85", l0, l1)
	}
}

func TestViridisOutOfRange(t *testing.T) {
	cm := Viridis()
	for _, tc := range []struct {
		x    float64
		want error
	}{{-0.1, palette.ErrUnderflow}, {1.1, palette.ErrOverflow}, {math.NaN(), palette.ErrNaN}} {
		if _, err := cm.At(tc.x); !errors.Is(err, tc.want) {
			t.Errorf("At(%g) error = %v; want %v", tc.x, err, tc.want)
		}
	}
	cm.SetAlpha(0.5)
	c, _ := cm.At(0.5)
	if _, _, _, a := c.RGBA(); a < 0x7f00 || a > 0x8100 {
		t.Errorf("alpha 0.5 gives alpha %#x; want about 0x8000", a)
	}
}
