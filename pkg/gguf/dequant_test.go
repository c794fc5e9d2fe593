package gguf

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHalf(t *testing.T) {
	for _, c := range []struct {
		bits uint16
		want float32
	}{
		{0x0000, 0}, {0x3C00, 1}, {0xC000, -2}, {0x3555, 0.333251953125}, {0x7BFF, 65504},
		{0x0001, 0x1p-24}, {0x03FF, 1023 * 0x1p-24}, {0x8001, -0x1p-24}, {0x7C00, float32(math.Inf(1))},
	} {
		if got := half([]byte{byte(c.bits), byte(c.bits >> 8)}); got != c.want {
			t.Errorf("half(%#04x) = %g, want %g", c.bits, got, c.want)
		}
	}
	if got := half([]byte{0x01, 0x7E}); !math.IsNaN(float64(got)) {
		t.Errorf("half(0x7e01) = %g, want NaN", got)
	}
}

// TestQ4_1Block checks the nibble order and the formula d·q + m on one
// block built by hand (GGML's dequantize_row_q4_1: low nibbles are values
// 0…15, high nibbles 16…31).
func TestQ4_1Block(t *testing.T) {
	raw := []byte{0x00, 0x38, 0x00, 0xBC} // d = 0.5, m = −1
	for j := range 16 {
		raw = append(raw, byte(j)|byte(15-j)<<4)
	}
	dst := make([]float32, 32)
	if err := Dequantize(dst, raw, Q4_1); err != nil {
		t.Fatal(err)
	}
	for j := range 16 {
		if want := 0.5*float32(j) - 1; dst[j] != want {
			t.Errorf("value %d = %g, want %g", j, dst[j], want)
		}
		if want := 0.5*float32(15-j) - 1; dst[j+16] != want {
			t.Errorf("value %d = %g, want %g", j+16, dst[j+16], want)
		}
	}
}

func TestQ8_0Block(t *testing.T) {
	raw := []byte{0x00, 0x34} // d = 0.25
	for j := range 32 {
		raw = append(raw, byte(int8(j-16)))
	}
	dst := make([]float32, 32)
	if err := Dequantize(dst, raw, Q8_0); err != nil {
		t.Fatal(err)
	}
	for j, v := range dst {
		if want := 0.25 * float32(j-16); v != want {
			t.Errorf("value %d = %g, want %g", j, v, want)
		}
	}
}

func TestDequantizeBadInput(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
		raw  int
		typ  Type
		want string
	}{
		{"unknown type", 32, 18, Type(2), "ggml_type(2) is not supported"},
		{"part of a block", 16, 10, Q4_1, "not whole blocks of 32"},
		{"short data", 32, 19, Q4_1, "take 20 bytes, got 19"},
	} {
		err := Dequantize(make([]float32, c.n), make([]byte, c.raw), c.typ)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

// TestOpenSmallFile writes a GGUF file by hand: two metadata keys and one
// F32 tensor of 3 values, data aligned to 32 bytes.
func TestOpenSmallFile(t *testing.T) {
	var b []byte
	u32 := func(v uint32) { b = binary.LittleEndian.AppendUint32(b, v) }
	u64 := func(v uint64) { b = binary.LittleEndian.AppendUint64(b, v) }
	str := func(s string) { u64(uint64(len(s))); b = append(b, s...) }
	u32(magic)
	u32(3)
	u64(1) // tensors
	u64(2) // metadata keys
	str("general.architecture")
	u32(tString)
	str("llama")
	str("llama.block_count")
	u32(tUint32)
	u32(30)
	str("w")
	u32(1)
	u64(3)
	u32(uint32(F32))
	u64(0)
	for len(b)%32 != 0 {
		b = append(b, 0)
	}
	for _, v := range []float32{1.5, -2, 3} {
		u32(math.Float32bits(v))
	}
	path := filepath.Join(t.TempDir(), "small.gguf")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if a, err := f.String("general.architecture"); a != "llama" || err != nil {
		t.Errorf("architecture = %q, %v", a, err)
	}
	if n, err := f.Uint("llama.block_count"); n != 30 || err != nil {
		t.Errorf("block_count = %d, %v", n, err)
	}
	if _, err := f.Float("llama.block_count"); err == nil || !strings.Contains(err.Error(), "want a float") {
		t.Errorf("Float of an integer: %v", err)
	}
	v, _, err := f.Float32("w")
	if err != nil || len(v) != 3 || v[0] != 1.5 || v[1] != -2 || v[2] != 3 {
		t.Errorf("w = %v, %v; want [1.5 -2 3]", v, err)
	}
	if _, _, err := f.Float32("nope"); err == nil || !strings.Contains(err.Error(), `no tensor "nope"`) {
		t.Errorf("missing tensor: %v", err)
	}

	// Truncated header and wrong magic.
	short := filepath.Join(t.TempDir(), "short.gguf")
	os.WriteFile(short, b[:40], 0o644)
	if _, err := Open(short); err == nil || !strings.Contains(err.Error(), "truncated header") {
		t.Errorf("truncated: %v", err)
	}
	bad := append([]byte("GGML"), b[4:]...)
	os.WriteFile(short, bad, 0o644)
	if _, err := Open(short); err == nil || !strings.Contains(err.Error(), "not a GGUF file") {
		t.Errorf("bad magic: %v", err)
	}
}
