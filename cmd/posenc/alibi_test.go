package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/posenc"
)

func TestALiBiSlopesJSON(t *testing.T) {
	tests := []struct {
		heads string
		want  []float64
	}{
		// The ALiBi authors' get_slopes: 2^(−8k/n) for n a power of two...
		{"8", []float64{1. / 2, 1. / 4, 1. / 8, 1. / 16, 1. / 32, 1. / 64, 1. / 128, 1. / 256}},
		// ... and for 12 heads the 8 slopes of 8, then every other of 16.
		{"12", []float64{1. / 2, 1. / 4, 1. / 8, 1. / 16, 1. / 32, 1. / 64, 1. / 128, 1. / 256,
			math.Pow(2, -0.5), math.Pow(2, -1.5), math.Pow(2, -2.5), math.Pow(2, -3.5)}},
	}
	for _, tt := range tests {
		t.Run(tt.heads, func(t *testing.T) {
			out := mustRun(t, "alibi", "--heads", tt.heads, "--json")
			var got map[string]json.RawMessage
			decodeJSONPlain(t, out, &got)
			if _, ok := got["bias"]; ok {
				t.Errorf("bias present without --len:\n%s", out)
			}
			var slopes []float64
			if err := json.Unmarshal(got["slopes"], &slopes); err != nil {
				t.Fatal(err)
			}
			if len(slopes) != len(tt.want) {
				t.Fatalf("%d slopes; want %d", len(slopes), len(tt.want))
			}
			for i := range slopes {
				if math.Abs(slopes[i]-tt.want[i]) > 1e-15 {
					t.Errorf("slope %d = %v; want %v", i, slopes[i], tt.want[i])
				}
			}
		})
	}
}

func TestALiBiBiasJSON(t *testing.T) {
	const heads, n = 3, 5
	for _, causal := range []bool{false, true} {
		name := "symmetric"
		args := []string{"alibi", "--heads", "3", "--len", "5", "--json"}
		if causal {
			name = "causal"
			args = append(args, "--causal")
		}
		t.Run(name, func(t *testing.T) {
			var got struct {
				Slopes []float64
				Bias   [][][]*float64
			}
			decodeJSONPlain(t, mustRun(t, args...), &got)
			want, err := posenc.ALiBiBias[float64](heads, n, causal)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Bias) != heads {
				t.Fatalf("%d heads of bias; want %d", len(got.Bias), heads)
			}
			for h := range heads {
				for i := range n {
					for j := range n {
						v := got.Bias[h][i][j]
						w := want[(h*n+i)*n+j]
						// fairseq: −m·|i−j|, causal: −m·(i−j), −Inf after the query.
						ref := -got.Slopes[h] * math.Abs(float64(i-j))
						if causal && j > i {
							if v != nil {
								t.Errorf("bias[%d][%d][%d] = %v; want null (−Inf)", h, i, j, *v)
							}
							continue
						}
						if v == nil {
							t.Errorf("bias[%d][%d][%d] = null; want %v", h, i, j, w)
							continue
						}
						if *v != w || math.Abs(*v-ref) > 1e-15 {
							t.Errorf("bias[%d][%d][%d] = %v; want %v (reference %v)", h, i, j, *v, w, ref)
						}
					}
				}
			}
		})
	}
}

func TestALiBiHuman(t *testing.T) {
	out := mustRun(t, "alibi", "--heads", "2", "--len", "3", "--causal")
	for _, want := range []string{"head       slope  log2(slope)\n", "   0      0.0625           -4\n",
		"head 1 (slope 0.00390625):\n", `q\k`, "-inf", "-0.125000"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
