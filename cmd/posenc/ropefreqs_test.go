package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/posenc"
)

// hfInvFreq is an independent float64 transcription of Hugging Face
// transformers' modeling_rope_utils.py (_compute_default_rope_parameters,
// _compute_linear_scaling_rope_parameters, _compute_dynamic_ntk_parameters,
// _compute_yarn_parameters with truncate=True, _compute_llama3_parameters),
// plus bloc97's static NTK-aware base (base·s^(d/(d−2))). It returns
// inv_freq and the attention factor.
func hfInvFreq(dim int, base float64, kind string, factor float64, orig, seqLen int,
	betaFast, betaSlow, low, high float64) ([]float64, float64) {
	half := dim / 2
	inv := func(b float64) []float64 {
		out := make([]float64, half)
		for i := range out {
			out[i] = 1 / math.Pow(b, float64(2*i)/float64(dim))
		}
		return out
	}
	exp := float64(dim) / float64(dim-2)
	switch kind {
	case "linear":
		f := inv(base)
		for i := range f {
			f[i] /= factor
		}
		return f, 1
	case "ntk":
		return inv(base * math.Pow(factor, exp)), 1
	case "dynamic":
		l := float64(max(seqLen, orig))
		return inv(base * math.Pow(factor*l/float64(orig)-(factor-1), exp)), 1
	case "yarn":
		corr := func(rot float64) float64 {
			return float64(dim) * math.Log(float64(orig)/(rot*2*math.Pi)) / (2 * math.Log(base))
		}
		lo := math.Max(math.Floor(corr(betaFast)), 0)
		hi := math.Min(math.Ceil(corr(betaSlow)), float64(dim-1))
		if lo == hi {
			hi += 0.001
		}
		extra := inv(base)
		out := make([]float64, half)
		for i := range out {
			ramp := math.Min(math.Max((float64(i)-lo)/(hi-lo), 0), 1)
			extrapFactor := 1 - ramp
			out[i] = extra[i]/factor*(1-extrapFactor) + extra[i]*extrapFactor
		}
		return out, 0.1*math.Log(factor) + 1
	case "llama3":
		lowWavelen, highWavelen := float64(orig)/low, float64(orig)/high
		out := inv(base)
		for i, f := range out {
			wavelen := 2 * math.Pi / f
			switch {
			case wavelen > lowWavelen:
				out[i] = f / factor
			case wavelen < highWavelen:
			default:
				smooth := (float64(orig)/wavelen - low) / (high - low)
				out[i] = (1-smooth)*f/factor + smooth*f
			}
		}
		return out, 1
	}
	return inv(base), 1
}

func TestRoPEFreqsJSON(t *testing.T) {
	tests := []struct {
		name string
		args string
		// reference configuration
		dim                           int
		base                          float64
		kind                          string
		factor                        float64
		orig, seqLen                  int
		betaFast, betaSlow, low, high float64
	}{
		{"default", "--dim 8", 8, 10000, "none", 1, 0, 0, 32, 1, 1, 4},
		{"base", "--dim 64 --base 500000", 64, 500000, "none", 1, 0, 0, 32, 1, 1, 4},
		{"rotary dim", "--dim 64 --rotary-dim 16", 16, 10000, "none", 1, 0, 0, 32, 1, 1, 4},
		{"linear", "--dim 16 --scaling linear --factor 4", 16, 10000, "linear", 4, 0, 0, 32, 1, 1, 4},
		{"ntk", "--dim 16 --scaling ntk --factor 8", 16, 10000, "ntk", 8, 0, 0, 32, 1, 1, 4},
		{"dynamic short", "--dim 16 --scaling dynamic --factor 2 --orig-len 2048", 16, 10000, "dynamic", 2, 2048, 0, 32, 1, 1, 4},
		{"dynamic long", "--dim 16 --scaling dynamic --factor 2 --orig-len 2048 --seq-len 8192", 16, 10000, "dynamic", 2, 2048, 8192, 32, 1, 1, 4},
		{"yarn", "--dim 64 --scaling yarn --factor 4 --orig-len 2048", 64, 10000, "yarn", 4, 2048, 0, 32, 1, 1, 4},
		{"yarn betas", "--dim 128 --base 1000000 --scaling yarn --factor 16 --orig-len 4096 --beta-fast 16 --beta-slow 2",
			128, 1000000, "yarn", 16, 4096, 0, 16, 2, 1, 4},
		{"llama3", "--dim 128 --base 500000 --scaling llama3 --factor 8 --orig-len 8192", 128, 500000, "llama3", 8, 8192, 0, 32, 1, 1, 4},
		{"llama3 band", "--dim 64 --scaling llama3 --factor 4 --orig-len 1024 --low-freq-factor 2 --high-freq-factor 8",
			64, 10000, "llama3", 4, 1024, 0, 32, 1, 2, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got struct {
				InvFreq         []json.Number `json:"inv_freq"`
				AttentionFactor json.Number   `json:"attention_factor"`
			}
			decodeJSON(t, mustRun(t, append([]string{"rope-freqs", "--json"}, strings.Fields(tt.args)...)...), &got)
			want, wantAF := hfInvFreq(tt.dim, tt.base, tt.kind, tt.factor, tt.orig, tt.seqLen, tt.betaFast, tt.betaSlow, tt.low, tt.high)
			if len(got.InvFreq) != len(want) {
				t.Fatalf("%d frequencies; want %d", len(got.InvFreq), len(want))
			}
			for i, n := range got.InvFreq {
				if v := parseNumber(t, n, 64); math.Abs(v-want[i]) > 1e-12*want[i] {
					t.Errorf("inv_freq[%d] = %v; HF reference %v", i, v, want[i])
				}
			}
			if af := parseNumber(t, got.AttentionFactor, 64); math.Abs(af-wantAF) > 1e-15 {
				t.Errorf("attention_factor = %v; want %v", af, wantAF)
			}
		})
	}
}

// TestRoPEFreqsJSONExact checks that the printed digits are exactly the
// library's float64 values.
func TestRoPEFreqsJSONExact(t *testing.T) {
	r := posenc.NewRoPE(64).WithScaling(posenc.YaRNScaling(4, 2048))
	want, err := r.InvFreq()
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		InvFreq         []float64 `json:"inv_freq"`
		AttentionFactor float64   `json:"attention_factor"`
	}
	decodeJSONPlain(t, mustRun(t, "rope-freqs", "--dim", "64", "--scaling", "yarn", "--factor", "4", "--orig-len", "2048", "--json"), &got)
	for i := range want {
		if got.InvFreq[i] != want[i] {
			t.Errorf("inv_freq[%d] = %v; want exactly %v", i, got.InvFreq[i], want[i])
		}
	}
	if got.AttentionFactor != r.AttentionFactor() {
		t.Errorf("attention_factor = %v; want exactly %v", got.AttentionFactor, r.AttentionFactor())
	}
}

func decodeJSONPlain(t *testing.T, out string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("stdout is not one JSON value: %v\n%s", err, out)
	}
}

func TestRoPEFreqsHuman(t *testing.T) {
	out := mustRun(t, "rope-freqs", "--dim", "8", "--scaling", "yarn", "--factor", "4", "--orig-len", "64")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if got := strings.Join(strings.Fields(lines[0]), " "); got != "pair inv_freq wavelength" {
		t.Errorf("header %q; want pair inv_freq wavelength", lines[0])
	}
	if len(lines) != 6 {
		t.Fatalf("%d lines; want header, 4 pairs and the attention factor:\n%s", len(lines), out)
	}
	if got := strings.Fields(lines[1]); got[1] != "1.00000e+00" || got[2] != "6.28" {
		t.Errorf("pair 0 = %q; want inv_freq 1 and wavelength 2π", lines[1])
	}
	if !strings.HasPrefix(lines[5], "attention factor: 1.1386") {
		t.Errorf("last line %q; want the YaRN attention factor 0.1·ln 4 + 1", lines[5])
	}
}
