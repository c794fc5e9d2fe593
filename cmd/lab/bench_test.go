package main

import (
	"slices"
	"testing"

	"github.com/posenc/course/pkg/lab"
)

// Both sides of the bench train the lab's model: PyTorch gets
// DefaultConfig's sizes, L and batch, as the Go side does.
func TestBenchSizes(t *testing.T) {
	sizes := benchSizes()
	c := lab.DefaultConfig()
	if len(sizes) != 2 || sizes[0].config != "default" || sizes[1].config != "d64" {
		t.Fatalf("bench sizes %+v; want default and d64", sizes)
	}
	if got, want := sizes[0].name, "2 layers, d_model 32 (the lab's)"; got != want {
		t.Errorf("the default's name %q; want %q", got, want)
	}
	if got, want := sizes[1].c.Dim, 64; got != want || sizes[1].c.Layers != c.Layers || sizes[1].c.Heads != c.Heads {
		t.Errorf("d64: %d layers, dim %d, %d heads; want the default's with dim %d", sizes[1].c.Layers, got, sizes[1].c.Heads, want)
	}
	want := []string{"scripts/lab_torch.py", "--layers", "2", "--dim", "32", "--heads", "4", "--seq", "64", "--batch", "32", "--steps", "60"}
	if got := torchArgs(sizes[0].c, 60); !slices.Equal(got, want) {
		t.Errorf("torchArgs(default) = %q; want %q", got, want)
	}
}
