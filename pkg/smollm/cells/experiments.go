package cells

import (
	"fmt"

	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/smollm"
)

// The lesson's experiments, each with the inputs it records. Every one
// returns the result, where it came from, and an error only when neither
// a live run nor the record can give it.

// passage returns the first n token ids of the passage (live runs only).
func (l *Lab) passage(n int) func() []int32 {
	return func() []int32 { return l.ids[:n] }
}

// plain returns the model as trained (no RoPE scaling).
func (l *Lab) plain() (*smollm.Model, error) {
	return smollm.New(l.backend, l.weights, posenc.Scaling{})
}

// tokensParams are the inputs of an experiment on the passage's first
// Tokens tokens.
type tokensParams struct {
	Text   string `json:"text"`
	Tokens int    `json:"tokens"`
}

func passageParams(n int) tokensParams { return tokensParams{Text: "opticks: " + Passage, Tokens: n} }

// Layout is smollm.LayoutExperiment on 128 tokens: the GGUF rows and the
// Hugging Face rows, each rotated in adjacent pairs and in halves.
func (l *Lab) Layout() (smollm.LayoutLoss, Source, error) {
	return experiment(l, "layout", passageParams(128), l.passage(128), func() (smollm.LayoutLoss, error) {
		return smollm.LayoutExperiment(l.backend, l.weights, l.ids[:128])
	})
}

// RelativeShifts are the offsets Relative adds to every position.
var RelativeShifts = []int{1000, 7000}

// Relative is smollm.RelativeExperiment on 128 tokens: shifted by
// RelativeShifts, strided by 4 with and without PI ×4, all at 0.
func (l *Lab) Relative() (smollm.RelativeResult, Source, error) {
	params := struct {
		tokensParams
		Shifts []int `json:"shifts"`
	}{passageParams(128), RelativeShifts}
	return experiment(l, "relative", params, l.passage(128), func() (smollm.RelativeResult, error) {
		return smollm.RelativeExperiment(l.backend, l.weights, l.ids[:128], RelativeShifts)
	})
}

// Padding and packing: a 48-token prompt padded by 16, and a 32-token
// document packed before it.
const (
	PromptTokens = 48
	PadTokens    = 16
	FirstDoc     = 32
)

// Padding is smollm.PaddingExperiment: the passage's first PromptTokens
// tokens padded by PadTokens <|endoftext|> on the left and on the right.
func (l *Lab) Padding() ([]smollm.Variant, Source, error) {
	params := struct {
		tokensParams
		Pad   int   `json:"pad"`
		PadID int32 `json:"pad_id"`
	}{passageParams(PromptTokens), PadTokens, smollm.EndOfText}
	return experiment(l, "padding", params, l.passage(PromptTokens), func() ([]smollm.Variant, error) {
		m, err := l.plain()
		if err != nil {
			return nil, err
		}
		return smollm.PaddingExperiment(m, l.ids[:PromptTokens], PadTokens, smollm.EndOfText)
	})
}

// Packing is smollm.PackingExperiment: tokens PromptTokens … +FirstDoc of
// the passage packed before its first PromptTokens, which are measured.
func (l *Lab) Packing() ([]smollm.Variant, Source, error) {
	params := struct {
		tokensParams
		FirstDoc int `json:"first_doc"`
	}{passageParams(PromptTokens + FirstDoc), FirstDoc}
	return experiment(l, "packing", params, l.passage(PromptTokens+FirstDoc), func() ([]smollm.Variant, error) {
		m, err := l.plain()
		if err != nil {
			return nil, err
		}
		return smollm.PackingExperiment(m, l.ids[PromptTokens:PromptTokens+FirstDoc], l.ids[:PromptTokens])
	})
}

// Probe is smollm.ProbeLayers on 128 tokens: attention to the first token
// and the rotary pairs' norms, per layer.
func (l *Lab) Probe() (smollm.LayerProbe, Source, error) {
	return experiment(l, "probe", passageParams(128), l.passage(128), func() (smollm.LayerProbe, error) {
		m, err := l.plain()
		if err != nil {
			return smollm.LayerProbe{}, err
		}
		return smollm.ProbeLayers(m, l.ids[:128])
	})
}

// PrecisionOffsets are the first positions Precision runs 64 tokens at.
var PrecisionOffsets = []int{0, 2048, 4096, 8000}

// Precision is smollm.RotationPrecision on 64 tokens at PrecisionOffsets,
// with each of smollm.Roundings.
func (l *Lab) Precision() ([]smollm.PrecisionRow, Source, error) {
	var names []string
	for _, r := range smollm.Roundings {
		names = append(names, fmt.Sprintf("%s %+v", r.Name, r.Precision))
	}
	params := struct {
		tokensParams
		Offsets   []int    `json:"offsets"`
		Roundings []string `json:"roundings"`
	}{passageParams(64), PrecisionOffsets, names}
	return experiment(l, "precision", params, l.passage(64), func() ([]smollm.PrecisionRow, error) {
		return smollm.RotationPrecision(l.backend, l.weights, l.ids[:64], PrecisionOffsets, smollm.Roundings)
	})
}

// Answer is a question put to the model through its chat template and its
// greedy reply, generated with the KV cache.
type Answer struct {
	Question     string `json:"question"`
	PromptTokens int    `json:"prompt_tokens"`
	Reply        string `json:"reply"`
	ReplyTokens  int    `json:"reply_tokens"`
}

// Question is what Generate asks.
const Question = "What is the capital of France?"

// Generate asks Question and decodes up to 24 tokens greedily, stopping at
// <|im_end|>.
func (l *Lab) Generate() (Answer, Source, error) {
	params := struct {
		Question string `json:"question"`
		MaxNew   int    `json:"max_new"`
	}{Question, 24}
	var prompt []int32
	input := func() []int32 {
		if prompt == nil {
			prompt, _ = l.tok.Encode(smollm.ChatPrompt(Question)) // never fails: bpe's Encode has no error
		}
		return prompt
	}
	return experiment(l, "generate", params, input, func() (Answer, error) {
		prompt := input()
		m, err := l.plain()
		if err != nil {
			return Answer{}, err
		}
		out, err := m.Generate(prompt, params.MaxNew, smollm.ImEnd)
		if err != nil {
			return Answer{}, err
		}
		n := len(out)
		if n > 0 && out[n-1] == smollm.ImEnd {
			out = out[:n-1]
		}
		reply, err := l.tok.Decode(out)
		return Answer{Question: Question, PromptTokens: len(prompt), Reply: reply, ReplyTokens: n}, err
	})
}

// Stale is smollm.DynamicNTKStaleCache with its continuations decoded.
type Stale struct {
	smollm.StaleCache
	Prefill   string `json:"prefill_tail"` // the last words of the prefill
	StaleText string `json:"stale_text"`
	FreshText string `json:"fresh_text"`
}

// Dynamic NTK's stale cache: a pretend trained length of StaleTrained, so
// that the base changes within the passage, factor 2, a prefill of
// StalePrefill tokens and the rest of the passage scored; 8 tokens
// generated both ways.
const (
	StaleTrained = 64
	StalePrefill = 128
)

// StaleCache runs dynamic NTK with a stale cache and with the fix.
func (l *Lab) StaleCache() (Stale, Source, error) {
	params := struct {
		tokensParams
		Prefill  int     `json:"prefill"`
		Original int     `json:"original_len"`
		Factor   float64 `json:"factor"`
		Gen      int     `json:"gen"`
	}{passageParams(PassageTokens), StalePrefill, StaleTrained, 2, 8}
	return experiment(l, "stale-cache", params, l.passage(PassageTokens), func() (Stale, error) {
		sc, err := smollm.DynamicNTKStaleCache(l.backend, l.weights, l.ids, params.Prefill, params.Original, params.Factor, params.Gen)
		if err != nil {
			return Stale{}, err
		}
		s := Stale{StaleCache: sc}
		if s.Prefill, err = l.tok.Decode(l.ids[StalePrefill-8 : StalePrefill]); err != nil {
			return s, err
		}
		if s.StaleText, err = l.tok.Decode(sc.StaleGen); err != nil {
			return s, err
		}
		s.FreshText, err = l.tok.Decode(sc.FreshGen)
		return s, err
	})
}

// ShortPrompt is smollm.ShortPromptCost on 128 tokens: what static
// scalings cost a prompt that never needed them.
func (l *Lab) ShortPrompt() ([]smollm.ScalingCost, Source, error) {
	return experiment(l, "short-prompt", passageParams(128), l.passage(128), func() ([]smollm.ScalingCost, error) {
		return smollm.ShortPromptCost(l.backend, l.weights, l.ids[:128])
	})
}
