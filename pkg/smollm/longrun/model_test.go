package longrun

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gomlx/compute/gobackend"

	"github.com/posenc/course/internal/modeltest"
	"github.com/posenc/course/pkg/bpe"
	"github.com/posenc/course/pkg/gguf"
	"github.com/posenc/course/pkg/posgraph"
	"github.com/posenc/course/pkg/smollm"
)

// tokenizer reads SmolLM2's tokenizer once; without the model the test
// skips (fails on CI).
var tokenizer = sync.OnceValues(func() (*bpe.Tokenizer, error) {
	path, err := smollm.Find()
	if err != nil {
		return nil, err
	}
	f, err := gguf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return bpe.FromGGUF(f)
})

func needTokenizer(t *testing.T) *bpe.Tokenizer {
	t.Helper()
	_, err := smollm.Find()
	modeltest.Require(t, err)
	tok, err := tokenizer()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestTextsAreLongEnough checks that every committed text fills the
// committed window with SmolLM2's tokens.
func TestTextsAreLongEnough(t *testing.T) {
	tok := needTokenizer(t)
	for _, name := range TextNames {
		text, err := LoadText(name)
		if err != nil {
			t.Fatal(err)
		}
		n := len(tok.Encode(text.Body))
		t.Logf("%s: %d bytes, %d tokens", name, len(text.Body), n)
		if n < DefaultConfig().Window {
			t.Errorf("%s has %d tokens; the window needs %d", name, n, DefaultConfig().Window)
		}
	}
}

// TestPasskeyTokensAreThePrompts checks that the prompt built from the
// parts' tokens is how the tokenizer cuts the whole prompt, so the model
// scores the text a user would send, and that the answer is its digits.
func TestPasskeyTokensAreThePrompts(t *testing.T) {
	tok := needTokenizer(t)
	for _, depth := range []float64{0, 0.5, 1} {
		p, err := NewPasskeyPrompt(tok, 600, depth, 42)
		if err != nil {
			t.Fatal(err)
		}
		whole := tok.Encode(p.Text)
		ids := make([]int, len(p.IDs))
		for i, id := range p.IDs {
			ids[i] = int(id)
		}
		if !slices.Equal(whole, ids) {
			t.Errorf("depth %g: the whole prompt tokenizes to %d tokens, its parts to %d", depth, len(whole), len(ids))
		}
		answer, err := tok.Decode(ids[p.Answer:])
		if err != nil || answer != fmt.Sprintf(" %d", p.Key) {
			t.Errorf("depth %g: answer tokens decode to %q (%v), want %q", depth, answer, err, fmt.Sprintf(" %d", p.Key))
		}
	}
}

// needXLAModel returns the tokenizer and the weights, skipping on the
// pure-Go backend (about 100 s per 512 tokens: minutes for the tests that
// call it), with why and what runs instead.
func needXLAModel(t *testing.T, instead string) (*bpe.Tokenizer, *smollm.Weights) {
	t.Helper()
	tok := needTokenizer(t)
	if posgraph.Backend().String() == gobackend.BackendName {
		t.Skip(strings.TrimSuffix("the pure-Go backend takes minutes for this; "+instead, "; "))
	}
	path, _ := smollm.Find()
	w, err := smollm.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return tok, w
}

// TestQuickRunOnXLA runs a few cells of the quick run on the model: the
// NLL and a passkey trial come out finite and sane. On the pure-Go backend
// (about 100 s per 512 tokens) it skips.
func TestQuickRunOnXLA(t *testing.T) {
	tok, w := needXLAModel(t, "scripts/model-results.sh --quick runs it on XLA")
	c := QuickConfig()
	c.Window, c.RangeEdges, c.Texts = 128, []int{0, 64, 128}, []string{"opticks"}
	c.PasskeyLengths, c.TrialsBeyond = []int{200}, 0
	c.ChunkSize = 64
	store := Store{Dir: t.TempDir()}
	e := &ModelEngine{Backend: posgraph.Backend(), Weights: w, ChunkSize: c.ChunkSize}
	if err := Run(c, store, e, tok, Provenance{Command: "test"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	s, err := Summarize(store, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range s.NLL {
		if !(row.Spread.Mean > 0.5 && row.Spread.Mean < 8) {
			t.Errorf("%s [%d, %d): %.3f nats/token, want a trained model's (0.5–8)", row.Method, row.From, row.To, row.Spread.Mean)
		}
	}
	if len(s.Passkey) != 1 || s.Passkey[0].Trials != 1 {
		t.Errorf("passkey cells %+v, want one trial", s.Passkey)
	}
}

// TestSharedPrefixMatchesWholePrompt checks the run's shortcut for passkey
// trials against the unshared path: two trials of one length and depth,
// run from the shared cache of what precedes their needle, give the logits
// of each whole prompt run alone, to float32 rounding, and the same
// greedy tokens. Skips on the pure-Go backend (minutes).
func TestSharedPrefixMatchesWholePrompt(t *testing.T) {
	tok, w := needXLAModel(t, "")
	const length, chunk = 300, 64
	// YaRN ×2 past a pretended trained length of 128: a scaling, as the
	// beyond-length cells run (no scaling takes the same path).
	for _, m := range []Method{Methods(2, 128)[4]} {
		alone := &ModelEngine{Backend: posgraph.Backend(), Weights: w, ChunkSize: chunk}
		shared := &ModelEngine{Backend: posgraph.Backend(), Weights: w, ChunkSize: chunk}
		for trial := range uint64(2) {
			p, err := NewPasskeyPrompt(tok, length, 0.5, 7+trial)
			if err != nil {
				t.Fatal(err)
			}
			if trial == 0 {
				ran, err := shared.SharePrefix(p.IDs[:p.NeedleAt], length, m.Scaling)
				if err != nil {
					t.Fatal(err)
				}
				if want := p.NeedleAt / chunk * chunk; ran != want || ran == 0 {
					t.Fatalf("SharePrefix ran %d tokens of a prefix of %d in chunks of %d; want its whole chunks, %d", ran, p.NeedleAt, chunk, want)
				}
			}
			want, err := ScorePasskey(alone, p, m)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ScorePasskey(shared, p, m)
			if err != nil {
				t.Fatal(err)
			}
			d := math.Abs(want.NLL - got.NLL)
			t.Logf("%s, trial %d: %d tokens, needle at %d: answer NLL %.5f alone, %.5f after the shared prefix (Δ %.2g); greedy %v and %v",
				m.Name, trial, len(p.IDs), p.NeedleAt, want.NLL, got.NLL, d, want.Greedy, got.Greedy)
			if d > 1e-3 || !slices.Equal(want.Greedy, got.Greedy) {
				t.Errorf("%s, trial %d: the shared prefix changed the answer's NLL by %.3g or its greedy tokens", m.Name, trial, d)
			}
		}
	}
}
