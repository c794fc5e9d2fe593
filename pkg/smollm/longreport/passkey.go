package longreport

import (
	"fmt"
	"slices"

	"github.com/posenc/course/pkg/lab"
	"github.com/posenc/course/pkg/smollm/longrun"
)

// PasskeyRate is how often a method returned the key at one length, over
// the depths asked, with its 95% Wilson interval.
type PasskeyRate struct {
	Method         string
	Length         int
	Depths         []float64
	Passed, Trials int
	Lo, Hi         float64
}

// Rate returns the pass rate, 0 with no trials.
func (p PasskeyRate) Rate() float64 {
	if p.Trials == 0 {
		return 0
	}
	return float64(p.Passed) / float64(p.Trials)
}

// trialsAt returns method's trials at length and the depths (every depth
// when none is given).
func (r *Report) trialsAt(method string, length int, depths []float64) []longrun.PasskeyTrial {
	var ts []longrun.PasskeyTrial
	for _, t := range r.Trials {
		if t.Method == method && t.Length == length && (len(depths) == 0 || slices.Contains(depths, t.Depth)) {
			ts = append(ts, t)
		}
	}
	return ts
}

// scoring decides whether a trial passed.
type scoring func(longrun.PasskeyTrial) (bool, error)

// exact is the run's own pass: greedy decoding returns every answer token.
func exact(t longrun.PasskeyTrial) (bool, error) { return t.Pass, nil }

// digits passes a trial whose argmax gave every token of the key after the
// answer's first; tok gives the answer's tokens.
func digits(tok longrun.Tokenizer) scoring {
	return func(t longrun.PasskeyTrial) (bool, error) {
		want := tok.Encode(fmt.Sprintf(longrun.PasskeyAnswer, t.Key))
		if len(want) != len(t.Greedy) {
			return false, fmt.Errorf("longreport: trial %d of %s at %d tokens, depth %g: %d answer tokens recorded, the tokenizer gives %d", t.Trial, t.Method, t.Length, t.Depth, len(t.Greedy), len(want))
		}
		return slices.Equal(want[1:], t.Greedy[1:]), nil
	}
}

// Passkey returns method's pass rate at length over the given depths
// (every depth when none is given): a trial passes when greedy decoding
// returns every answer token.
func (r *Report) Passkey(method string, length int, depths ...float64) (PasskeyRate, error) {
	return r.passkeyRate(method, length, depths, exact)
}

// passkeyRate returns method's rate at length over depths, each trial
// scored by pass.
func (r *Report) passkeyRate(method string, length int, depths []float64, pass scoring) (PasskeyRate, error) {
	if !r.hasMethod(method) {
		return PasskeyRate{}, fmt.Errorf("longreport: no method %q", method)
	}
	if !slices.Contains(r.Config.PasskeyLengths, length) {
		return PasskeyRate{}, fmt.Errorf("longreport: passkey length %d, want one of %v", length, r.Config.PasskeyLengths)
	}
	ts := r.trialsAt(method, length, depths)
	if len(ts) == 0 {
		return PasskeyRate{}, fmt.Errorf("longreport: no passkey trials of %s at %d tokens, depths %v", method, length, depths)
	}
	p := PasskeyRate{Method: method, Length: length, Depths: depths, Trials: len(ts)}
	for _, t := range ts {
		ok, err := pass(t)
		if err != nil {
			return PasskeyRate{}, err
		}
		if ok {
			p.Passed++
		}
	}
	p.Lo, p.Hi = lab.Wilson(p.Passed, p.Trials)
	return p, nil
}

// PasskeyPair is two methods on the same passkey prompts (the key of a
// trial depends on its length, depth and number, not on the method).
type PasskeyPair struct {
	A, B                        string
	Length                      int
	Both, OnlyA, OnlyB, Neither int
	// P is McNemar's exact two-sided p-value (lab.McNemar).
	P float64
}

// Resolved reports whether the two methods differ at p < 0.05.
func (p PasskeyPair) Resolved() bool { return p.P < 0.05 }

// ComparePasskey pairs a's and b's trials at length by depth and trial
// number: the same prompt under two methods, each scored as Passkey
// scores it (every answer token right).
func (r *Report) ComparePasskey(a, b string, length int) (PasskeyPair, error) {
	return r.comparePasskey(a, b, length, exact)
}

// ComparePasskeyDigits is ComparePasskey with each trial scored as
// PasskeyDigits scores it (the key's digits right).
func (r *Report) ComparePasskeyDigits(tok longrun.Tokenizer, a, b string, length int) (PasskeyPair, error) {
	return r.comparePasskey(a, b, length, digits(tok))
}

// comparePasskey pairs a's and b's trials at length, each scored by pass.
func (r *Report) comparePasskey(a, b string, length int, pass scoring) (PasskeyPair, error) {
	ta, tb := r.trialsAt(a, length, nil), r.trialsAt(b, length, nil)
	type key struct {
		depth float64
		trial int
	}
	byKey := map[key]longrun.PasskeyTrial{}
	for _, t := range tb {
		byKey[key{t.Depth, t.Trial}] = t
	}
	p := PasskeyPair{A: a, B: b, Length: length}
	for _, t := range ta {
		u, ok := byKey[key{t.Depth, t.Trial}]
		if !ok {
			continue
		}
		if u.Key != t.Key {
			return PasskeyPair{}, fmt.Errorf("longreport: %s and %s asked different keys at %d tokens, depth %g, trial %d (%d, %d)", a, b, length, t.Depth, t.Trial, t.Key, u.Key)
		}
		pa, err := pass(t)
		if err != nil {
			return PasskeyPair{}, err
		}
		pb, err := pass(u)
		if err != nil {
			return PasskeyPair{}, err
		}
		switch {
		case pa && pb:
			p.Both++
		case pa:
			p.OnlyA++
		case pb:
			p.OnlyB++
		default:
			p.Neither++
		}
	}
	if p.Both+p.OnlyA+p.OnlyB+p.Neither == 0 {
		return PasskeyPair{}, fmt.Errorf("longreport: no passkey prompts that both %s and %s ran at %d tokens", a, b, length)
	}
	var err error
	p.P, err = lab.McNemar(p.OnlyA, p.OnlyB)
	return p, err
}

// PasskeyDigits is Passkey with a looser pass: the key's digits are right
// given the answer's first token, whatever the model would have said
// first. A model may answer "The pass key is the 86823": greedy decoding
// then fails on its first token (" the", not " "), which Passkey counts
// as a miss, while the papers' scoring searches the generated text for
// the number. Each trial's argmax at every answer position, given the
// right tokens before it (PasskeyTrial.Greedy), decides it; tok gives the
// answer's tokens (the model's tokenizer, as the run used it).
func (r *Report) PasskeyDigits(tok longrun.Tokenizer, method string, length int, depths ...float64) (PasskeyRate, error) {
	return r.passkeyRate(method, length, depths, digits(tok))
}
