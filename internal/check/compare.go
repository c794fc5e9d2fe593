package check

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// ---- Comparisons -----------------------------------------------------------

// closeTo reports whether g is within tol of w, relative to |w| when |w| > 1.
// Equal infinities are close; NaN is never close to anything.
func closeTo(g, w, tol float64) bool {
	if g == w {
		return true
	}
	if math.IsNaN(g) || math.IsNaN(w) || math.IsInf(g, 0) || math.IsInf(w, 0) {
		return false
	}
	return math.Abs(g-w) <= tol*math.Max(1, math.Abs(w))
}

// diffVec returns the first index where got and want differ beyond tol, or
// -1 when they agree (same length and all close).
func diffVec(got, want []float64, tol float64) int {
	for i := range min(len(got), len(want)) {
		if !closeTo(got[i], want[i], tol) {
			return i
		}
	}
	if len(got) != len(want) {
		return min(len(got), len(want))
	}
	return -1
}

func sameVec(tol float64) func(a, b []float64) bool {
	return func(a, b []float64) bool { return diffVec(a, b, tol) < 0 }
}

// diffTable returns the first (row, col) where got and want differ beyond
// tol, or (-1, -1).
func diffTable(got, want [][]float64, tol float64) (int, int) {
	for r := range min(len(got), len(want)) {
		if c := diffVec(got[r], want[r], tol); c >= 0 {
			return r, c
		}
	}
	if len(got) != len(want) {
		return min(len(got), len(want)), 0
	}
	return -1, -1
}

func sameTable(tol float64) func(a, b [][]float64) bool {
	return func(a, b [][]float64) bool { r, _ := diffTable(a, b, tol); return r < 0 }
}

// variant is a known wrong answer and the hint that names its idea.
type variant[T any] struct {
	hint  *Hint
	value T
}

// matchAll returns the hints of every variant that got matches, in order,
// without repeats.
func matchAll[T any](got T, same func(a, b T) bool, variants ...variant[T]) []*Hint {
	observe(got, same, variants)
	var out []*Hint
	for _, v := range variants {
		if same(got, v.value) && !slices.Contains(out, v.hint) {
			out = append(out, v.hint)
		}
	}
	return out
}

// narrow picks one hint among candidates that one wrong answer matches
// equally well, using the hints that another answer of the same learner
// code, on a configuration that tells them apart, matches: the first
// candidate also in probe, else the first candidate.
func narrow(candidates []*Hint, probe func() []*Hint) *Hint {
	switch len(candidates) {
	case 0:
		return nil
	case 1:
		return candidates[0]
	}
	var probed []*Hint
	runProbe(func() { probed = probe() })
	for _, h := range probed {
		if slices.Contains(candidates, h) {
			return h
		}
	}
	return candidates[0]
}

// consistentHint names the idea behind a wrong answer got, among the
// variants (known wrong answers of one input) it matches. When they name
// several ideas, it keeps the first whose variant also gives the learner's
// answers on every probe: answers returns the learner's answer on each
// probe, and probeVariants(p) the same variants, in the same order, for
// probe p. Probes are small inputs chosen to tell the ideas apart; they are
// run only when needed. With no consistent variant it keeps the first match.
func consistentHint[T any](got T, same func(a, b T) bool, variants []variant[T], answers func() []T, probeVariants func(p int) []variant[T]) *Hint {
	observe(got, same, variants)
	var matches []int
	for k, v := range variants {
		if same(got, v.value) {
			matches = append(matches, k)
		}
	}
	if len(matches) == 0 {
		return nil
	}
	first := variants[matches[0]].hint
	if !slices.ContainsFunc(matches, func(k int) bool { return variants[k].hint != first }) {
		return first
	}
	var learner []T
	if !runProbe(func() { learner = answers() }) {
		return first
	}
	for _, k := range matches {
		consistent := true
		for p, a := range learner {
			if !same(a, probeVariants(p)[k].value) {
				consistent = false
			}
		}
		if consistent {
			return variants[k].hint
		}
	}
	return first
}

// uniqueMatch returns the hint that the variants got matches name, or nil
// when they name none or several: a row that two mistakes explain equally
// names neither, and the rows together decide (chooseHint).
func uniqueMatch[T any](got T, same func(a, b T) bool, variants ...variant[T]) *Hint {
	hints := matchAll(got, same, variants...)
	if len(hints) != 1 {
		return nil
	}
	return hints[0]
}

// firstMatch returns the hint of the first variant that got matches, or nil.
func firstMatch[T any](got T, same func(a, b T) bool, variants ...variant[T]) *Hint {
	observe(got, same, variants)
	for _, v := range variants {
		if same(got, v.value) {
			return v.hint
		}
	}
	return nil
}

// ---- Shapes ----------------------------------------------------------------

// shapeMsg returns a message when got is not a rows×cols table.
func shapeMsg(what string, got [][]float64, rows, cols int) string {
	if got == nil && rows > 0 {
		return fmt.Sprintf("%s returned nil; want a %d×%d table (make a slice of %d rows, each of %d values)", what, rows, cols, rows, cols)
	}
	if len(got) != rows {
		return fmt.Sprintf("%s returned %d rows; want %d", what, len(got), rows)
	}
	for r, row := range got {
		if len(row) != cols {
			return fmt.Sprintf("%s: row %d has %d values; want %d", what, r, len(row), cols)
		}
	}
	return ""
}

// lenMsg returns a message when got does not have n values.
func lenMsg(what string, got []float64, n int) string {
	if got == nil && n > 0 {
		return fmt.Sprintf("%s returned nil; want %d values", what, n)
	}
	if len(got) != n {
		return fmt.Sprintf("%s returned %d values; want %d", what, len(got), n)
	}
	return ""
}

// ---- Formatting ------------------------------------------------------------

func fmtNum(v float64) string { return fmt.Sprintf("%.7g", v) }

// fmtGotWant prints "got G, want W", with enough digits to tell them apart,
// and the size of the difference when it is small.
func fmtGotWant(g, w float64) string {
	for prec := 7; prec <= 17; prec++ {
		gs, ws := fmt.Sprintf("%.*g", prec, g), fmt.Sprintf("%.*g", prec, w)
		if gs != ws || prec == 17 {
			s := "got " + gs + ", want " + ws
			if diff := math.Abs(g - w); prec > 7 || diff < 1e-4 {
				s += fmt.Sprintf(" (off by %.2g)", diff)
			}
			return s
		}
	}
	return ""
}

// fmtVec prints v, or a window of it around index at when it is long.
func fmtVec(v []float64, at int) string {
	const window = 8
	lo, hi := 0, len(v)
	if len(v) > window {
		lo = max(0, min(at-window/2, len(v)-window))
		hi = lo + window
	}
	parts := make([]string, 0, hi-lo+2)
	if lo > 0 {
		parts = append(parts, fmt.Sprintf("…(%d before)", lo))
	}
	for _, x := range v[lo:hi] {
		parts = append(parts, fmtNum(x))
	}
	if hi < len(v) {
		parts = append(parts, fmt.Sprintf("…(%d more)", len(v)-hi))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// fmtTable prints a small table inline, e.g. [[1 0] [0 1]].
func fmtTable(t [][]float64) string {
	rows := make([]string, len(t))
	for i, r := range t {
		parts := make([]string, len(r))
		for j, x := range r {
			parts[j] = fmtNum(x)
		}
		rows[i] = "[" + strings.Join(parts, " ") + "]"
	}
	return "[" + strings.Join(rows, " ") + "]"
}

// vecDiffLines words the first difference of two vectors; label names
// index i (e.g. "dimension 3").
func vecDiffLines(got, want []float64, i int, label func(i int) string) []string {
	return []string{
		"got  " + fmtVec(got, i),
		"want " + fmtVec(want, i),
		fmt.Sprintf("first difference at %s: %s", label(i), fmtGotWant(got[i], want[i])),
	}
}

// tableDiffLines words the first difference of two tables at (r, c).
func tableDiffLines(got, want [][]float64, r, c int, rowLabel, colLabel func(int) string) []string {
	return []string{
		fmt.Sprintf("got  %s = %s", rowLabel(r), fmtVec(got[r], c)),
		fmt.Sprintf("want %s = %s", rowLabel(r), fmtVec(want[r], c)),
		fmt.Sprintf("first difference at %s, %s: %s", rowLabel(r), colLabel(c), fmtGotWant(got[r][c], want[r][c])),
	}
}

func label(prefix string) func(int) string {
	return func(i int) string { return fmt.Sprintf("%s %d", prefix, i) }
}

// ---- Inputs ----------------------------------------------------------------

// cloneTable returns a deep copy of t, to check that the learner's code
// leaves its inputs alone.
func cloneTable(t [][]float64) [][]float64 {
	if t == nil {
		return nil
	}
	out := make([][]float64, len(t))
	for i, r := range t {
		out[i] = append([]float64(nil), r...)
	}
	return out
}

func cloneVec(v []float64) []float64 { return append([]float64(nil), v...) }

// randTable returns a rows×cols table of deterministic values in (−1, 1).
func randTable(rows, cols int, seed uint64) [][]float64 {
	t := make([][]float64, rows)
	for i := range t {
		t[i] = randVec(cols, seed+uint64(i)*7919)
	}
	return t
}

// randVec returns n deterministic values in [−0.999, 0.999], with three
// decimals so that the printed case tables stay readable (a 64-bit LCG, so
// the tests need no math/rand seeding and print the same numbers every
// run).
func randVec(n int, seed uint64) []float64 {
	v := make([]float64, n)
	s := seed*6364136223846793005 + 1442695040888963407
	for i := range v {
		s = s*6364136223846793005 + 1442695040888963407
		v[i] = float64(int64(s>>11)%1999-999) / 1000
	}
	return v
}

func intsToFloats(v []int) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// ---- Generic comparisons -------------------------------------------------

// compareTable compares a table the learner's call returned with want: nil
// when they agree within tol, else a failure that shows where they first
// differ, with diag's hint for a known wrong answer, else fallback. row and
// col label the indices in the message ("row 3 (position 5)").
func compareTable(call string, got, want [][]float64, tol float64, row, col func(int) string,
	diag func(got [][]float64) *Hint, fallback *Hint) *Failure {
	cols := 0
	if len(want) > 0 {
		cols = len(want[0])
	}
	noteFallback(fallback)
	msg := shapeMsg(call, got, len(want), cols)
	r, c := -1, -1
	if msg == "" {
		if r, c = diffTable(got, want, tol); r < 0 {
			observePass(diag, got)
			return nil
		}
	}
	var hint *Hint
	if diag != nil {
		hint = diag(got)
	}
	if msg != "" {
		return fail(orElse(hint, fallback), msg)
	}
	return fail(orElse(hint, fallback), append([]string{call + ":"}, tableDiffLines(got, want, r, c, row, col)...)...)
}

// compareVec compares a vector the learner's call returned with want, as
// compareTable does.
func compareVec(call string, got, want []float64, tol float64, label func(int) string,
	diag func(got []float64) *Hint, fallback *Hint) *Failure {
	noteFallback(fallback)
	msg := lenMsg(call, got, len(want))
	i := -1
	if msg == "" {
		if i = diffVec(got, want, tol); i < 0 {
			observePass(diag, got)
			return nil
		}
	}
	var hint *Hint
	if diag != nil {
		hint = diag(got)
	}
	if msg != "" {
		return fail(orElse(hint, fallback), msg)
	}
	return fail(orElse(hint, fallback), append([]string{call + ":"}, vecDiffLines(got, want, i, label)...)...)
}

// wantNil checks a call whose arguments are invalid: it must return nil.
func wantNil[T any](call string, got []T, hint *Hint) *Failure {
	if got != nil {
		return fail(hint, fmt.Sprintf("%s returned %d values; want nil.", call, len(got)))
	}
	return nil
}

// ---- float32 angles ---------------------------------------------------------

// looksFloat32 reports whether got differs from want only as much as
// float32 angles would explain: each error at most a few float32 ulps of
// its angle.
func looksFloat32(got, want, angles []float64) bool {
	if len(got) != len(want) || len(got) != len(angles) {
		return false
	}
	wrong := false
	for i := range got {
		e := math.Abs(got[i] - want[i])
		if math.IsNaN(e) || e > 1e-6+4e-7*math.Abs(angles[i]) {
			return false
		}
		wrong = wrong || e > 1e-10
	}
	return wrong
}
