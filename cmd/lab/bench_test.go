package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/posenc/course/pkg/lab"
)

// Both sides of the bench train the lab's model: PyTorch gets
// DefaultConfig's sizes, L and batch, as the Go side does.
func TestBenchSizes(t *testing.T) {
	sizes := benchSizes()
	c := lab.DefaultConfig()
	if len(sizes) != 2 || sizes[0].config != "default" || sizes[1].config != "d32" {
		t.Fatalf("bench sizes %+v; want default and d32", sizes)
	}
	if got, want := sizes[0].name, fmt.Sprintf("%d layers, d_model %d (the lab's)", c.Layers, c.Dim); got != want {
		t.Errorf("the default's name %q; want %q", got, want)
	}
	if !reflect.DeepEqual(sizes[0].c, c) {
		t.Errorf("the default's config %+v; want DefaultConfig()", sizes[0].c)
	}
	if d := sizes[1].c; d.Dim != 32 || d.Layers != c.Layers || d.Heads != c.Heads || d.TrainLen != c.TrainLen || d.Batch != c.Batch {
		t.Errorf("d32: %d layers, dim %d, %d heads, L %d, batch %d; want the default's with dim 32", d.Layers, d.Dim, d.Heads, d.TrainLen, d.Batch)
	}
	want := []string{"scripts/lab_torch.py", "--layers", fmt.Sprint(c.Layers), "--dim", fmt.Sprint(c.Dim), "--heads", fmt.Sprint(c.Heads),
		"--seq", fmt.Sprint(c.TrainLen), "--batch", fmt.Sprint(c.Batch), "--steps", "60"}
	if got := torchArgs(sizes[0].c, 60); !slices.Equal(got, want) {
		t.Errorf("torchArgs(default) = %q; want %q", got, want)
	}
	if _, err := os.Stat(filepath.Join("..", "..", want[0])); err != nil {
		t.Errorf("PyTorch's side: %v", err)
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		v    []float64
		want float64
	}{{[]float64{3}, 3}, {[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}} {
		v := slices.Clone(c.v)
		if got := median(v); got != c.want || !slices.Equal(v, c.v) {
			t.Errorf("median(%v) = %g, leaving %v; want %g, its argument as it was", c.v, got, v, c.want)
		}
	}
}
