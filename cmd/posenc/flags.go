package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// errHelp asks for the subcommand's usage on stdout (exit status 0).
var errHelp = errors.New("help requested")

// flags is a subcommand's flag.FlagSet, which parses and reports errors in
// its own words, plus what the help shows around its flag list and the flags
// that must be given.
type flags struct {
	*flag.FlagSet
	cmd      string
	synopsis string   // after "posenc <cmd> "
	notes    []string // paragraphs after the flag list
	examples []string // full command lines
	required []string
	// positional names the one argument the subcommand takes besides flags
	// (config's FILE); empty when it takes none.
	positional string
	arg        string // its value, after parse
	// progress receives progress lines of long work (model); stderr.
	progress io.Writer
}

func newFlags(cmd string) *flags {
	fs := flag.NewFlagSet("posenc "+cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are returned, help is written by usage
	fs.Usage = func() {}
	return &flags{FlagSet: fs, cmd: cmd}
}

func (f *flags) prefix() string { return "posenc " + f.cmd }

// Require marks flags that must be given; their help says so.
func (f *flags) Require(names ...string) {
	for _, name := range names {
		f.Lookup(name).Usage += " (required)"
	}
	f.required = append(f.required, names...)
}

// finite is a float64 flag that rejects NaN and ±Inf, never meaningful
// configuration values.
type finite float64

func (v *finite) String() string { return strconv.FormatFloat(float64(*v), 'g', -1, 64) }

func (v *finite) Set(s string) error {
	x, err := parseFinite(s)
	if err == nil {
		*v = finite(x)
	}
	return err
}

func parseFinite(s string) (float64, error) {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, errors.New("not a finite number")
	}
	return x, nil
}

// Finite defines a flag holding a finite float64.
func (f *flags) Finite(name string, def float64, usage string) *float64 {
	p := (*finite)(new(float64))
	*p = finite(def)
	f.Var(p, name, usage)
	return (*float64)(p)
}

// choice is a string flag that takes one of a few words.
type choice struct {
	value   string
	choices []string
}

func (c *choice) String() string { return c.value }

func (c *choice) Set(s string) error {
	if !slices.Contains(c.choices, s) {
		return errors.New("want " + orList(c.choices))
	}
	c.value = s
	return nil
}

// Choice defines a flag taking one of choices; usage should name them in
// backquotes ("`a|b`") so that the help shows them as the placeholder.
func (f *flags) Choice(name, def string, choices []string, usage string) *string {
	c := &choice{def, choices}
	f.Var(c, name, usage)
	return &c.value
}

// JSON defines the -json flag every subcommand has.
func (f *flags) JSON() *bool {
	return f.Bool("json", false, "print one JSON object instead of a table")
}

// parse parses args, then checks that nothing is left over and that the
// required flags were given.
func (f *flags) parse(args []string) error {
	if err := f.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return errHelp
		}
		return &usageError{msg: err.Error()}
	}
	if rest := f.Args(); f.positional != "" {
		// The flag package stops at the first argument that is not a flag:
		// take it, then parse the flags after it.
		if len(rest) == 0 {
			return usagef("missing %s", f.positional)
		}
		f.arg = rest[0]
		if err := f.Parse(rest[1:]); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return errHelp
			}
			return &usageError{msg: err.Error()}
		}
		if more := f.Args(); len(more) > 0 {
			return usagef("unexpected argument %s after %s%s", quote(more[0]), f.positional, f.boolHint(args, more))
		}
	} else if len(rest) > 0 {
		return usagef("unexpected argument %s%s", quote(rest[0]), f.boolHint(args, rest))
	}
	for _, name := range f.required {
		if !f.given(name) {
			return usagef("-%s is required", name)
		}
	}
	return nil
}

// boolHint explains a "true" or "false" left over after a boolean flag,
// which takes its value after "=", not as the next argument.
func (f *flags) boolHint(args, rest []string) string {
	b := strings.ToLower(rest[0])
	if i := len(args) - len(rest) - 1; (b == "true" || b == "false") && i >= 0 && strings.HasPrefix(args[i], "-") {
		name, _, _ := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if fl := f.Lookup(name); fl != nil {
			if bf, ok := fl.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
				return fmt.Sprintf(" (boolean flags take the form -%s=%s)", name, b)
			}
		}
	}
	return ""
}

// given reports whether the flag was on the command line.
func (f *flags) given(name string) bool {
	found := false
	f.Visit(func(fl *flag.Flag) { found = found || fl.Name == name })
	return found
}

// usage writes the subcommand's help: summary, synopsis, the flag package's
// list of flags, notes and examples.
func (f *flags) usage(w io.Writer) {
	c, _ := findCommand(f.cmd)
	fmt.Fprintf(w, "posenc %s: %s\n\nUsage:\n  posenc %s %s\n\nFlags:\n", f.cmd, c.summary, f.cmd, f.synopsis)
	f.SetOutput(w)
	f.PrintDefaults()
	f.SetOutput(io.Discard)
	for _, n := range f.notes {
		fmt.Fprintf(w, "\n%s\n", n)
	}
	fmt.Fprintf(w, "\nExamples:\n")
	for _, e := range f.examples {
		fmt.Fprintf(w, "  %s\n", e)
	}
}
