package gguf_test

import (
	"encoding/json"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/posenc/course/internal/modeltest"
	"github.com/posenc/course/pkg/gguf"
	"github.com/posenc/course/pkg/smollm"
)

// golden is testdata/smollm2_dequant.json, written by
// scripts/model/golden_dequant.py with the GGML project's gguf-py.
type golden struct {
	Source   string         `json:"source"`
	Metadata map[string]any `json:"metadata"`
	Tensors  []struct {
		Name  string `json:"name"`
		Type  string `json:"type"`
		Shape []int  `json:"shape"`
	} `json:"tensors"`
	Slices []struct {
		Tensor string   `json:"tensor"`
		Type   string   `json:"type"`
		Row    int      `json:"row"`
		Col    int      `json:"col"`
		Bits   []uint32 `json:"bits"`
	} `json:"slices"`
}

func readGolden(t *testing.T) golden {
	t.Helper()
	b, err := os.ReadFile("testdata/smollm2_dequant.json")
	if err != nil {
		t.Fatal(err)
	}
	var g golden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestSmolLM2MatchesGGUFPy reads the real file and compares its directory,
// metadata and dequantized slices of every tensor type it holds (F32, Q8_0,
// Q4_1) with gguf-py's, bit for bit.
func TestSmolLM2MatchesGGUFPy(t *testing.T) {
	g := readGolden(t)
	path, err := smollm.Find()
	modeltest.Require(t, err)
	f, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()

	if len(f.Tensors) != len(g.Tensors) {
		t.Fatalf("%d tensors, gguf-py lists %d", len(f.Tensors), len(g.Tensors))
	}
	for i, want := range g.Tensors {
		got := f.Tensors[i]
		if got.Name != want.Name || got.Type.String() != want.Type || !slices.Equal(got.Shape(), want.Shape) {
			t.Errorf("tensor %d: %s %s %v, gguf-py: %s %s %v", i, got.Name, got.Type, got.Shape(), want.Name, want.Type, want.Shape)
		}
	}
	for key, want := range g.Metadata {
		var got any
		switch want.(type) {
		case string:
			got, err = f.String(key)
		case float64:
			var u uint64
			if u, err = f.Uint(key); err == nil {
				got = float64(u)
			} else {
				got, err = f.Float(key)
			}
		}
		if err != nil || got != want {
			t.Errorf("metadata %s = %v (%v), gguf-py: %v", key, got, err, want)
		}
	}

	types := map[string]bool{}
	for _, s := range g.Slices {
		values, info, err := f.Float32(s.Tensor)
		if err != nil {
			t.Fatal(err)
		}
		types[s.Type] = true
		cols := info.Shape()[len(info.Shape())-1]
		row := values[s.Row*cols+s.Col : s.Row*cols+s.Col+len(s.Bits)]
		for j, want := range s.Bits {
			if got := math.Float32bits(row[j]); got != want {
				t.Errorf("%s[%d, %d] = %g (%#08x), gguf-py: %g (%#08x)", s.Tensor, s.Row, s.Col+j,
					row[j], got, math.Float32frombits(want), want)
				break
			}
		}
	}
	for _, typ := range []string{"F32", "Q8_0", "Q4_1"} {
		if !types[typ] {
			t.Errorf("the golden has no slice of type %s", typ)
		}
	}
}
