package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/posenc/course/pkg/posenc"
)

// usageError is a problem with the command line: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// errHelp asks for the subcommand's usage on stdout (exit status 0).
var errHelp = errors.New("help requested")

// flagSpec describes one flag for the usage text.
type flagSpec struct {
	name     string
	arg      string // placeholder for its value, "" for a boolean
	help     string
	def      string // default shown in the usage, "" for none
	required bool
}

// flags wraps one flag.FlagSet per subcommand. Its values report their own
// parse errors, naming the flag, so that every message is one line in the
// same style ("--dim must be even, got 7").
type flags struct {
	cmd      string
	fs       *flag.FlagSet
	specs    []flagSpec
	synopsis string   // after "posenc <cmd> "
	notes    []string // paragraphs after the flag list
	examples []string // full command lines
	set      map[string]bool
	err      error // first error returned by a value's Set
}

func newFlags(cmd string) *flags {
	fs := flag.NewFlagSet("posenc "+cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &flags{cmd: cmd, fs: fs, set: map[string]bool{}}
}

func (f *flags) prefix() string { return "posenc " + f.cmd }

// dash returns the flag as the usage spells it: -o for plot's output file,
// --name for the others.
func dash(name string) string {
	if name == "o" {
		return "-" + name
	}
	return "--" + name
}

func (f *flags) add(v flag.Value, spec flagSpec) {
	f.fs.Var(v, spec.name, spec.help)
	f.specs = append(f.specs, spec)
}

func (f *flags) fail(err error) error {
	if f.err == nil {
		f.err = err
	}
	return err
}

// intValue parses a decimal integer.
type intValue struct {
	f    *flags
	name string
	p    *int
}

func (v *intValue) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.Itoa(*v.p)
}

func (v *intValue) Set(s string) error {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 0)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return v.f.fail(usagef("%s is out of range, got %s", dash(v.name), quote(s)))
		}
		return v.f.fail(usagef("%s must be an integer, got %s", dash(v.name), quote(s)))
	}
	*v.p = int(n)
	return nil
}

// Int defines an integer flag.
func (f *flags) Int(name, arg string, def int, help string) *int {
	p := new(int)
	*p = def
	f.add(&intValue{f, name, p}, flagSpec{name: name, arg: arg, help: help, def: strconv.Itoa(def)})
	return p
}

// RequiredInt defines an integer flag that must be given.
func (f *flags) RequiredInt(name, arg, help string) *int {
	p := new(int)
	f.add(&intValue{f, name, p}, flagSpec{name: name, arg: arg, help: help, required: true})
	return p
}

// floatValue parses a finite floating-point number: NaN and ±Inf are never
// meaningful configuration values.
type floatValue struct {
	f    *flags
	name string
	p    *float64
}

func (v *floatValue) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.FormatFloat(*v.p, 'g', -1, 64)
}

func (v *floatValue) Set(s string) error {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return v.f.fail(usagef("%s must be a number, got %s", dash(v.name), quote(s)))
	}
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return v.f.fail(usagef("%s must be a finite number, got %s", dash(v.name), quote(s)))
	}
	*v.p = x
	return nil
}

// Float defines a finite float flag.
func (f *flags) Float(name, arg string, def float64, help string) *float64 {
	p := new(float64)
	*p = def
	f.add(&floatValue{f, name, p}, flagSpec{name: name, arg: arg, help: help, def: strconv.FormatFloat(def, 'g', -1, 64)})
	return p
}

// boolValue is a boolean flag: --name or --name=true|false.
type boolValue struct {
	f    *flags
	name string
	p    *bool
}

func (v *boolValue) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.FormatBool(*v.p)
}

func (v *boolValue) IsBoolFlag() bool { return true }

func (v *boolValue) Set(s string) error {
	b, err := strconv.ParseBool(strings.TrimSpace(s))
	if err != nil {
		return v.f.fail(usagef("%s must be true or false, got %s", dash(v.name), quote(s)))
	}
	*v.p = b
	return nil
}

// Bool defines a boolean flag.
func (f *flags) Bool(name string, def bool, help string) *bool {
	p := new(bool)
	*p = def
	spec := flagSpec{name: name, help: help}
	if def {
		spec.def = "true"
	}
	f.add(&boolValue{f, name, p}, spec)
	return p
}

// enumValue accepts one of a fixed list of words.
type enumValue struct {
	f       *flags
	name    string
	choices []string
	p       *string
}

func (v *enumValue) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}

func (v *enumValue) Set(s string) error {
	for _, c := range v.choices {
		if s == c {
			*v.p = s
			return nil
		}
	}
	return v.f.fail(usagef("%s must be %s, got %s", dash(v.name), orList(v.choices), quote(s)))
}

// Enum defines a flag taking one of choices; def "" makes it required.
func (f *flags) Enum(name string, choices []string, def, help string) *string {
	p := new(string)
	*p = def
	f.add(&enumValue{f, name, choices, p}, flagSpec{
		name: name, arg: strings.Join(choices, "|"), help: help, def: def, required: def == "",
	})
	return p
}

// stringValue takes any text; the command checks it.
type stringValue struct{ p *string }

func (v *stringValue) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}

func (v *stringValue) Set(s string) error { *v.p = s; return nil }

// RequiredString defines a text flag that must be given.
func (f *flags) RequiredString(name, arg, help string) *string {
	p := new(string)
	f.add(&stringValue{p}, flagSpec{name: name, arg: arg, help: help, required: true})
	return p
}

// JSON defines the --json flag every subcommand has.
func (f *flags) JSON() *bool {
	return f.Bool("json", false, "print one JSON object instead of a table")
}

// parse parses args, then checks that required flags were given and that
// nothing is left over.
func (f *flags) parse(args []string) error {
	if err := f.fs.Parse(args); err != nil {
		if f.err != nil {
			return f.err
		}
		if errors.Is(err, flag.ErrHelp) {
			return errHelp
		}
		return translateFlagError(err, f)
	}
	f.fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	if rest := f.fs.Args(); len(rest) > 0 {
		hint := ""
		if b := strings.ToLower(rest[0]); b == "true" || b == "false" {
			// The argument before it was probably a boolean flag, which
			// takes no separate value.
			name := "flag"
			if i := len(args) - len(rest) - 1; i >= 0 {
				if n := strings.TrimLeft(strings.SplitN(args[i], "=", 2)[0], "-"); n != "" {
					name = n
				}
			}
			hint = " (boolean flags take the form " + dash(name) + "=" + b + ")"
		}
		return usagef("unexpected argument %s%s", quote(rest[0]), hint)
	}
	for _, s := range f.specs {
		if s.required && !f.set[s.name] {
			return usagef("%s is required", dash(s.name))
		}
	}
	return nil
}

// translateFlagError rewrites the flag package's own messages (unknown flag,
// missing value, bad syntax) in this command's style.
func translateFlagError(err error, f *flags) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return usagef("unknown flag %s (run '%s --help' for the flags)", dash(name), f.prefix())
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return usagef("%s needs a value", dash(name))
	}
	return usagef("%s", msg)
}

// given reports whether the flag was on the command line.
func (f *flags) given(name string) bool { return f.set[name] }

// usage writes the subcommand's help: synopsis, flags, notes and examples.
func (f *flags) usage(w io.Writer) {
	c, _ := findCommand(f.cmd)
	fmt.Fprintf(w, "posenc %s: %s\n\nUsage:\n  posenc %s %s\n\nFlags:\n", f.cmd, c.summary, f.cmd, f.synopsis)
	left := make([]string, len(f.specs))
	width := 0
	for i, s := range f.specs {
		left[i] = dash(s.name)
		if s.arg != "" {
			left[i] += " " + s.arg
		}
		width = max(width, len(left[i]))
	}
	for i, s := range f.specs {
		help := s.help
		switch {
		case s.required:
			help += " (required)"
		case s.def != "":
			help += " (default " + s.def + ")"
		}
		lines := wrap(help, max(usageWidth-width-4, 30))
		fmt.Fprintf(w, "  %-*s  %s\n", width, left[i], lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(w, "  %-*s  %s\n", width, "", l)
		}
	}
	for _, n := range f.notes {
		fmt.Fprintf(w, "\n%s\n", n)
	}
	fmt.Fprintf(w, "\nExample")
	if len(f.examples) > 1 {
		fmt.Fprintf(w, "s")
	}
	fmt.Fprintf(w, ":\n")
	for _, e := range f.examples {
		fmt.Fprintf(w, "  %s\n", e)
	}
}

// usageWidth is the width the flag list is wrapped to.
const usageWidth = 100

// wrap splits text into lines of at most width bytes, at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len(line)+1+len(word) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return append(lines, line)
}

// hideDefault keeps the usage from showing the default of the flag just
// defined, when its zero default only means "not given".
func (f *flags) hideDefault() { f.specs[len(f.specs)-1].def = "" }

// placeholder renames the value placeholder of the flag just defined.
func (f *flags) placeholder(arg string) { f.specs[len(f.specs)-1].arg = arg }

// paramError turns a library error into a usage error naming the flag that
// set the offending parameter; names maps posenc's parameter names (as in
// ParamError.Param) to flag names. Other errors pass through unchanged.
func paramError(err error, names map[string]string) error {
	var pe *posenc.ParamError
	if !errors.As(err, &pe) {
		return err
	}
	if name, ok := names[pe.Param]; ok {
		return usagef("%s %s, got %v", dash(name), pe.Reason, pe.Value)
	}
	return usagef("%s", strings.TrimPrefix(pe.Error(), "posenc: "))
}

// maxValues bounds how many numbers one command prints (4M: a 4096×1024
// table), so that a typo in --len is an error, not minutes of output.
const maxValues = 1 << 22

// checkSize returns a usage error naming flag when the product of sizes
// exceeds limit.
func checkSize(flagName string, limit int, sizes ...int) error {
	n := 1
	for _, s := range sizes {
		if s <= 0 {
			return nil // reported by the caller's positivity checks
		}
		if n > limit/s {
			return usagef("%s is too large: the output would have more than %d values", dash(flagName), limit)
		}
		n *= s
	}
	return nil
}

// checkPositive returns a usage error unless the flag's value is positive.
func checkPositive(flagName string, v int) error {
	if v <= 0 {
		return usagef("%s must be positive, got %d", dash(flagName), v)
	}
	return nil
}

// orList spells choices as "a, b or c".
func orList(choices []string) string {
	if len(choices) == 1 {
		return choices[0]
	}
	return strings.Join(choices[:len(choices)-1], ", ") + " or " + choices[len(choices)-1]
}

// quote quotes user text so that a message stays on one line.
func quote(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return strconv.Quote(s)
}

// oneLine replaces line breaks so that an error message is a single line.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// newBufferedWriter buffers output: tables and JSON are written number by
// number.
func newBufferedWriter(w io.Writer) *bufio.Writer { return bufio.NewWriterSize(w, 64<<10) }
