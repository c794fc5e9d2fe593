package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posenc/modelconfigs"
)

// TestConfigJSONMatchesLibrary: for every shipped config, -json gives each
// layer the RoPE posenc.ParseHFConfig reads (the library is checked against
// Hugging Face itself in pkg/posenc's golden test), by file and by name.
func TestConfigJSONMatchesLibrary(t *testing.T) {
	dir := t.TempDir()
	for _, name := range modelconfigs.AllNames() {
		data, _ := modelconfigs.Lookup(name)
		m, err := posenc.ParseHFConfig(data)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name+".json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, arg := range []string{path, name} {
			var got struct {
				ModelType string `json:"model_type"`
				Layers    []struct {
					Type   string
					Window int
					RoPE   *struct {
						Base         float64
						RotatedPairs int `json:"rotated_pairs"`
						Layout       string
						InvFreq      []float64 `json:"inv_freq"`
						Attention    float64   `json:"attention_factor"`
					}
				}
			}
			decodeJSONPlain(t, mustRun(t, "config", arg, "-json"), &got)
			if got.ModelType != m.ModelType || len(got.Layers) != len(m.Layers) {
				t.Fatalf("%s: %s with %d layers; want %s with %d", arg, got.ModelType, len(got.Layers), m.ModelType, len(m.Layers))
			}
			for i, l := range m.Layers {
				g := got.Layers[i]
				if g.Type != l.Type || g.Window != l.Window || (g.RoPE == nil) != (l.RoPE == nil) {
					t.Fatalf("%s layer %d: %+v; want %+v", arg, i, g, l)
				}
				if l.RoPE == nil {
					continue
				}
				want, _ := l.RoPE.InvFreq()
				if g.RoPE.Base != l.RoPE.Base || g.RoPE.RotatedPairs != l.RoPE.RotatedPairs() ||
					g.RoPE.Attention != l.RoPE.AttentionFactor() || len(g.RoPE.InvFreq) != len(want) ||
					g.RoPE.Layout != layoutText(l.RoPE.Layout) {
					t.Fatalf("%s layer %d: %+v; want %+v", arg, i, *g.RoPE, *l.RoPE)
				}
				for j := range want {
					if g.RoPE.InvFreq[j] != want[j] {
						t.Fatalf("%s layer %d: inv_freq[%d] = %v; want %v", arg, i, j, g.RoPE.InvFreq[j], want[j])
					}
				}
			}
		}
	}
}

func TestConfigTable(t *testing.T) {
	out := mustRun(t, "config", "llama-4-scout")
	for _, want := range []string{
		"model_type llama4_text: 48 layers",
		"    3     full_attention       -    none",
		"log(⌊(p+1)/8192⌋+1)·0.1+1",
		"chunked_attention    8192  500000  64/64",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The pair layout per layer: Cohere 2 rotates adjacent pairs
	// (transformers' Cohere2 rotate_half takes x[..., ::2], x[..., 1::2]).
	if out := mustRun(t, "config", "cohere2"); !strings.Contains(out, "64/64  interleaved") {
		t.Errorf("Cohere 2's sliding layers should show the interleaved layout:\n%s", out)
	}
	if out := mustRun(t, "config", "gemma-4-e2b"); !strings.Contains(out, "64/256  halves  p-RoPE 0.25") {
		t.Errorf("Gemma 4's global layers should show p-RoPE over 64 of 256 pairs:\n%s", out)
	}
}

func TestConfigErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	_ = os.WriteFile(bad, []byte(`{"model_type": "llama", "num_hidden_layers": 1, "head_dim": 64,
		"max_position_embeddings": 4096, "rope_theta": 10000.0, "rope_scaling": {"type": "linear", "factor": 2, "beta": 1},
		"rope_magic": 6}`), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"config"}, "posenc config: missing FILE"},
		{[]string{"config", "no-such-model"}, `posenc config: "no-such-model": no such file, nor a shipped config`},
		{[]string{"config", bad}, "rope_magic is a position field this reader does not know, got 6"},
		{[]string{"config", "gemma-3-4b", "extra"}, `unexpected argument "extra" after FILE`},
		{[]string{"config", "gemma-3-4b", "-bogus"}, "flag provided but not defined: -bogus"},
	} {
		code, out, errOut := runCLI(t, c.args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("posenc %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", strings.Join(c.args, " "), code, out, errOut, c.want)
		}
	}
}
