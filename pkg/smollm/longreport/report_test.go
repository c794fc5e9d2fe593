package longreport

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/smollm/longrun"
)

// writeRun writes a synthetic long run into a temporary folder: for each
// method and text, losses from nll(method, textIndex, i) at index i (the
// loss of predicting position i+1), and the passkey trials given.
func writeRun(t *testing.T, nll func(method string, text, i int) float32, trials []longrun.PasskeyTrial) string {
	t.Helper()
	dir := t.TempDir()
	c := longrun.DefaultConfig()
	put := func(path string, v any) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range longrun.Methods(c.Factor, c.OriginalLen) {
		for ti, text := range c.Texts {
			losses := make([]float32, c.Window-1)
			for i := range losses {
				losses[i] = nll(m.Name, ti, i)
			}
			put(filepath.Join(dir, "nll", text+"."+m.Name+".json"), longrun.NLLCell{Text: text, Method: m.Name, Tokens: c.Window, NLL: losses, Seconds: 100})
		}
	}
	for _, tr := range trials {
		put(filepath.Join(dir, "passkey", tr.Method, fmt.Sprintf("len-%05d.depth-%.2f.trial-%02d.json", tr.Length, tr.Depth, tr.Trial)), tr)
	}
	return dir
}

func TestRangeNLLReadsThePredictedPositions(t *testing.T) {
	// The loss at index i predicts position i+1: a range [a, b) averages
	// indices max(a, 1)−1 … b−2, as longrun.Summarize does.
	dir := writeRun(t, func(_ string, text, i int) float32 { return float32(i + 1 + text) }, nil)
	r, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !r.CompleteNLL() || len(r.Methods()) != 6 {
		t.Fatalf("methods %v, complete %t; want all six", r.Methods(), r.CompleteNLL())
	}
	for _, c := range []struct {
		from, to int
		want     float64 // mean of positions max(from,1) … to−1, text 0
	}{{0, 1024, 512}, {1, 1024, 512}, {1024, 2048, 1535.5}, {8192, 16384, 12287.5}, {5, 6, 5}} {
		got, err := r.TextNLL("yarn", r.Config.Texts[0], c.from, c.to)
		if err != nil || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("TextNLL(%d, %d) = %g, %v; want %g", c.from, c.to, got, err, c.want)
		}
		sp, err := r.RangeNLL("yarn", c.from, c.to)
		if err != nil || math.Abs(sp.Mean-(c.want+1)) > 1e-9 || sp.Min != c.want || sp.Max != c.want+2 {
			t.Errorf("RangeNLL(%d, %d) = %+v, %v; want mean %g over texts offset 0, 1, 2", c.from, c.to, sp, err, c.want+1)
		}
	}
	for _, c := range []struct {
		method   string
		from, to int
		want     string
	}{{"yarn", 0, 16385, "positions 0 to 16385"}, {"yarn", -1, 10, "positions -1"}, {"yarn", 0, 1, "positions 0 to 1"},
		{"yarn", 10, 10, "positions 10 to 10"}, {"rope", 0, 10, `no NLL cells of method "rope"`}} {
		if _, err := r.RangeNLL(c.method, c.from, c.to); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("RangeNLL(%q, %d, %d): error %v, want one naming %q", c.method, c.from, c.to, err, c.want)
		}
	}
	if got := r.Time(); got != (longrun.CellTime{NLL: 18 * 100}) {
		t.Errorf("Time = %+v; want 1800 s of NLL and nothing else", got)
	}
	put := func(name string, p longrun.PrefixRun) {
		b, _ := json.Marshal(p)
		if err := os.MkdirAll(filepath.Join(dir, "prefixes"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "prefixes", name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("none.len-02048.depth-0.10.json", longrun.PrefixRun{Method: "none", Length: 2048, Depth: 0.1, Seconds: 7})
	put("yarn.len-16384.depth-0.50.json", longrun.PrefixRun{Method: "yarn", Length: 16384, Depth: 0.5, Seconds: 30})
	if r, err = Read(dir); err != nil {
		t.Fatal(err)
	}
	if got := r.Time(); got != (longrun.CellTime{NLL: 18 * 100, Prefixes: 37}) || got.Total() != 1837 || len(r.Prefixes) != 2 {
		t.Errorf("with two prefixes: Time = %+v (%d prefixes read); want 1800 s of NLL and 37 s of prefixes", got, len(r.Prefixes))
	}
}

func TestReadNeedsCells(t *testing.T) {
	if _, err := Read(t.TempDir()); err == nil || !strings.Contains(err.Error(), "make model-results") {
		t.Errorf("Read of an empty folder: %v; want an error saying what writes the cells", err)
	}
}

func TestCompare(t *testing.T) {
	// yarn is none minus 0.5 everywhere; pi is none plus noise that
	// averages to zero within each block; ntk is below none in two texts
	// and above it in the third.
	noise := func(i int) float32 { return float32(0.3 * math.Sin(float64(i)*math.Pi/2)) }
	dir := writeRun(t, func(m string, text, i int) float32 {
		base := float32(3 + 0.001*float64(i%97))
		switch m {
		case "yarn":
			return base - 0.5
		case "pi":
			return base + noise(i)
		case "ntk":
			if text == 2 {
				return base + 0.2
			}
			return base - 0.2
		}
		return base
	}, nil)
	r, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := r.Compare("yarn", "none", 8192, 16384)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(d.Interval.Estimate+0.5) > 1e-6 || math.Abs(d.Interval.Lo+0.5) > 1e-6 || math.Abs(d.Interval.Hi+0.5) > 1e-6 || !d.Below() || d.Above() {
		t.Errorf("yarn − none = %+v; want −0.5 exactly, resolved below", d)
	}
	same, err := r.Compare("none", "none", 0, 16384)
	if err != nil || same.Resolved() || same.Interval.Lo != 0 || same.Interval.Hi != 0 {
		t.Errorf("none − none = %+v, %v; want 0, not resolved", same, err)
	}
	// Noise: the interval must contain 0 and be wider than nothing.
	pi, err := r.Compare("pi", "none", 1, 4096)
	if err != nil || pi.Resolved() || pi.Interval.Excludes(0) {
		t.Errorf("pi − none (noise around 0) = %+v, %v; want not resolved", pi, err)
	}
	// Texts that disagree in sign: never resolved, whatever the interval.
	ntk, err := r.Compare("ntk", "none", 0, 16384)
	if err != nil || ntk.Resolved() || len(ntk.ByText) != 3 || ntk.ByText[2] < 0 || ntk.ByText[0] > 0 {
		t.Errorf("ntk − none (texts disagree) = %+v, %v; want not resolved, texts −, −, +", ntk, err)
	}
	if !ntk.Interval.Excludes(0) {
		t.Errorf("ntk − none: interval %+v should exclude 0 (the mean is −0.067 with no noise), so that Resolved is refused by the texts' signs alone", ntk.Interval)
	}
	if _, err := r.CompareBlocks("yarn", "none", 0, 100, 0); err == nil || !strings.Contains(err.Error(), "block 0") {
		t.Errorf("block 0: %v; want an error naming it", err)
	}
}

func TestBlockBootstrapWidensWithDependence(t *testing.T) {
	// Differences in runs of 64 equal values: blocks of 1 see 64 times as
	// many independent values as there are, and an interval too narrow.
	n := 64 * 64
	d := make([]float64, n)
	for i := range d {
		if (i/64)%2 == 0 {
			d[i] = 1
		} else {
			d[i] = -1
		}
	}
	width := func(block int) float64 {
		var sums []float64
		var sizes []int
		for lo := 0; lo < n; lo += block {
			s := 0.0
			for _, x := range d[lo : lo+block] {
				s += x
			}
			sums, sizes = append(sums, s), append(sizes, block)
		}
		iv := blockBootstrap([][]float64{sums}, [][]int{sizes}, 2000, 1)
		return iv.Hi - iv.Lo
	}
	if w1, w64 := width(1), width(64); !(w64 > 4*w1) {
		t.Errorf("interval width with blocks of 1: %g, of 64: %g; want the blocks of 64 over 4 times wider", w1, w64)
	}
}

func TestPasskey(t *testing.T) {
	var trials []longrun.PasskeyTrial
	add := func(method string, length int, depth float64, trial int, pass bool) {
		trials = append(trials, longrun.PasskeyTrial{Method: method, Length: length, Depth: depth, Trial: trial, Pass: pass, Key: length + trial, Seconds: 1})
	}
	// At 16k: yarn passes 9 of 10 prompts, none 1 (the same one).
	for trial := range 5 {
		for _, depth := range []float64{0.1, 0.9} {
			add("none", 16384, depth, trial, trial == 0 && depth == 0.1)
			add("yarn", 16384, depth, trial, !(trial == 4 && depth == 0.9))
		}
	}
	add("none", 2048, 0.5, 0, true)
	dir := writeRun(t, func(string, int, int) float32 { return 1 }, trials)
	r, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Passkey("yarn", 16384)
	if err != nil || p.Passed != 9 || p.Trials != 10 || !(p.Lo < 0.9 && p.Hi > 0.9 && p.Hi <= 1) {
		t.Errorf("yarn at 16k: %+v, %v; want 9 of 10 with a Wilson interval around 0.9", p, err)
	}
	if p, err := r.Passkey("none", 16384, 0.1); err != nil || p.Passed != 1 || p.Trials != 5 {
		t.Errorf("none at 16k, depth 0.1: %+v, %v; want 1 of 5", p, err)
	}
	pair, err := r.ComparePasskey("yarn", "none", 16384)
	if err != nil || pair.Both != 1 || pair.OnlyA != 8 || pair.OnlyB != 0 || pair.Neither != 1 || !pair.Resolved() {
		t.Errorf("yarn vs none at 16k: %+v, %v; want 1 both, 8 yarn only, 1 neither, resolved", pair, err)
	}
	if math.Abs(pair.P-2.0/256) > 1e-12 {
		t.Errorf("McNemar p = %g; want 2/2⁸", pair.P)
	}
	for _, c := range []struct {
		method string
		length int
		want   string
	}{{"rope", 16384, `no method "rope"`}, {"none", 1000, "passkey length 1000"}, {"yarn", 2048, "no passkey trials of yarn at 2048"}} {
		if _, err := r.Passkey(c.method, c.length); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Passkey(%q, %d): %v; want an error naming %q", c.method, c.length, err, c.want)
		}
	}
	if _, err := r.ComparePasskey("yarn", "none", 2048); err == nil {
		t.Error("ComparePasskey with no common prompts: no error")
	}
}

func TestPasskeyRefusesDifferentPrompts(t *testing.T) {
	trials := []longrun.PasskeyTrial{
		{Method: "none", Length: 12288, Depth: 0.5, Trial: 0, Key: 11111},
		{Method: "yarn", Length: 12288, Depth: 0.5, Trial: 0, Key: 22222},
	}
	r, err := Read(writeRun(t, func(string, int, int) float32 { return 1 }, trials))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.ComparePasskey("yarn", "none", 12288); err == nil || !strings.Contains(err.Error(), "different keys") {
		t.Errorf("trials with different keys: %v; want an error", err)
	}
}

func TestFigures(t *testing.T) {
	trials := []longrun.PasskeyTrial{{Method: "none", Length: 2048, Depth: 0.5, Pass: true}}
	r, err := Read(writeRun(t, func(_ string, _, i int) float32 { return float32(i%7) / 7 }, trials))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.NLLByPosition(1024, r.Methods()...); err != nil {
		t.Error(err)
	}
	if _, err := r.NLLByPosition(0, "none"); err == nil {
		t.Error("bin 0: no error")
	}
	if _, err := r.PasskeyByLength("none"); err != nil {
		t.Error(err)
	}
	if _, err := r.PasskeyByLength("yarn"); err == nil {
		t.Error("a method without trials: no error")
	}
}

// digitTokens is a tokenizer for tests: a space, then one token per digit
// (ids 32–41 for 0–9, as SmolLM2's), and 0 for anything else.
type digitTokens struct{}

func (digitTokens) Encode(text string) []int {
	var ids []int
	for _, c := range text {
		switch {
		case c == ' ':
			ids = append(ids, 216)
		case c >= '0' && c <= '9':
			ids = append(ids, 32+int(c-'0'))
		default:
			ids = append(ids, 0)
		}
	}
	return ids
}

func TestPasskeyDigits(t *testing.T) {
	answer := func(key int) []int { return digitTokens{}.Encode(fmt.Sprintf(longrun.PasskeyAnswer, key)) }
	the := func(key int) []int { g := answer(key); g[0] = 260; return g }
	wrongDigit := func(key int) []int { g := answer(key); g[3] = 32 + (g[3]-32+1)%10; return g }
	trials := []longrun.PasskeyTrial{
		{Method: "none", Length: 8192, Depth: 0.9, Trial: 0, Key: 86823, Pass: true, Greedy: answer(86823)},
		{Method: "none", Length: 8192, Depth: 0.9, Trial: 1, Key: 95419, Pass: false, Greedy: the(95419)},
		{Method: "none", Length: 8192, Depth: 0.9, Trial: 2, Key: 72926, Pass: false, Greedy: wrongDigit(72926)},
		{Method: "none", Length: 8192, Depth: 0.5, Trial: 0, Key: 11111, Pass: false, Greedy: the(11111)},
	}
	r, err := Read(writeRun(t, func(string, int, int) float32 { return 1 }, trials))
	if err != nil {
		t.Fatal(err)
	}
	exact, err := r.Passkey("none", 8192, 0.9)
	if err != nil || exact.Passed != 1 || exact.Trials != 3 {
		t.Errorf("exact at depth 0.9: %+v, %v; want 1 of 3", exact, err)
	}
	digits, err := r.PasskeyDigits(digitTokens{}, "none", 8192, 0.9)
	if err != nil || digits.Passed != 2 || digits.Trials != 3 || !(digits.Lo < 2.0/3 && digits.Hi > 2.0/3) {
		t.Errorf("digits at depth 0.9: %+v, %v; want 2 of 3 (the wrong first token passes, the wrong digit does not)", digits, err)
	}
	if all, err := r.PasskeyDigits(digitTokens{}, "none", 8192); err != nil || all.Passed != 3 || all.Trials != 4 {
		t.Errorf("digits at every depth: %+v, %v; want 3 of 4", all, err)
	}
	short := []longrun.PasskeyTrial{{Method: "none", Length: 2048, Depth: 0.5, Key: 12345, Greedy: []int{216, 33}}}
	r2, err := Read(writeRun(t, func(string, int, int) float32 { return 1 }, short))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r2.PasskeyDigits(digitTokens{}, "none", 2048); err == nil || !strings.Contains(err.Error(), "2 answer tokens recorded") {
		t.Errorf("a trial whose recorded answer is shorter than the key's tokens: %v; want an error naming both counts", err)
	}
	if _, err := r2.PasskeyDigitsByLength(digitTokens{}, "none"); err == nil || !strings.Contains(err.Error(), "2 answer tokens recorded") {
		t.Errorf("the digits figure over such a trial: %v; want the same error, not the length left out", err)
	}
}

func TestPasskeyDigitsByLength(t *testing.T) {
	answer := func(key int) []int { return digitTokens{}.Encode(fmt.Sprintf(longrun.PasskeyAnswer, key)) }
	the := func(key int) []int { g := answer(key); g[0] = 260; return g }
	trials := []longrun.PasskeyTrial{
		{Method: "none", Length: 8192, Depth: 0.9, Trial: 0, Key: 86823, Pass: true, Greedy: answer(86823)},
		{Method: "none", Length: 8192, Depth: 0.9, Trial: 1, Key: 95419, Pass: false, Greedy: the(95419)},
	}
	r, err := Read(writeRun(t, func(string, int, int) float32 { return 1 }, trials))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.PasskeyDigitsByLength(digitTokens{}, "none"); err != nil {
		t.Fatal(err)
	}
	exact, err := r.passkeySeries(exact, []string{"none"})
	if err != nil {
		t.Fatal(err)
	}
	digits, err := r.passkeySeries(digits(digitTokens{}), []string{"none"})
	if err != nil {
		t.Fatal(err)
	}
	if got := exact[0]; !slices.Equal(got.X, []float64{8192}) || !slices.Equal(got.Y, []float64{0.5}) {
		t.Errorf("exact pass rate by length: %v at %v, want 0.5 at 8192", got.Y, got.X)
	}
	if got := digits[0]; !slices.Equal(got.Y, []float64{1}) || got.Lo[0] >= 1 {
		t.Errorf("digits-right rate by length: %v (from %v), want 1 with a Wilson interval below it (the answer that opens with \" the\" has every digit right)", got.Y, got.Lo)
	}
	if _, err := r.PasskeyDigitsByLength(digitTokens{}, "yarn"); err == nil {
		t.Error("a method without trials: no error")
	}
}

func TestComparePasskeyDigits(t *testing.T) {
	answer := func(key int) []int { return digitTokens{}.Encode(fmt.Sprintf(longrun.PasskeyAnswer, key)) }
	the := func(key int) []int { g := answer(key); g[0] = 260; return g }
	wrong := func(key int) []int { g := answer(key); g[2] = 32 + (g[2]-32+1)%10; return g }
	var trials []longrun.PasskeyTrial
	// Ten prompts: YaRN opens each answer with " the" but has every digit
	// right; no scaling gets a digit wrong. Exact scoring sees no
	// difference, digits scoring sees ten prompts YaRN alone gets right.
	for i := range 10 {
		key := 10000 + 7919*i
		trials = append(trials,
			longrun.PasskeyTrial{Method: "yarn", Length: 16384, Depth: 0.9, Trial: i, Key: key, Greedy: the(key)},
			longrun.PasskeyTrial{Method: "none", Length: 16384, Depth: 0.9, Trial: i, Key: key, Greedy: wrong(key)})
	}
	r, err := Read(writeRun(t, func(string, int, int) float32 { return 1 }, trials))
	if err != nil {
		t.Fatal(err)
	}
	exact, err := r.ComparePasskey("yarn", "none", 16384)
	if err != nil || exact.Neither != 10 || exact.Resolved() {
		t.Errorf("exact: %+v, %v; want 10 prompts neither passes, not resolved", exact, err)
	}
	digits, err := r.ComparePasskeyDigits(digitTokens{}, "yarn", "none", 16384)
	if err != nil || digits.OnlyA != 10 || digits.OnlyB != 0 || !digits.Resolved() {
		t.Errorf("digits: %+v, %v; want 10 prompts only YaRN gets right, resolved", digits, err)
	}
	short := []longrun.PasskeyTrial{
		{Method: "yarn", Length: 16384, Depth: 0.9, Key: 12345, Greedy: []int{216, 33}},
		{Method: "none", Length: 16384, Depth: 0.9, Key: 12345, Greedy: answer(12345)},
	}
	r2, err := Read(writeRun(t, func(string, int, int) float32 { return 1 }, short))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r2.ComparePasskeyDigits(digitTokens{}, "yarn", "none", 16384); err == nil || !strings.Contains(err.Error(), "2 answer tokens recorded") {
		t.Errorf("a trial whose recorded answer is shorter than the key's tokens: %v; want an error naming both counts", err)
	}
}
