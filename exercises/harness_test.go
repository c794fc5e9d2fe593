package exercises

// The harness every exercise test shares: it runs the learner's code in a
// goroutine with a deadline and a recover, so that a panic or an endless loop
// fails that exercise only, and it words failures the way a tutor would:
// what was called, got against want at the first differing position, and a
// hint naming the idea when the answer matches a known mistake.
//
// Helper names start with ex, ref, diag, hint, check or mut so that they do
// not collide with the learner's own helpers in the same package.

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// exTimeoutEnv overrides exTimeout, as a Go duration ("10s"), for very slow
// machines.
const exTimeoutEnv = "EXERCISE_TIMEOUT"

// exTimeout bounds each check of the learner's code. The solutions take
// microseconds; 3 s is generous on two busy cores yet keeps a whole run of
// looping stubs short.
var exTimeout = exTimeoutFromEnv()

func exTimeoutFromEnv() time.Duration {
	if d, err := time.ParseDuration(os.Getenv(exTimeoutEnv)); err == nil && d > 0 {
		return d
	}
	return 3 * time.Second
}

// exNotImplemented starts the panic message of every untouched stub.
const exNotImplemented = "not implemented yet"

// exInfo names an exercise for its messages.
type exInfo struct {
	file   string // the stub, e.g. "exercises/03_sinusoidal.go"
	funcs  string // the functions to write, e.g. "Sinusoidal"
	lesson string // e.g. "lesson 2, sinusoidal encodings"
}

// exCase is one named check. run calls the learner's code and returns "" when
// it passes, or the message a tutor would give. call says what is called
// first, for the messages about panics and timeouts. panicHint, when set, is
// added to the message if the learner's code panics.
type exCase struct {
	name      string
	call      string
	run       func() string
	panicHint string
}

type exKind int

const (
	exPass exKind = iota
	exFail
	exNotImpl
	exPanic
	exTimeoutKind
)

type exResult struct {
	kind exKind
	msg  string
}

// exGuard runs c with a deadline and a recover.
func exGuard(c exCase) exResult {
	done := make(chan exResult, 1) // buffered: a late answer must not block a leaked goroutine
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- exPanicResult(c, r)
			}
		}()
		if msg := c.run(); msg != "" {
			done <- exResult{kind: exFail, msg: msg}
			return
		}
		done <- exResult{kind: exPass}
	}()
	timer := time.NewTimer(exTimeout)
	defer timer.Stop()
	select {
	case r := <-done:
		return r
	case <-timer.C:
		// The goroutine cannot be stopped; it keeps running until the test
		// binary exits, which is why the exercise stops at its first timeout.
		return exResult{kind: exTimeoutKind, msg: fmt.Sprintf(
			"%s did not return within %v.\nHint: look for a loop whose condition never becomes false "+
				"(a counter that is never incremented, or a step that is 0). The other checks of this exercise were not run.",
			c.call, exTimeout)}
	}
}

// exPanicResult words a recovered panic, pointing at the learner's line.
func exPanicResult(c exCase, r any) exResult {
	if s, ok := r.(string); ok && strings.HasPrefix(s, exNotImplemented) {
		return exResult{kind: exNotImpl, msg: s}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s panicked: %v", c.call, r)
	if where := exPanicSite(); where != "" {
		fmt.Fprintf(&b, "\n    at %s", where)
	}
	if c.panicHint != "" {
		fmt.Fprintf(&b, "\nHint: %s", c.panicHint)
	}
	return exResult{kind: exPanic, msg: b.String()}
}

// exPanicSite returns "exercises/NN_slug.go:LINE in Func" for the innermost
// frame of the panicking stack that is in a non-test file of this package.
func exPanicSite() string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if strings.HasSuffix(f.File, ".go") && !strings.HasSuffix(f.File, "_test.go") &&
			filepath.Base(filepath.Dir(f.File)) == "exercises" {
			name := f.Function[strings.LastIndex(f.Function, ".")+1:]
			return fmt.Sprintf("exercises/%s:%d in %s", filepath.Base(f.File), f.Line, name)
		}
		if !more {
			return ""
		}
	}
}

// exRunAll runs the cases in order, stopping after a timeout.
func exRunAll(cases []exCase) []exResult {
	results := make([]exResult, 0, len(cases))
	for _, c := range cases {
		r := exGuard(c)
		results = append(results, r)
		if r.kind == exTimeoutKind {
			break
		}
	}
	return results
}

// runExercise is every exercise test's body. An untouched stub gets one
// message for the whole exercise; otherwise each case is a named subtest.
func runExercise(t *testing.T, info exInfo, cases []exCase) {
	t.Helper()
	results := exRunAll(cases)
	allStub := len(results) > 0
	for _, r := range results {
		allStub = allStub && r.kind == exNotImpl
	}
	if allStub {
		t.Fatalf("%s and write %s (%s). Hints: exercises/README.md", results[0].msg, info.funcs, info.lesson)
	}
	notImplSeen := false
	for i, r := range results {
		c := cases[i]
		t.Run(c.name, func(t *testing.T) {
			t.Helper()
			switch r.kind {
			case exPass:
			case exNotImpl:
				if notImplSeen {
					t.Errorf("%s: not implemented yet (as above)", c.call)
					return
				}
				notImplSeen = true
				t.Errorf("%s: %s", c.call, r.msg)
			default:
				t.Error(r.msg)
			}
		})
	}
	if skipped := len(cases) - len(results); skipped > 0 {
		t.Errorf("%d more checks were not run because one timed out", skipped)
	}
}

// exMessages runs cases without a testing.T and returns every failure's
// message: what the feedback tests inspect.
func exMessages(cases []exCase) []string {
	var msgs []string
	for _, r := range exRunAll(cases) {
		if r.kind != exPass {
			msgs = append(msgs, r.msg)
		}
	}
	return msgs
}

// ---- Hints ----------------------------------------------------------------

// exHints maps every registered hint to its name; the feedback tests check
// that each one is produced by at least one wrong implementation.
var exHints = map[string]string{}

// newHint registers a hint that names a misconception.
func newHint(name, text string) string {
	if old, dup := exHints[text]; dup {
		panic("hint registered twice: " + old + " and " + name)
	}
	exHints[text] = name
	return text
}

// exVariant is a known wrong answer and the hint that names its idea.
type exVariant[T any] struct {
	hint  string
	value T
}

// diagFirst returns the hint of the first variant that got matches, or "".
func diagFirst[T any](got T, same func(a, b T) bool, variants ...exVariant[T]) string {
	for _, v := range variants {
		if same(got, v.value) {
			return v.hint
		}
	}
	return ""
}

// ---- Messages --------------------------------------------------------------

// exMsg joins a message's lines, dropping empty ones, and adds the hint (or
// the fallback when no misconception was recognised).
func exMsg(hint, fallback string, lines ...string) string {
	var out []string
	for _, l := range lines {
		if l != "" {
			out = append(out, l)
		}
	}
	switch {
	case hint != "":
		out = append(out, "Hint: "+hint)
	case fallback != "":
		out = append(out, "Hint: "+fallback)
	}
	return strings.Join(out, "\n")
}

func exFmt(v float64) string {
	return fmt.Sprintf("%.7g", v)
}

// exFmtGotWant prints "got G, want W", with enough digits to tell them apart,
// and the size of the difference when it is small.
func exFmtGotWant(g, w float64) string {
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

// exFmtVec prints v, or a window of it around index at when it is long.
func exFmtVec(v []float64, at int) string {
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
		parts = append(parts, exFmt(x))
	}
	if hi < len(v) {
		parts = append(parts, fmt.Sprintf("…(%d more)", len(v)-hi))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// ---- Comparisons -----------------------------------------------------------

// exClose reports whether g is within tol of w, relative to |w| when |w| > 1.
// Equal infinities are close; NaN is never close to anything.
func exClose(g, w, tol float64) bool {
	if g == w {
		return true
	}
	if math.IsNaN(g) || math.IsNaN(w) || math.IsInf(g, 0) || math.IsInf(w, 0) {
		return false
	}
	return math.Abs(g-w) <= tol*math.Max(1, math.Abs(w))
}

// exDiffVec returns the first index where got and want differ beyond tol,
// or -1 when they agree (same length and all close).
func exDiffVec(got, want []float64, tol float64) int {
	for i := range min(len(got), len(want)) {
		if !exClose(got[i], want[i], tol) {
			return i
		}
	}
	if len(got) != len(want) {
		return min(len(got), len(want))
	}
	return -1
}

func exSameVec(tol float64) func(a, b []float64) bool {
	return func(a, b []float64) bool { return exDiffVec(a, b, tol) < 0 }
}

// exDiffTable returns the first (row, col) where got and want differ beyond
// tol, or (-1, -1).
func exDiffTable(got, want [][]float64, tol float64) (int, int) {
	for r := range min(len(got), len(want)) {
		if c := exDiffVec(got[r], want[r], tol); c >= 0 {
			return r, c
		}
	}
	if len(got) != len(want) {
		return min(len(got), len(want)), 0
	}
	return -1, -1
}

func exSameTable(tol float64) func(a, b [][]float64) bool {
	return func(a, b [][]float64) bool { r, _ := exDiffTable(a, b, tol); return r < 0 }
}

// checkShape returns a message when got is not a rows×cols table.
func checkShape(what string, got [][]float64, rows, cols int) string {
	if got == nil {
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

// checkLen returns a message when got does not have n values.
func checkLen(what string, got []float64, n int) string {
	if got == nil {
		return fmt.Sprintf("%s returned nil; want %d values", what, n)
	}
	if len(got) != n {
		return fmt.Sprintf("%s returned %d values; want %d", what, len(got), n)
	}
	return ""
}

// exVecDiffLines words the first difference of two vectors; label names
// index i (e.g. "dimension 3").
func exVecDiffLines(got, want []float64, i int, label func(i int) string) []string {
	return []string{
		"got  " + exFmtVec(got, i),
		"want " + exFmtVec(want, i),
		fmt.Sprintf("first difference at %s: %s", label(i), exFmtGotWant(got[i], want[i])),
	}
}

// exTableDiffLines words the first difference of two tables at (r, c).
func exTableDiffLines(got, want [][]float64, r, c int, rowLabel, colLabel func(int) string) []string {
	return []string{
		fmt.Sprintf("got  %s = %s", rowLabel(r), exFmtVec(got[r], c)),
		fmt.Sprintf("want %s = %s", rowLabel(r), exFmtVec(want[r], c)),
		fmt.Sprintf("first difference at %s, %s: %s", rowLabel(r), colLabel(c), exFmtGotWant(got[r][c], want[r][c])),
	}
}

func exLabel(prefix string) func(int) string {
	return func(i int) string { return fmt.Sprintf("%s %d", prefix, i) }
}

// exCloneTable returns a deep copy of t, to check that the learner's code
// leaves its inputs alone.
func exCloneTable(t [][]float64) [][]float64 {
	out := make([][]float64, len(t))
	for i, r := range t {
		out[i] = append([]float64(nil), r...)
	}
	return out
}

// refRandTable returns a rows×cols table of deterministic values in (−1, 1).
func refRandTable(rows, cols int, seed uint64) [][]float64 {
	t := make([][]float64, rows)
	for i := range t {
		t[i] = refRandVec(cols, seed+uint64(i)*7919)
	}
	return t
}

// refRandVec returns n deterministic values in (−1, 1) (a 64-bit LCG, so the
// tests need no math/rand seeding and print the same numbers every run).
func refRandVec(n int, seed uint64) []float64 {
	v := make([]float64, n)
	s := seed*6364136223846793005 + 1442695040888963407
	for i := range v {
		s = s*6364136223846793005 + 1442695040888963407
		v[i] = float64(int64(s>>11)%2000001-1000000) / 1000001
	}
	return v
}

// hintFloat32 is shared by the exercises that compute angles.
var hintFloat32 = newHint("float32 angles",
	"your values are right at small positions and drift at large ones: the angles are computed in float32. "+
		"A float32 holds about 7 digits, so pos·ω at position 1,000,000 is off by up to 0.06 rad; compute pos·ω in float64 "+
		"(lesson 2, “Beyond the paper: float32 at long positions”).")

// diagFloat32 reports whether got differs from want only as much as float32
// angles would explain: each error at most a few float32 ulps of its angle.
func diagFloat32(got, want, angles []float64) bool {
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

// exTableCheck compares a table returned by the learner's code with want.
type exTableCheck struct {
	name, call string
	got        func() [][]float64
	want       [][]float64
	tol        float64
	row, col   func(int) string             // labels for messages ("row 3 (position 5)")
	diag       func(got [][]float64) string // the hint for a known wrong answer, or ""
	fallback   string                       // the hint when diag finds nothing
	panicHint  string
}

func (tc exTableCheck) exCase() exCase {
	return exCase{name: tc.name, call: tc.call, panicHint: tc.panicHint, run: func() string {
		got := tc.got()
		hint := ""
		if tc.diag != nil {
			hint = tc.diag(got)
		}
		if msg := checkShape(tc.call, got, len(tc.want), len(tc.want[0])); msg != "" {
			return exMsg(hint, tc.fallback, msg)
		}
		r, c := exDiffTable(got, tc.want, tc.tol)
		if r < 0 {
			return ""
		}
		return exMsg(hint, tc.fallback, append([]string{tc.call + ":"}, exTableDiffLines(got, tc.want, r, c, tc.row, tc.col)...)...)
	}}
}

// exVecCheck compares a vector returned by the learner's code with want.
type exVecCheck struct {
	name, call string
	got        func() []float64
	want       []float64
	tol        float64
	label      func(int) string
	diag       func(got []float64) string
	fallback   string
	panicHint  string
}

func (vc exVecCheck) exCase() exCase {
	return exCase{name: vc.name, call: vc.call, panicHint: vc.panicHint, run: func() string {
		got := vc.got()
		hint := ""
		if vc.diag != nil {
			hint = vc.diag(got)
		}
		if msg := checkLen(vc.call, got, len(vc.want)); msg != "" {
			return exMsg(hint, vc.fallback, msg)
		}
		i := exDiffVec(got, vc.want, vc.tol)
		if i < 0 {
			return ""
		}
		return exMsg(hint, vc.fallback, append([]string{vc.call + ":"}, exVecDiffLines(got, vc.want, i, vc.label)...)...)
	}}
}

// exFmtTable prints a small table inline, e.g. [[1 0] [0 1]].
func exFmtTable(t [][]float64) string {
	rows := make([]string, len(t))
	for i, r := range t {
		parts := make([]string, len(r))
		for j, x := range r {
			parts[j] = exFmt(x)
		}
		rows[i] = "[" + strings.Join(parts, " ") + "]"
	}
	return "[" + strings.Join(rows, " ") + "]"
}
