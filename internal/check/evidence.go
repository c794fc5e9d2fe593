package check

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// A named hint must explain all the evidence, not only the first row that
// fails: a learner told "7 bits stored" for an answer that is wrong only at
// the largest finite value fixes the wrong thing. So while a row runs, the
// diagnosis helpers (firstMatch, matchAll, consistentHint) record, for every
// named mistake whose answer they computed on that row, whether it is the
// learner's answer there; a row that passes is diagnosed too, for the
// record only. The grader's hint (summarize) is then a named one only when
// no row contradicts it, failing or passing, and no failing row is claimed
// by another mistake; otherwise it says which rows fail and what they have
// in common.

// evidence is what one row says about the named mistakes.
type evidence struct {
	fits     map[*Hint]bool // the mistake's answer on this row is the learner's
	fallback *Hint          // the row's generic hint, for the summary of rows
}

var (
	evidenceMu  sync.Mutex
	rowEvidence *evidence // the row being checked; nil outside a check
	probeDepth  int       // > 0 while a diagnosis runs the learner's code on other inputs
	recordOnly  bool      // the row passed: diagnose to record, never probe
)

// startEvidence begins recording for a row; stopEvidence ends it and
// returns what was recorded.
func startEvidence() {
	evidenceMu.Lock()
	defer evidenceMu.Unlock()
	rowEvidence, probeDepth, recordOnly = &evidence{fits: map[*Hint]bool{}}, 0, false
}

func stopEvidence() *evidence {
	evidenceMu.Lock()
	defer evidenceMu.Unlock()
	ev := rowEvidence
	rowEvidence = nil
	return ev
}

// observe records, for each variant, whether got is its answer: a hint
// fits the row when any of its variants does.
func observe[T any](got T, same func(a, b T) bool, variants []variant[T]) {
	evidenceMu.Lock()
	defer evidenceMu.Unlock()
	if rowEvidence == nil || probeDepth > 0 {
		return
	}
	for _, v := range variants {
		if v.hint == nil || v.hint.Generic {
			continue
		}
		rowEvidence.fits[v.hint] = rowEvidence.fits[v.hint] || same(got, v.value)
	}
}

// observeHint records that the row's answer is (or is not) what mistake h
// predicts, for diagnoses that test a property rather than compare values.
func observeHint(h *Hint, fits bool) {
	observe(fits, func(a, b bool) bool { return a == b }, []variant[bool]{{h, true}})
}

// noteFallback records the row's generic hint.
func noteFallback(h *Hint) {
	evidenceMu.Lock()
	defer evidenceMu.Unlock()
	if rowEvidence != nil && rowEvidence.fallback == nil {
		rowEvidence.fallback = h
	}
}

// runProbe runs f, a call of the learner's code on another input, so that
// what the diagnosis learns from it is not recorded as this row's evidence.
// While a passing row is diagnosed for the record, it runs nothing and
// returns false.
func runProbe(f func()) bool {
	evidenceMu.Lock()
	if recordOnly {
		evidenceMu.Unlock()
		return false
	}
	probeDepth++
	evidenceMu.Unlock()
	defer func() {
		evidenceMu.Lock()
		probeDepth--
		evidenceMu.Unlock()
	}()
	f()
	return true
}

// observePass diagnoses an answer that passed, only to record what it says
// about each named mistake: a mistake whose answer differs there is ruled
// out. A diagnosis that panics records what it had.
func observePass[T any](diag func(T) *Hint, got T) {
	if diag == nil {
		return
	}
	evidenceMu.Lock()
	if rowEvidence == nil {
		evidenceMu.Unlock()
		return
	}
	recordOnly = true
	evidenceMu.Unlock()
	defer func() {
		_ = recover()
		evidenceMu.Lock()
		recordOnly = false
		evidenceMu.Unlock()
	}()
	diag(got)
}

// failed reports whether r is a wrong answer of the learner's own code.
func (r Result) failed() bool { return r.Kind == Fail || r.Kind == Panic || r.Kind == Timeout }

// explains reports whether named mistake h accounts for every result: no
// row, failing or passing, where h's answer is not the learner's, and no
// failing row that names another mistake that h does not fit. In an
// exercise of several functions, a mistake is one function's: only the rows
// that call a function with a failing row that h fits can rule it out.
func explains(h *Hint, results []Result) bool {
	fitsRow := func(r Result) (fit, known bool) {
		if r.evidence != nil {
			fit, known = r.evidence.fits[h]
		}
		return fit, known
	}
	funcs := map[string]bool{}
	for _, r := range results {
		if fit, _ := fitsRow(r); r.failed() && (fit || r.hint() == h) {
			funcs[calledFunc(r.Check)] = true
		}
	}
	for _, r := range results {
		fit, known := fitsRow(r)
		if known && !fit && funcs[calledFunc(r.Check)] {
			return false
		}
		if rh := r.hint(); r.failed() && !fit && rh != nil && !rh.Generic && rh != h {
			return false
		}
	}
	return true
}

// calledFunc is the function a check calls first: its Call up to "(".
func calledFunc(c Check) string {
	name, _, _ := strings.Cut(c.Call, "(")
	return name
}

// chooseHint returns the hint the grader shows for results, first the
// first failing result: a named hint only when it explains every result
// (that of the first failing row, else the first other candidate that
// does), else a summary of the rows that fail; but a panic, a timeout or a
// changed argument keeps its own hint when no named mistake fits.
func chooseHint(first Result, results []Result) *Hint {
	h := first.hint()
	if h == nil {
		return nil
	}
	candidates := candidateHints(h, results)
	for _, c := range candidates {
		if explains(c, results) {
			return c
		}
	}
	if len(candidates) == 0 && (first.evidence == nil || h != first.evidence.fallback) {
		return h // a panic, a timeout, an argument changed: what happened is the news
	}
	return rowsHint(results, candidates)
}

// candidateHints returns the named hints of the failing rows, h first,
// then those whose answer some failing row gives.
func candidateHints(h *Hint, results []Result) []*Hint {
	var out []*Hint
	add := func(c *Hint) {
		if c != nil && !c.Generic && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	add(h)
	for _, r := range results {
		if r.failed() {
			add(r.hint())
		}
	}
	for _, r := range results {
		if r.failed() && r.evidence != nil {
			for _, c := range registry { // registration order: stable
				if r.evidence.fits[c] {
					add(c)
				}
			}
		}
	}
	return out
}

// partlyExplains returns the failing rows whose answer mistake h gives,
// and no other candidate does, when no passing row rules h out: one of two
// mistakes made at once.
func partlyExplains(h *Hint, candidates []*Hint, results []Result) []string {
	var rows []string
	funcs := map[string]bool{}
	for _, r := range results {
		if r.failed() && r.evidence != nil && r.evidence.fits[h] &&
			!slices.ContainsFunc(candidates, func(c *Hint) bool { return c != h && r.evidence.fits[c] }) {
			rows = append(rows, r.Check.Name)
			funcs[calledFunc(r.Check)] = true
		}
	}
	for _, r := range results {
		if r.Kind == Pass && r.evidence != nil && funcs[calledFunc(r.Check)] {
			if fit, known := r.evidence.fits[h]; known && !fit {
				return nil
			}
		}
	}
	return rows
}

// rowsHint says which rows fail and what they have in common, when no
// named mistake explains them all; and which rows each of the mistakes
// that explain some of them, and no passing row rules out, explains.
func rowsHint(results []Result, candidates []*Hint) *Hint {
	var failing, passing []Result
	for _, r := range results {
		switch {
		case r.failed():
			failing = append(failing, r)
		case r.Kind == Pass:
			passing = append(passing, r)
		}
	}
	names := make([]string, len(failing))
	for i, r := range failing {
		names[i] = r.Check.Name
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d rows fail (%s), and no single classic mistake gives your answers on every row, "+
		"failing or passing", len(failing), len(failing)+len(passing), listWords(names))
	var parts []string
	covered := map[string]bool{}
	for _, c := range candidates { // at most two, each explaining rows the first does not
		rows := partlyExplains(c, candidates, results)
		if len(parts) == 2 || !slices.ContainsFunc(rows, func(n string) bool { return !covered[n] }) {
			continue
		}
		for _, n := range rows {
			covered[n] = true
		}
		parts = append(parts, fmt.Sprintf("%s %s the answer of this one: %s", listWords(rows),
			map[bool]string{true: "is", false: "are"}[len(rows) == 1], c))
	}
	if len(parts) > 0 {
		fmt.Fprintf(&b, ": perhaps two mistakes at once. %s", strings.TrimSuffix(strings.Join(parts, " "), "."))
		return &Hint{Name: "rows that fail", Text: b.String(), Generic: true}
	}
	if common := commonTraits(failing, passing); len(common) > 0 {
		fmt.Fprintf(&b, ". What the failing rows have in common: %s", strings.Join(common, "; "))
	}
	var fallback *Hint
	for _, r := range failing {
		if r.evidence != nil && r.evidence.fallback != nil {
			fallback = r.evidence.fallback
			break
		}
	}
	if fallback == nil {
		return &Hint{Name: "rows that fail", Text: b.String(), Generic: true}
	}
	fmt.Fprintf(&b, ". Check them against the rule: %s", fallback.Text)
	return &Hint{Name: "rows that fail", Text: b.String(), Section: fallback.Section, Generic: true}
}

// commonTraits returns the traits every failing row has, those no passing
// row has first.
func commonTraits(failing, passing []Result) []string {
	if len(failing) == 0 {
		return nil
	}
	var shared, distinct []string
	for _, t := range failing[0].Check.Traits {
		if !slices.ContainsFunc(failing, func(r Result) bool { return !slices.Contains(r.Check.Traits, t) }) {
			shared = append(shared, t)
		}
	}
	for _, t := range shared {
		if !slices.ContainsFunc(passing, func(r Result) bool { return slices.Contains(r.Check.Traits, t) }) {
			distinct = append(distinct, t+" (and no passing row)")
		}
	}
	if len(distinct) > 0 {
		return distinct
	}
	return shared
}

// listWords writes "a", "a and b", "a, b and c", or the first five and a
// count.
func listWords(words []string) string {
	if len(words) > 5 {
		return strings.Join(words[:5], ", ") + fmt.Sprintf(" and %d more", len(words)-5)
	}
	if len(words) <= 1 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
