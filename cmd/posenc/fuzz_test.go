package main

import (
	"strings"
	"testing"

	"github.com/posenc/course/pkg/viz"
)

// FuzzRun feeds random command lines (words separated by spaces) to run:
// it must never panic, must exit 0 or 2, and must print one line on stderr
// exactly when it fails. Plots are built but not written.
func FuzzRun(f *testing.F) {
	saved := savePlot
	savePlot = func(*viz.Figure, string, float64, float64) error { return nil }
	f.Cleanup(func() { savePlot = saved })
	for _, seed := range []string{
		"",
		"help",
		"help rope",
		"sinusoidal --len 4 --dim 4 --json",
		"sinusoidal --len 3 --dim 6 --start 5 --layout concat --dtype float64",
		"sinusoidal --len 4 --dim 7",
		"rope-freqs --dim 8 --scaling yarn --factor 4 --orig-len 64 --json",
		"rope-freqs --dim 8 --scaling llama3 --factor 8 --orig-len 64 --low-freq-factor 1 --high-freq-factor 4",
		"rope-freqs --dim 8 --scaling dynamic --factor 2 --orig-len 16 --seq-len 64 --rotary-dim 4",
		"rope --x 1,2,3,4 --pos 3 --layout half --json",
		"rope --x 1,x --pos 3",
		"alibi --heads 12 --len 3 --causal --json",
		"alibi --heads 3",
		"t5-bucket --rel -20 --buckets 32 --max-distance 128 --bidirectional=false --json",
		"plot --kind alibi --heads 4 --len 4 -o x.png",
		"plot --kind rope --len 4 --dim 8 --value angle -o x.svg",
		"plot --kind t5 --len 4 -o x.svg",
		"plot --kind sinusoidal --len 4 --dim 4 -o x.png",
		"sinusoidal --len=4 --dim=4 -json=false",
		"sinusoidal -- --len 4",
		"sinusoidal ---len 4 -dim 4",
		"sinusoidal -len 0x10 -dim 4 -base 1e999",
		"t5-bucket -rel 1 -bidirectional false",
		"rope -x 1,NaN -pos 1 -h",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var args []string
		if line != "" {
			args = strings.Split(line, " ")
		}
		var out, errOut strings.Builder
		code := run(args, &out, &errOut)
		switch code {
		case 0:
			if errOut.Len() != 0 {
				t.Errorf("exit 0 with stderr %q", errOut.String())
			}
		case 2:
			msg := errOut.String()
			if !strings.HasSuffix(msg, "\n") || strings.Count(msg, "\n") != 1 {
				t.Errorf("exit 2 with stderr %q; want one line", msg)
			}
			if out.Len() != 0 {
				t.Errorf("exit 2 with stdout %q", out.String())
			}
		default:
			t.Errorf("exit %d (stderr %q); want 0 or 2", code, errOut.String())
		}
	})
}
