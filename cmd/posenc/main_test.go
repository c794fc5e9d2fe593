package main

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"
)

// runCLI runs the command line in-process and returns its exit status,
// stdout and stderr.
func runCLI(t testing.TB, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// mustRun runs a command line that must succeed and returns its stdout.
func mustRun(t testing.TB, args ...string) string {
	t.Helper()
	code, out, errOut := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("posenc %s: exit %d, stderr %q; want 0", strings.Join(args, " "), code, errOut)
	}
	if errOut != "" {
		t.Errorf("posenc %s: stderr %q; want empty", strings.Join(args, " "), errOut)
	}
	return out
}

// checkUsageError checks the contract for bad command lines: exit status 2,
// nothing on stdout, exactly one line on stderr that names want, and no
// trace of a panic.
func checkUsageError(t *testing.T, args []string, want string) {
	t.Helper()
	code, out, errOut := runCLI(t, args...)
	if code != 2 {
		t.Errorf("exit status %d; want 2 (stderr %q)", code, errOut)
	}
	if out != "" {
		t.Errorf("stdout %q; want empty", out)
	}
	if !strings.HasSuffix(errOut, "\n") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("stderr %q; want exactly one line", errOut)
	}
	if !strings.Contains(errOut, want) {
		t.Errorf("stderr %q; want it to contain %q", errOut, want)
	}
	for _, bad := range []string{"goroutine", "panic", "runtime error"} {
		if strings.Contains(errOut, bad) {
			t.Errorf("stderr %q contains %q", errOut, bad)
		}
	}
}

func TestBadInputs(t *testing.T) {
	tests := []struct {
		name string
		args string
		want string // text the one-line message must contain, usually the flag
	}{
		{"no command", "", "missing command"},
		{"unknown command", "frobnicate", `unknown command "frobnicate" (commands: sinusoidal, rope-freqs, rope, alibi, t5-bucket, plot, config, model, help)`},
		{"help of unknown command", "help frobnicate", "unknown command"},
		{"help with two names", "help rope alibi", "one command name"},

		// Flags are spelled as the flag package spells them, -name, in
		// every message; --name on the command line is the same flag.
		{"odd dim", "sinusoidal --len 4 --dim 7", "posenc sinusoidal: -dim must be even, got 7"},
		{"zero dim", "sinusoidal --len 4 --dim 0", "-dim must be positive, got 0"},
		{"negative len", "sinusoidal --len -3 --dim 4", "-len must be positive, got -3"},
		{"missing len", "sinusoidal --dim 4", "-len is required"},
		{"missing dim", "sinusoidal --len 4", "-dim is required"},
		{"missing dim, single dash", "sinusoidal -len 4", "-dim is required"},

		// The flag package's own messages for values that do not parse.
		{"len not a number", "sinusoidal --len four --dim 4", `invalid value "four" for flag -len: parse error`},
		{"len a float", "sinusoidal --len 4.5 --dim 4", `invalid value "4.5" for flag -len: parse error`},
		{"len out of range", "sinusoidal --len 99999999999999999999 --dim 4", `invalid value "99999999999999999999" for flag -len: value out of range`},
		{"len too large", "sinusoidal --len 100000000 --dim 4", "-len is too large"},
		{"base 1", "sinusoidal --len 4 --dim 4 --base 1", "-base must be > 1, got 1"},
		{"base not a number", "sinusoidal --len 4 --dim 4 --base ten", `invalid value "ten" for flag -base: not a finite number`},
		{"base NaN", "sinusoidal --len 4 --dim 4 --base NaN", `invalid value "NaN" for flag -base: not a finite number`},
		{"base Inf", "sinusoidal --len 4 --dim 4 --base +Inf", `invalid value "+Inf" for flag -base: not a finite number`},
		{"base overflow", "sinusoidal --len 4 --dim 4 --base 1e999", `invalid value "1e999" for flag -base: not a finite number`},
		{"negative start", "sinusoidal --len 4 --dim 4 --start -1", "-start must be >= 0, got -1"},
		{"start past 2^40", "sinusoidal --len 4 --dim 4 --start 1099511627775", "-start"},
		{"unknown layout", "sinusoidal --len 4 --dim 4 --layout halves", `invalid value "halves" for flag -layout: want interleaved or concat`},
		{"unknown dtype", "sinusoidal --len 4 --dim 4 --dtype float16", `invalid value "float16" for flag -dtype: want float32 or float64`},
		{"unknown flag", "sinusoidal --len 4 --dim 4 --colour", "flag provided but not defined: -colour"},
		{"unknown flag with a line break", "sinusoidal --len 4 --dim 4 --col\nour", "flag provided but not defined: -col our"},
		{"three dashes", "sinusoidal ---len 4 --dim 4", "bad flag syntax: ---len"},
		{"flag without value", "sinusoidal --dim 4 --len", "flag needs an argument: -len"},
		{"leftover argument", "sinusoidal --len 4 --dim 4 extra", `unexpected argument "extra"`},
		{"leftover after --", "sinusoidal --len 4 --dim 4 -- true", `unexpected argument "true"`},
		{"bad json value", "sinusoidal --len 4 --dim 4 --json=maybe", `invalid boolean value "maybe" for -json: parse error`},
		{"boolean json with space", "sinusoidal --len 4 --dim 4 --json true", "(boolean flags take the form -json=true)"},
		{"newline in value", "sinusoidal --len 4\n5 --dim 4", `invalid value "4\n5" for flag -len: parse error`},

		{"rope-freqs missing dim", "rope-freqs", "-dim is required"},
		{"rope-freqs odd dim", "rope-freqs --dim 7", "-dim must be even, got 7"},
		{"rope-freqs huge dim", "rope-freqs --dim 1000000000", "-dim must be at most"},
		{"rope-freqs base 1", "rope-freqs --dim 8 --base 1", "-base must be > 1"},
		{"unknown scaling", "rope-freqs --dim 8 --scaling ntk-by-parts", `invalid value "ntk-by-parts" for flag -scaling: want none, linear, ntk, dynamic, yarn or llama3`},
		{"scaling without factor", "rope-freqs --dim 8 --scaling linear", "-factor is required with -scaling linear"},
		{"NaN factor", "rope-freqs --dim 8 --scaling linear --factor NaN", `invalid value "NaN" for flag -factor: not a finite number`},
		{"factor below 1", "rope-freqs --dim 8 --scaling ntk --factor 0.5", "-factor must be >= 1, got 0.5"},
		{"zero factor", "rope-freqs --dim 8 --scaling ntk --factor 0", "-factor must be >= 1, got 0"},
		{"factor without scaling", "rope-freqs --dim 8 --factor 2", "-factor applies only to -scaling"},
		{"ntk on two dims", "rope-freqs --dim 2 --scaling ntk --factor 2", "-dim must be > 2 for NTK scaling"},
		{"ntk on two rotary dims", "rope-freqs --dim 8 --rotary-dim 2 --scaling ntk --factor 2", "-rotary-dim must be > 2"},
		{"yarn without orig-len", "rope-freqs --dim 8 --scaling yarn --factor 4", "-orig-len is required with -scaling yarn"},
		{"negative orig-len", "rope-freqs --dim 8 --scaling llama3 --factor 4 --orig-len -5", "-orig-len must be positive"},
		{"negative seq-len", "rope-freqs --dim 8 --scaling dynamic --factor 2 --orig-len 16 --seq-len -1", "-seq-len must be >= 0"},
		{"beta for linear", "rope-freqs --dim 8 --scaling linear --factor 2 --beta-fast 16", "-beta-fast applies only to -scaling yarn"},
		{"beta-fast below beta-slow", "rope-freqs --dim 8 --scaling yarn --factor 2 --orig-len 16 --beta-fast 0.5", "-beta-fast must be greater than -beta-slow"},
		{"zero beta-slow", "rope-freqs --dim 8 --scaling yarn --factor 2 --orig-len 16 --beta-slow 0", "-beta-slow must be > 0"},
		{"negative attention factor", "rope-freqs --dim 8 --scaling yarn --factor 2 --orig-len 16 --attention-factor -1", "-attention-factor"},
		{"high below low", "rope-freqs --dim 8 --scaling llama3 --factor 8 --orig-len 64 --high-freq-factor 0.5", "-high-freq-factor must be greater than -low-freq-factor"},
		{"rotary-dim too large", "rope-freqs --dim 8 --rotary-dim 10", "-rotary-dim must be between 0 and -dim (8), got 10"},
		{"odd rotary-dim", "rope-freqs --dim 8 --rotary-dim 3", "-rotary-dim must be even, got 3"},

		{"x not a number", "rope --x 1,abc,3,4 --pos 1", `invalid value "1,abc,3,4" for flag -x: element 1, "abc", is not a finite number`},
		{"x empty element", "rope --x 1,,3,4 --pos 1", `for flag -x: element 1, "", is not a finite number`},
		{"x NaN", "rope --x 1,NaN --pos 1", `for flag -x: element 1, "NaN", is not a finite number`},
		{"x odd length", "rope --x 1,2,3 --pos 1", "-x must have an even number of values"},
		{"missing x", "rope --pos 1", "-x is required"},
		{"missing pos", "rope --x 1,2", "-pos is required"},
		{"negative pos", "rope --x 1,2 --pos -1", "-pos must be >= 0, got -1"},
		{"pos past 2^40", "rope --x 1,2 --pos 2000000000000", "-pos"},
		{"rope layout", "rope --x 1,2 --pos 1 --layout concat", `invalid value "concat" for flag -layout: want interleaved or half`},
		{"rope rotary-dim", "rope --x 1,2,3,4 --pos 1 --rotary-dim 6", "-rotary-dim must be between 0 and -x (4), got 6"},
		{"rope base", "rope --x 1,2 --pos 1 --base 0.5", "-base must be > 1"},

		{"missing heads", "alibi", "-heads is required"},
		{"zero heads", "alibi --heads 0", "-heads must be positive, got 0"},
		{"too many heads", "alibi --heads 70000", "-heads must be <= 65536"},
		{"alibi negative len", "alibi --heads 4 --len -2", "-len must be positive, got -2"},
		{"alibi huge bias", "alibi --heads 64 --len 100000", "-len is too large"},
		{"causal without len", "alibi --heads 4 --causal", "-causal needs -len"},

		{"missing rel", "t5-bucket", "-rel is required"},
		{"rel not a number", "t5-bucket --rel x", `invalid value "x" for flag -rel: parse error`},
		{"too few buckets", "t5-bucket --rel 1 --buckets 2", "-buckets must be >= 4, got 2"},
		{"max-distance too small", "t5-bucket --rel 1 --max-distance 8", "-max-distance must be > max_exact (8), got 8"},
		{"rel too far", "t5-bucket --rel 2000000000000", "-rel must be within ±2^40"},
		{"boolean with space", "t5-bucket --rel 1 --bidirectional false", `unexpected argument "false" (boolean flags take the form -bidirectional=false)`},
		{"bad boolean value", "t5-bucket --rel 1 --bidirectional=no", `invalid boolean value "no" for -bidirectional: parse error`},

		{"plot missing kind", "plot --len 4 -o x.png", "-kind is required"},
		{"plot unknown kind", "plot --kind learned --len 4 -o x.png", `invalid value "learned" for flag -kind: want sinusoidal, rope, alibi or t5`},
		{"plot missing output", "plot --kind t5 --len 4", "-o is required"},
		{"plot bad extension", "plot --kind t5 --len 4 -o x.jpg", `-o must end in .png or .svg, got "x.jpg"`},
		{"plot missing len", "plot --kind t5 -o x.png", "-len is required"},
		{"plot zero len", "plot --kind t5 --len 0 -o x.png", "-len must be positive"},
		{"plot sinusoidal without dim", "plot --kind sinusoidal --len 4 -o x.png", "-dim is required with -kind sinusoidal"},
		{"plot odd dim", "plot --kind sinusoidal --len 4 --dim 5 -o x.png", "-dim must be even, got 5"},
		{"plot flag for another kind", "plot --kind t5 --len 4 --heads 2 -o x.png", "-heads applies only to -kind alibi"},
		{"plot alibi without heads", "plot --kind alibi --len 4 -o x.png", "-heads is required with -kind alibi"},
		{"plot alibi head out of range", "plot --kind alibi --heads 4 --head 4 --len 4 -o x.png", "-head must be -1 (all) or in [0, 4), got 4"},
		{"plot too many cells", "plot --kind rope --len 100000 --dim 64 -o x.png", "-len is too large"},
		{"plot rope scaling", "plot --kind rope --len 4 --dim 8 --scaling yarn --factor 2 -o x.png", "-orig-len is required"},
		{"plot rope value", "plot --kind rope --len 4 --dim 8 --value sin -o x.png", `invalid value "sin" for flag -value: want cos or angle`},
		{"plot negative start", "plot --kind rope --len 4 --dim 8 --start -3 -o x.png", "-start must be in [0, 2^40]"},
		{"plot width", "plot --kind t5 --len 4 --width 0 -o x.png", "-width must be in (0, 500] cm"},
		{"plot NaN height", "plot --kind t5 --len 4 --height NaN -o x.png", `invalid value "NaN" for flag -height: not a finite number`},
		{"plot t5 buckets", "plot --kind t5 --len 4 --buckets 1 -o x.png", "-buckets must be >= 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var args []string
			if tt.args != "" {
				args = strings.Split(tt.args, " ")
			}
			checkUsageError(t, args, tt.want)
		})
	}
}

func TestHelp(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"help"}, []string{"Usage:", "sinusoidal", "rope-freqs", "rope", "alibi", "t5-bucket", "plot"}},
		{[]string{"--help"}, []string{"Usage:"}},
		{[]string{"help", "alibi"}, []string{"posenc alibi", "  -heads H\n", "written as null", "Examples:"}},
		{[]string{"sinusoidal", "--help"}, []string{"  -len N\n", "number of positions N (table rows) (required)",
			"  -dim D\n", "  -start P\n", "  -base B\n", "(default 10000)", "  -layout interleaved|concat\n",
			"(default interleaved)", "  -dtype float32|float64\n", "  -json\n", "posenc sinusoidal -len 4 -dim 4"}},
		{[]string{"sinusoidal", "-help"}, []string{"Usage:", "  -len N\n"}},
		{[]string{"rope-freqs", "-h"}, []string{"  -dim D\n", "  -rotary-dim R\n", "  -scaling KIND\n", "  -factor S\n",
			"  -orig-len L\n", "  -seq-len L\n", "  -beta-fast F\n", "  -beta-slow F\n", "  -attention-factor A\n",
			"  -low-freq-factor F\n", "  -high-freq-factor F\n", "none, linear, ntk, dynamic, yarn or llama3 (default none)", "Examples:"}},
		{[]string{"rope", "--help"}, []string{"  -x v1,v2,...\n", "  -pos P\n", "  -layout interleaved|half\n", "Examples:"}},
		{[]string{"alibi", "--help"}, []string{"  -heads H\n", "  -len N\n", "  -causal\n", "causal −Inf entries are written as null"}},
		{[]string{"t5-bucket", "--help"}, []string{"  -rel R\n", "  -buckets N\n", "  -max-distance M\n", "  -bidirectional\n",
			"for a causal decoder (default true)", "Examples:"}},
		{[]string{"plot", "--help"}, []string{"  -kind sinusoidal|rope|alibi|t5\n", "  -o FILE\n", "  -head h\n",
			"  -value cos|angle\n", "  -width CM\n", "Examples:"}},
		// Help wins over the flags before it.
		{[]string{"sinusoidal", "--len", "4", "--help"}, []string{"Usage:"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out := mustRun(t, tt.args...)
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("help output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestFlagPlaceholders checks that every flag's help names its value with
// a backquoted placeholder rather than the flag package's generic "int" or
// "value", and that each choice flag's help lists its choices, as the
// placeholder (a|b) or in words (a or b).
func TestFlagPlaceholders(t *testing.T) {
	for _, c := range append(commands, modelCommands...) {
		if c.define == nil { // model: its subcommands are in modelCommands
			continue
		}
		f := newFlags(c.name)
		c.define(f)
		f.VisitAll(func(fl *flag.Flag) {
			name, usage := flag.UnquoteUsage(fl)
			if b, ok := fl.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				if name != "" {
					t.Errorf("%s -%s: boolean flag with placeholder %q", c.name, fl.Name, name)
				}
				return
			}
			if !strings.Contains(fl.Usage, "`") {
				t.Errorf("%s -%s: placeholder %q; want a backquoted name in %q", c.name, fl.Name, name, fl.Usage)
			}
			if ch, ok := fl.Value.(*choice); ok {
				if bar := strings.Join(ch.choices, "|"); name != bar && !strings.Contains(usage, orList(ch.choices)) {
					t.Errorf("%s -%s: help %q lists neither %q nor %q", c.name, fl.Name, usage, bar, orList(ch.choices))
				}
			}
		})
	}
}

// TestFlagSpellings checks that -name, --name, -name=v and --name=v are the
// same flag, as the flag package parses them.
func TestFlagSpellings(t *testing.T) {
	want := mustRun(t, "sinusoidal", "-len", "3", "-dim", "4", "-json")
	for _, args := range [][]string{
		{"sinusoidal", "--len", "3", "--dim", "4", "--json"},
		{"sinusoidal", "-len=3", "--dim=4", "-json=true"},
		{"sinusoidal", "--json", "--len=3", "-dim", "4", "-layout=interleaved"},
	} {
		if got := mustRun(t, args...); got != want {
			t.Errorf("posenc %s:\n%s\nwant:\n%s", strings.Join(args, " "), got, want)
		}
	}
}

// failingWriter fails every write, like a closed pipe.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestWriteFailureExits1(t *testing.T) {
	var errOut bytes.Buffer
	code := run([]string{"sinusoidal", "--len", "4", "--dim", "4"}, failingWriter{}, &errOut)
	if code != 1 {
		t.Errorf("exit status %d; want 1", code)
	}
	if got := errOut.String(); !strings.Contains(got, "broken pipe") || strings.Count(got, "\n") != 1 {
		t.Errorf("stderr %q; want one line mentioning the write error", got)
	}
}
