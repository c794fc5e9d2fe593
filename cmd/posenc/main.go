// Command posenc inspects and exports positional encodings: sinusoidal
// tables, RoPE frequencies and rotations, ALiBi slopes and biases, T5
// relative-position buckets, and heatmaps of them.
//
// Every subcommand prints an aligned table for people by default and, with
// -json, one JSON object for scripts. Bad flags or values exit with status 2
// and a one-line message naming the flag; "posenc help" lists the
// subcommands and "posenc <command> -help" their flags. Flags are parsed
// by the standard flag package: -name and --name are the same flag, and a
// boolean takes its value after "=" (-json=false).
//
//	posenc sinusoidal -len 4 -dim 4 -json
//	posenc rope-freqs -dim 128 -scaling yarn -factor 4 -orig-len 4096
//	posenc plot -kind alibi -heads 8 -len 32 -o alibi.png
//	posenc config pkg/posenc/modelconfigs/gemma-4-e2b.json
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1 // the command was well formed but could not finish (e.g. a write failed)
	exitUsage   = 2 // bad flags, values or subcommand
)

// command is one subcommand.
type command struct {
	name    string
	summary string // one line, for "posenc help"
	// define registers the subcommand's flags on f and returns the function
	// that runs it once the flags are parsed.
	define func(f *flags) func(out io.Writer) error
}

// commands lists the subcommands in the order "posenc help" shows them.
var commands = []command{
	{"sinusoidal", "the sinusoidal position table of Vaswani et al. (or tensor2tensor's)", defineSinusoidal},
	{"rope-freqs", "RoPE frequencies (inv_freq) with optional context-length scaling", defineRoPEFreqs},
	{"rope", "rotate one query/key head vector to a position with RoPE", defineRoPE},
	{"alibi", "ALiBi slopes per head, and the bias matrices with -len", defineALiBi},
	{"t5-bucket", "the T5 relative-position bucket of key − query", defineT5Bucket},
	{"plot", "draw a heatmap of an encoding to a PNG or SVG file", definePlot},
	{"config", "the positions of every layer of a Hugging Face config.json", defineConfig},
	{"model", "run SmolLM2-135M (make model): model score FILE -tokens N, model generate TEXT", nil},
}

func commandNames() string {
	names := make([]string, 0, len(commands)+1)
	for _, c := range commands {
		names = append(names, c.name)
	}
	return strings.Join(append(names, "help"), ", ")
}

func findCommand(name string) (command, bool) {
	for _, c := range append(commands, modelCommands...) {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// run executes the command line args (without the program name), writing
// results to stdout and errors to stderr, and returns the exit status: 0 on
// success, 2 for bad usage, 1 when the output could not be written.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(stderr, "posenc: missing command (one of %s); run 'posenc help'\n", commandNames())
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if name == "help" && len(args) > 1 {
			if len(args) > 2 {
				fmt.Fprintf(stderr, "posenc help: takes one command name, got %d arguments\n", len(args)-1)
				return exitUsage
			}
			c, ok := findCommand(args[1])
			if ok && c.define == nil {
				return writeOut(stdout, stderr, "posenc help", modelUsage)
			}
			if !ok {
				fmt.Fprintf(stderr, "posenc help: unknown command %s (commands: %s)\n", quote(args[1]), commandNames())
				return exitUsage
			}
			f := newFlags(c.name)
			c.define(f)
			return writeOut(stdout, stderr, "posenc help", func(w io.Writer) error { f.usage(w); return nil })
		}
		return writeOut(stdout, stderr, "posenc", topUsage)
	}
	if name == "model" {
		return runModel(args[1:], stdout, stderr)
	}
	c, ok := findCommand(name)
	if !ok || c.define == nil {
		fmt.Fprintf(stderr, "posenc: unknown command %s (commands: %s)\n", quote(name), commandNames())
		return exitUsage
	}
	return runCommand(c, args[1:], stdout, stderr)
}

// runCommand parses c's flags from args and runs it; long work reports
// progress on stderr.
func runCommand(c command, args []string, stdout, stderr io.Writer) int {
	f := newFlags(c.name)
	f.progress = stderr
	exec := c.define(f)
	if err := f.parse(args); err != nil {
		if err == errHelp {
			return writeOut(stdout, stderr, f.prefix(), func(w io.Writer) error { f.usage(w); return nil })
		}
		return report(stderr, f.prefix(), err)
	}
	return writeOut(stdout, stderr, f.prefix(), exec)
}

// writeOut runs write on a buffered stdout and turns its error, or the
// buffer's, into an exit status.
func writeOut(stdout, stderr io.Writer, prefix string, write func(io.Writer) error) int {
	w := bufio.NewWriterSize(stdout, 64<<10) // tables and JSON are written number by number
	err := write(w)
	if ferr := w.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("writing output: %w", ferr)
	}
	if err != nil {
		return report(stderr, prefix, err)
	}
	return exitOK
}

// report prints err as one line and returns its exit status.
func report(stderr io.Writer, prefix string, err error) int {
	fmt.Fprintf(stderr, "%s: %s\n", prefix, oneLine(err.Error()))
	if _, ok := err.(*usageError); ok {
		return exitUsage
	}
	return exitFailure
}

func topUsage(w io.Writer) error {
	fmt.Fprintf(w, "posenc inspects and exports Transformer positional encodings.\n\n")
	fmt.Fprintf(w, "Usage:\n  posenc <command> [flags]\n  posenc help [command]\n\nCommands:\n")
	width := 0
	for _, c := range commands {
		width = max(width, len(c.name))
	}
	for _, c := range commands {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.name, c.summary)
	}
	fmt.Fprintf(w, "\nEvery command prints a readable table by default and one JSON object with -json.\n")
	fmt.Fprintf(w, "Bad flags or values exit with status 2 and a one-line message naming the flag.\n")
	fmt.Fprintf(w, "Run 'posenc <command> -help' for its flags and examples.\n")
	return nil
}
