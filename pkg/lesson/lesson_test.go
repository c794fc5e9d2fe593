package lesson

import (
	"errors"
	"io"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/posenc"
)

func mustPanic(t *testing.T, wantInMsg string, f func()) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil {
			t.Fatalf("no panic; want one mentioning %q", wantInMsg)
		}
		if msg, _ := r.(string); !strings.Contains(msg, wantInMsg) {
			t.Fatalf("panic %q; want it to mention %q", msg, wantInMsg)
		}
	}()
	f()
}

func TestCheck(t *testing.T) {
	Check("PE(3)[0]", 0.14112, 0.1411, 5e-5)
	mustPanic(t, "PE(3)[0] = 0.2", func() { Check("PE(3)[0]", 0.2, 0.1411, 5e-5) })
	mustPanic(t, "NaN", func() { Check("x", math.NaN(), 0, 1) })
}

func TestCheckSlice(t *testing.T) {
	CheckSlice("row", []float64{1, 2}, []float64{1, 2.00001}, 1e-4)
	mustPanic(t, "row[1]", func() { CheckSlice("row", []float64{1, 2}, []float64{1, 3}, 1e-4) })
	mustPanic(t, "has 1 values", func() { CheckSlice("row", []float64{1}, []float64{1, 3}, 1e-4) })
}

func TestCheckTrue(t *testing.T) {
	CheckTrue("holds", true)
	mustPanic(t, "values lie in [-1, 1]", func() { CheckTrue("values lie in [-1, 1]", false) })
}

// stdoutOf returns what f prints on standard output.
func stdoutOf(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stdout
	os.Stdout = w
	defer func() { os.Stdout = saved }()
	f()
	w.Close()
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// A passing check prints nothing unless the author asked for verbose checks.
func TestPassingChecksAreSilent(t *testing.T) {
	checks := func() {
		Check("x", 1, 1, 0)
		CheckSlice("row", []float64{1}, []float64{1}, 0)
		CheckTrue("holds", true)
	}
	saved := verbose
	defer func() { verbose = saved }()
	verbose = false
	if out := stdoutOf(t, checks); out != "" {
		t.Errorf("passing checks printed %q; want nothing", out)
	}
	verbose = true
	if out := stdoutOf(t, checks); strings.Count(out, "✓ ") != 3 {
		t.Errorf("verbose checks printed %q; want three ✓ lines", out)
	}
}

func TestTables(t *testing.T) {
	got := HTMLTable([]string{"a", "<b>"}, [][]string{{"1", "x&y"}})
	for _, want := range []string{"<th>&lt;b&gt;</th>", "<td>x&amp;y</td>"} {
		if !strings.Contains(got, want) {
			t.Errorf("HTMLTable = %q; want it to contain %q", got, want)
		}
	}
	if got, want := TextTable([]string{"h", "value"}, [][]string{{"long", "1"}}), "h     value\nlong  1\n"; got != want {
		t.Errorf("TextTable = %q; want %q", got, want)
	}
	if got, want := FormatSlice([]float64{0.14112, -0.99}, 4), "[0.1411 -0.9900]"; got != want {
		t.Errorf("FormatSlice = %q; want %q", got, want)
	}
}

func TestMust(t *testing.T) {
	if got := Must(42, nil); got != 42 {
		t.Errorf("Must(42, nil) = %d; want 42", got)
	}
	NoError(nil)
	want := &posenc.ParamError{Param: "dim", Value: 7, Reason: "must be even"}
	for name, call := range map[string]func(){
		"Must":    func() { Must([]float64{1}, error(want)) },
		"NoError": func() { NoError(want) },
	} {
		var pe *posenc.ParamError
		func() {
			defer func() {
				err, _ := recover().(error)
				if !errors.As(err, &pe) || pe != want {
					t.Errorf("%s: panic with %v; want the error itself, %v", name, err, want)
				}
			}()
			call()
		}()
	}
}
