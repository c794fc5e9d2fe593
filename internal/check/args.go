package check

import (
	"fmt"
	"math"
	"reflect"
)

// Every check calls the learner's function on copies of its row's inputs,
// and then checks two contracts every stub states, on every row and so on
// every path through the learner's code: the arguments are left as they
// were, and the result shares no memory with them (a result that is one of
// the arguments, or holds one of their rows, changes the caller's data the
// moment the caller changes the result).

// arg is one argument of a call: its name in the stub's signature, the copy
// the learner's function got, and the row's original.
type arg struct {
	name     string
	now, was any
}

// argHints are the hints of an exercise for the two contracts: an argument
// changed, and a result that shares memory with an argument.
type argHints struct {
	mutates, shares *Hint
}

// check returns a failure when the call changed an argument or returned
// memory it shares with one. It changes result, so it runs after every
// other check of the result.
func (h argHints) check(call string, result any, args ...arg) *Failure {
	for _, a := range args {
		if !sameData(reflect.ValueOf(a.now), reflect.ValueOf(a.was)) {
			return fail(h.mutates, fmt.Sprintf("%s changed its argument %s: it reads %s afterwards.", call, a.name, fmtAny(a.now)))
		}
	}
	poke(reflect.ValueOf(result))
	for _, a := range args {
		if !sameData(reflect.ValueOf(a.now), reflect.ValueOf(a.was)) {
			return fail(h.shares, fmt.Sprintf("%s returned memory it shares with its argument %s: changing the result changed %s.",
				call, a.name, a.name))
		}
	}
	return nil
}

// sameData reports whether a and b hold the same values, slices compared
// element by element and floats by their bits (so that NaN equals NaN).
func sameData(a, b reflect.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !sameData(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Int:
		return a.Int() == b.Int()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.String:
		return a.String() == b.String()
	}
	panic("check: sameData cannot compare " + a.Type().String())
}

// poke changes every value reachable in v's slices, so that an argument
// sharing memory with v shows the change.
func poke(v reflect.Value) {
	if v.Kind() == reflect.Slice {
		for i := range v.Len() {
			poke(v.Index(i))
		}
		return
	}
	if !v.CanSet() { // a result that is no slice shares nothing
		return
	}
	switch v.Kind() {
	case reflect.Float64:
		v.SetFloat(v.Float() + 1000.5)
		if math.IsInf(v.Float(), 0) || math.IsNaN(v.Float()) {
			v.SetFloat(12345.5)
		}
	case reflect.Int:
		v.SetInt(v.Int() + 1000)
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.String:
		v.SetString(v.String() + "~")
	}
}

// fmtAny prints a changed argument briefly.
func fmtAny(v any) string {
	switch x := v.(type) {
	case []float64:
		return fmtVec(x, 0)
	case [][]float64:
		if len(x) <= 4 && (len(x) == 0 || len(x[0]) <= 6) {
			return fmtTable(x)
		}
		return fmt.Sprintf("a %d-row table that differs from what was passed", len(x))
	}
	s := fmt.Sprint(v)
	if len([]rune(s)) > 120 {
		return "something other than what was passed"
	}
	return s
}
