package gguf

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Type is a GGML tensor type (ggml.h, enum ggml_type).
type Type uint32

// The tensor types Dequantize reads: those of SmolLM2-135M-Instruct's Q4_1
// file, each checked against gguf-py.
const (
	F32  Type = 0
	Q4_1 Type = 3
	Q8_0 Type = 8
)

// blockLayout is a type's block: how many values, in how many bytes.
var blockLayout = map[Type]struct{ values, bytes int }{
	F32:  {1, 4},
	Q4_1: {32, 2 + 2 + 16}, // d, m (f16), 32 nibbles
	Q8_0: {32, 2 + 32},     // d (f16), 32 int8
}

var typeNames = map[Type]string{F32: "F32", Q4_1: "Q4_1", Q8_0: "Q8_0"}

// String returns GGML's name of the type, as gguf-py's GGMLQuantizationType.
func (t Type) String() string {
	if n, ok := typeNames[t]; ok {
		return n
	}
	return fmt.Sprintf("ggml_type(%d)", uint32(t))
}

// bytes returns the size of n values of type t.
func (t Type) bytes(n int) (int, error) {
	b, ok := blockLayout[t]
	if !ok {
		return 0, fmt.Errorf("tensor type %s is not supported (F32, Q4_1 and Q8_0 are)", t)
	}
	if n%b.values != 0 {
		return 0, fmt.Errorf("%d values of type %s: not whole blocks of %d", n, t, b.values)
	}
	return n / b.values * b.bytes, nil
}

// Dequantize writes the float32 values of raw, data of type t, to dst,
// whose length says how many values raw holds. It computes what gguf-py's
// quants.py computes, rounding to float32 where numpy does:
//
//	Q8_0: y = d·q                (q int8, d an f16 scale)
//	Q4_1: y = d·q + m            (the product rounded, then the sum)
//
// (q the nibble, 0…15, for Q4_1.) Within a 4-bit block the low nibbles of its 16 bytes are values 0…15, the
// high nibbles 16…31.
func Dequantize(dst []float32, raw []byte, t Type) error {
	n, err := t.bytes(len(dst))
	if err != nil {
		return err
	}
	if len(raw) != n {
		return fmt.Errorf("%d values of type %s take %d bytes, got %d", len(dst), t, n, len(raw))
	}
	switch t {
	case F32:
		for i := range dst {
			dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
	case Q8_0:
		for b := 0; len(dst) > 0; b, dst = b+34, dst[32:] {
			d := half(raw[b:])
			for j, q := range raw[b+2 : b+34] {
				dst[j] = d * float32(int8(q))
			}
		}
	case Q4_1:
		for b := 0; len(dst) > 0; b, dst = b+20, dst[32:] {
			d, m := half(raw[b:]), half(raw[b+2:])
			for j, q := range raw[b+4 : b+20] {
				// float32(…) rounds the product before the sum: Go may
				// otherwise fuse d·q + m into one FMA (the spec allows it).
				dst[j] = float32(d*float32(q&0xF)) + m
				dst[j+16] = float32(d*float32(q>>4)) + m
			}
		}
	}
	return nil
}

// half converts the little-endian IEEE 754 half-precision number at b[0:2]
// to float32, exactly (every half is a float32).
func half(b []byte) float32 {
	h := uint32(binary.LittleEndian.Uint16(b))
	sign, exp, frac := h>>15, (h>>10)&0x1F, h&0x3FF
	switch {
	case exp == 0x1F: // infinity or NaN
		return math.Float32frombits(sign<<31 | 0xFF<<23 | frac<<13)
	case exp == 0 && frac == 0: // ±0
		return math.Float32frombits(sign << 31)
	case exp == 0: // subnormal: frac·2⁻²⁴
		v := float32(frac) * (1.0 / (1 << 24))
		if sign != 0 {
			v = -v
		}
		return v
	}
	return math.Float32frombits(sign<<31 | (exp+127-15)<<23 | frac<<13)
}
