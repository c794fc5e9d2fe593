package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posgraph"
	"github.com/posenc/course/pkg/smollm"
)

// modelCommands are the subcommands of "posenc model", which run
// SmolLM2-135M-Instruct (downloaded by make model) on the GoMLX backend
// posgraph chooses.
var modelCommands = []command{
	{"model score", "mean next-token NLL of SmolLM2-135M on the first N tokens of a text file", defineModelScore},
	{"model generate", "SmolLM2-135M-Instruct's greedy answer to a message", defineModelGenerate},
}

// newTokenizer returns SmolLM2's tokenizer, read from the GGUF file at
// path. It is nil until the byte-level BPE is in the course; until then
// the text paths say so, and -ids takes token ids instead of text.
var newTokenizer func(path string) (smollm.Tokenizer, error)

var errNoTokenizer = errors.New("the SmolLM2 tokenizer is not available in this build yet: give token ids with -ids")

// runModel runs "posenc model SUBCOMMAND …". Progress goes to stderr.
func runModel(args []string, stdout, stderr io.Writer) int {
	names := "score, generate"
	if len(args) == 0 {
		fmt.Fprintf(stderr, "posenc model: missing subcommand (one of %s)\n", names)
		return exitUsage
	}
	c, ok := findCommand("model " + args[0])
	if !ok {
		if h := args[0]; h == "help" || h == "-h" || h == "-help" || h == "--help" {
			return writeOut(stdout, stderr, "posenc model", modelUsage)
		}
		fmt.Fprintf(stderr, "posenc model: unknown subcommand %s (one of %s)\n", quote(args[0]), names)
		return exitUsage
	}
	return runCommand(c, args[1:], stdout, stderr)
}

func modelUsage(w io.Writer) error {
	fmt.Fprintf(w, "posenc model runs SmolLM2-135M-Instruct (make model downloads it) on the course's RoPE.\n\nSubcommands:\n")
	for _, c := range modelCommands {
		fmt.Fprintf(w, "  %-15s  %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun 'posenc model <subcommand> -help' for its flags.\n")
	return nil
}

// parseScaling reads -scaling KIND[:FACTOR] for a model trained on
// trainedLen positions that will run seqLen.
func parseScaling(s string, trainedLen, seqLen int) (posenc.Scaling, error) {
	name, factorText, hasFactor := strings.Cut(s, ":")
	kind, err := posenc.ParseScalingKind(name)
	if err != nil {
		return posenc.Scaling{}, usagef("-scaling %s: kind must be one of none, linear, ntk, dynamic, yarn, llama3, proportional", quote(s))
	}
	if kind == posenc.ScalingNone {
		if hasFactor {
			return posenc.Scaling{}, usagef("-scaling %s: none takes no factor", quote(s))
		}
		return posenc.Scaling{}, nil
	}
	if !hasFactor {
		return posenc.Scaling{}, usagef("-scaling %s: want KIND:FACTOR, e.g. yarn:2", quote(s))
	}
	factor, err := parseFinite(factorText)
	if err != nil {
		return posenc.Scaling{}, usagef("-scaling %s: factor %s", quote(s), err)
	}
	var sc posenc.Scaling
	switch kind {
	case posenc.ScalingLinear:
		sc = posenc.LinearScaling(factor)
	case posenc.ScalingNTK:
		sc = posenc.NTKScaling(factor)
	case posenc.ScalingDynamic:
		sc = posenc.DynamicNTKScaling(factor, trainedLen, seqLen)
	case posenc.ScalingYaRN:
		sc = posenc.YaRNScaling(factor, trainedLen)
	case posenc.ScalingLlama3:
		sc = posenc.Llama3Scaling(factor, trainedLen)
	case posenc.ScalingProportional:
		sc = posenc.ProportionalScaling(factor) // FACTOR: the proportion of pairs that rotate
	default:
		return posenc.Scaling{}, usagef("-scaling %s: %s needs per-pair factors that a flag cannot give", quote(s), kind)
	}
	if err := posenc.NewRoPE(64).WithScaling(sc).Validate(); err != nil {
		var pe *posenc.ParamError
		if errors.As(err, &pe) {
			return posenc.Scaling{}, usagef("-scaling %s: %s %s, got %v", quote(s), pe.Param, pe.Reason, pe.Value)
		}
		return posenc.Scaling{}, usagef("-scaling %s: %v", quote(s), err)
	}
	return sc, nil
}

// loadModel finds, reads and places the model on the backend, saying on
// progress which backend runs it.
func loadModel(path string, progress io.Writer, scaling string, seqLen int) (*smollm.Model, error) {
	w, err := smollm.Load(path)
	if err != nil {
		return nil, err
	}
	sc, err := parseScaling(scaling, w.ContextLen, seqLen)
	if err != nil {
		return nil, err
	}
	backend, err := posgraph.NewBackend()
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(progress, "%s\n", posgraph.BackendSummary())
	return smollm.New(backend, w, sc)
}

// readIDs parses whitespace- or comma-separated token ids.
func readIDs(text, what string) ([]int32, error) {
	fields := strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' || r == '\r' })
	ids := make([]int32, 0, len(fields))
	for _, s := range fields {
		v, err := strconv.ParseInt(s, 10, 32)
		if err != nil || v < 0 {
			return nil, usagef("%s: %s is not a token id", what, quote(s))
		}
		ids = append(ids, int32(v))
	}
	return ids, nil
}

func defineModelScore(f *flags) func(io.Writer) error {
	f.synopsis = "FILE -tokens N [-scaling KIND:FACTOR] [-range R] [-ids] [-json]"
	f.positional = "FILE"
	tokens := f.Int("tokens", 0, "score the first `N` tokens of FILE, from position 0")
	f.Require("tokens")
	scaling := f.String("scaling", "none", "RoPE scaling `KIND:FACTOR`: none, linear:S, ntk:S, dynamic:S, yarn:S, llama3:S\n(trained length 8192), proportional:P")
	width := f.Int("range", 1024, "report the NLL over position ranges of `R` tokens")
	ids := f.Bool("ids", false, "FILE holds token ids (whitespace- or comma-separated), not text")
	asJSON := f.JSON()
	f.notes = []string{
		"Prints the mean negative log-likelihood per token, in nats, over the N−1 predictions of\n" +
			"tokens 2…N, and the same by range of predicted positions. Needs make model.\n" +
			"JSON: {\"nll\": x, \"tokens\": N, \"scaling\": \"KIND:FACTOR\", \"backend\": \"…\", \"seconds\": t,\n" +
			"\"ranges\": [{\"from\": p, \"to\": q, \"nll\": y}, …]} (positions p…q−1).",
	}
	f.examples = []string{
		"posenc model score pkg/lab/corpus/go-docs.txt -tokens 512",
		"posenc model score book.txt -tokens 16384 -scaling yarn:2 -json",
	}
	progress := f.progress
	return func(w io.Writer) error {
		n := *tokens
		if n < 2 {
			return usagef("-tokens must be at least 2, got %d", n)
		}
		if *width < 1 {
			return usagef("-range must be positive, got %d", *width)
		}
		if _, err := parseScaling(*scaling, 8192, n); err != nil {
			return err
		}
		data, err := os.ReadFile(f.arg)
		if err != nil {
			return usagef("FILE %s: %v", quote(f.arg), errors.Unwrap(err))
		}
		if !*ids && newTokenizer == nil {
			return errNoTokenizer
		}
		start := time.Now()
		path, err := smollm.Find()
		if err != nil {
			return err
		}
		var all []int32
		if *ids {
			if all, err = readIDs(string(data), "FILE "+quote(f.arg)); err != nil {
				return err
			}
		} else {
			tok, err := newTokenizer(path)
			if err != nil {
				return err
			}
			if all, err = tok.Encode(string(data)); err != nil {
				return err
			}
		}
		if len(all) < n {
			return usagef("-tokens %d: FILE %s has only %d tokens", n, quote(f.arg), len(all))
		}
		m, err := loadModel(path, progress, *scaling, n)
		if err != nil {
			return err
		}
		m.Progress = func(done, total int) {
			fmt.Fprintf(progress, "posenc model score: %d/%d tokens, %.0f s\n", done, total, time.Since(start).Seconds())
		}
		nll, err := m.Score(all[:n])
		if err != nil {
			return err
		}
		return writeScore(w, nll, *width, *scaling, posgraph.BackendSummary(), time.Since(start).Seconds(), *asJSON)
	}
}

// scoreRange is the mean NLL of the predictions of positions From…To−1.
type scoreRange struct {
	From, To int
	NLL      float64
}

// writeScore prints the mean NLL and the NLL by range; nll[i] is the loss
// of predicting position i+1.
func writeScore(w io.Writer, nll []float32, width int, scaling, backend string, seconds float64, asJSON bool) error {
	mean := 0.0
	for _, v := range nll {
		mean += float64(v)
	}
	mean /= float64(len(nll))
	var ranges []scoreRange
	for lo := 0; lo < len(nll)+1; lo += width {
		hi := min(lo+width, len(nll)+1)
		s, k := 0.0, 0
		for p := max(lo, 1); p < hi; p++ {
			s += float64(nll[p-1])
			k++
		}
		if k > 0 {
			ranges = append(ranges, scoreRange{lo, hi, s / float64(k)})
		}
	}
	if asJSON {
		b := []byte(`{"nll": `)
		b = appendNumber(b, mean, 64)
		b = fmt.Appendf(b, `, "tokens": %d, "scaling": %s, "backend": %s, "seconds": %.1f, "ranges": [`,
			len(nll)+1, strconv.Quote(scaling), strconv.Quote(backend), seconds)
		for i, r := range ranges {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = fmt.Appendf(b, `{"from": %d, "to": %d, "nll": `, r.From, r.To)
			b = appendNumber(b, r.NLL, 64)
			b = append(b, '}')
		}
		b = append(b, "]}\n"...)
		_, err := w.Write(b)
		return err
	}
	fmt.Fprintf(w, "mean NLL %.4f nats/token over %d predictions (scaling %s, %.1f s)\n\n", mean, len(nll), scaling, seconds)
	return writeTable(w, []string{"positions", "nll"}, len(ranges), func(r, c int) string {
		if c == 0 {
			return fmt.Sprintf("%d–%d", ranges[r].From, ranges[r].To-1)
		}
		if math.IsNaN(ranges[r].NLL) {
			return "NaN"
		}
		return fmt.Sprintf("%.4f", ranges[r].NLL)
	})
}

func defineModelGenerate(f *flags) func(io.Writer) error {
	f.synopsis = "TEXT [-max-tokens 64] [-raw] [-ids] [-scaling KIND:FACTOR] [-json]"
	f.positional = "TEXT"
	maxTokens := f.Int("max-tokens", 64, "stop after `N` new tokens")
	raw := f.Bool("raw", false, "continue TEXT as it is, without the chat template")
	ids := f.Bool("ids", false, "TEXT is token ids (whitespace- or comma-separated), given as they are; prints ids")
	scaling := f.String("scaling", "none", "RoPE scaling `KIND:FACTOR`, as for model score")
	asJSON := f.JSON()
	f.notes = []string{
		"Greedy decoding with the key/value cache: the prompt is prefilled, then one token per step,\n" +
			"until <|im_end|> or -max-tokens. Without -raw, TEXT is the user's message in SmolLM2's\n" +
			"chat template. JSON: {\"ids\": […], \"text\": \"…\"}.",
	}
	f.examples = []string{
		`posenc model generate "What is a rotary position embedding?"`,
		"posenc model generate -ids '1 9690 198' -max-tokens 8",
	}
	progress := f.progress
	return func(w io.Writer) error {
		if *maxTokens < 1 {
			return usagef("-max-tokens must be positive, got %d", *maxTokens)
		}
		if _, err := parseScaling(*scaling, 8192, 1); err != nil {
			return err
		}
		var prompt []int32
		var tok smollm.Tokenizer
		if *ids {
			var err error
			if prompt, err = readIDs(f.arg, "TEXT"); err != nil {
				return err
			}
			if len(prompt) == 0 {
				return usagef("TEXT holds no token ids")
			}
		} else if newTokenizer == nil {
			return errNoTokenizer
		}
		path, err := smollm.Find()
		if err != nil {
			return err
		}
		if !*ids {
			if tok, err = newTokenizer(path); err != nil {
				return err
			}
			text := f.arg
			if !*raw {
				text = smollm.ChatPrompt(text)
			}
			if prompt, err = tok.Encode(text); err != nil {
				return err
			}
		}
		m, err := loadModel(path, progress, *scaling, 0)
		if err != nil {
			return err
		}
		out, err := m.Generate(prompt, *maxTokens, smollm.ImEnd, smollm.EndOfText)
		if err != nil {
			return err
		}
		text := ""
		if tok != nil {
			if text, err = tok.Decode(out); err != nil {
				return err
			}
		}
		if *asJSON {
			b := []byte(`{"ids": [`)
			for i, id := range out {
				if i > 0 {
					b = append(b, ", "...)
				}
				b = strconv.AppendInt(b, int64(id), 10)
			}
			b = fmt.Appendf(b, "], \"text\": %s}\n", strconv.Quote(text))
			_, err := w.Write(b)
			return err
		}
		if tok == nil {
			parts := make([]string, len(out))
			for i, id := range out {
				parts[i] = strconv.Itoa(int(id))
			}
			_, err := fmt.Fprintln(w, strings.Join(parts, " "))
			return err
		}
		_, err = fmt.Fprintln(w, text)
		return err
	}
}
