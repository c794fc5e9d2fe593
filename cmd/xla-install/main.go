// Command xla-install downloads and installs an XLA PJRT plugin, so that
// GoMLX can run on XLA instead of its pure-Go backend. It is the only part
// of the course that downloads a plugin, and it does so only when run:
// pkg/posenc turns go-xla's automatic download off.
//
// It uses go-xla's own installer (github.com/gomlx/go-xla/installer, the
// version this module requires), pinned to one plugin version:
//
//   - cpu: the PJRT CPU plugin, a release of github.com/gomlx/pjrt-cpu-binaries
//     (version CPUVersion). That installer checks no checksum for it; pass
//     -sha256 to have the archive checked before anything is unpacked.
//   - cuda: the PJRT CUDA 13 plugin and the NVIDIA libraries it needs, from
//     the JAX wheels on PyPI (version CUDAVersion). The installer checks every
//     wheel against the sha256 PyPI lists for it.
//
// Examples:
//
//	go run ./cmd/xla-install                       # CPU plugin into ~/.local/lib/go-xla
//	go run ./cmd/xla-install -dir /usr/local/lib/go-xla
//	go run ./cmd/xla-install -plugin cuda
//	go run ./cmd/xla-install -dry-run              # say what would happen; download nothing
//
// Bad flags exit with status 2 and a one-line message; a failed download or
// install exits with status 1.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1 // the flags were fine but the download or install failed
	exitUsage   = 2 // bad flags or values
)

// Pinned plugin versions. CPUVersion is the default of the go-xla version in
// go.mod (pjrt.DefaultCPUVersion; a test fails when a go-xla upgrade changes
// it, so that the pin is looked at again). CUDAVersion is a release of JAX's
// jax-cuda13-pjrt wheel; PJRT plugins newer than the C API that go-xla was
// built with are supported, as go-xla's own CPU default shows.
const (
	CPUVersion  = "v0.114.0"
	CUDAVersion = "0.12.0.1"
)

// options holds the parsed command line.
type options struct {
	plugin  string // "cpu" or "cuda"
	version string
	dir     string // the go-xla directory the plugin goes into
	sha256  string // expected sha256 of the CPU archive, lower-case hex; "" for none
	force   bool
	dryRun  bool
	check   bool
}

var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

// parseFlags parses args into options, returning a one-line error for bad
// usage. It touches neither the network nor the disk.
func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	f := flag.NewFlagSet("xla-install", flag.ContinueOnError)
	// The flag package would print its own message and the whole usage for
	// a bad flag; the command prints one line instead, and the usage only
	// for -help.
	f.SetOutput(io.Discard)
	f.Usage = func() {}
	f.StringVar(&o.plugin, "plugin", "cpu", `plugin to install: "cpu", or "cuda" (CUDA 13, linux/amd64 only)`)
	f.StringVar(&o.version, "version", "", "plugin version (default: the pinned "+CPUVersion+" for cpu, "+CUDAVersion+" for cuda)")
	f.StringVar(&o.dir, "dir", "", `directory for the plugin (default "~/.local/lib/go-xla", which go-xla searches)`)
	f.StringVar(&o.sha256, "sha256", "", "expected sha256 of the CPU plugin archive; checked before it is unpacked")
	f.BoolVar(&o.force, "force", false, "install even if this version is already installed")
	f.BoolVar(&o.dryRun, "dry-run", false, "print what would be installed where, and download nothing")
	f.BoolVar(&o.check, "check", true, "after installing, load the plugin once to check that it works")
	if err := f.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "usage: xla-install [flags]\n\nDownloads and installs an XLA PJRT plugin for GoMLX (go doc ./cmd/xla-install).\n\n")
			f.SetOutput(stderr)
			f.PrintDefaults()
		}
		return o, err
	}
	if f.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q (all options are flags)", f.Arg(0))
	}
	switch o.plugin {
	case "cpu":
		if o.version == "" {
			o.version = CPUVersion
		}
		if !strings.HasPrefix(o.version, "v") || o.version == "latest" {
			return o, fmt.Errorf("-version: CPU plugin versions look like %s, got %q", CPUVersion, o.version)
		}
	case "cuda":
		if o.version == "" {
			o.version = CUDAVersion
		}
		if o.version == "latest" || strings.HasPrefix(o.version, "v") {
			return o, fmt.Errorf("-version: CUDA plugin versions are JAX releases like %s, got %q", CUDAVersion, o.version)
		}
		if o.sha256 != "" {
			return o, fmt.Errorf("-sha256 applies to -plugin cpu only (the CUDA wheels are checked against PyPI's sha256), got -plugin %s", o.plugin)
		}
		if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
			return o, fmt.Errorf("-plugin cuda: only linux/amd64 has a CUDA plugin, this is %s/%s", runtime.GOOS, runtime.GOARCH)
		}
	default:
		return o, fmt.Errorf(`-plugin: want "cpu" or "cuda", got %q`, o.plugin)
	}
	o.sha256 = strings.ToLower(o.sha256)
	if o.sha256 != "" && !sha256Hex.MatchString(o.sha256) {
		return o, fmt.Errorf("-sha256: want 64 hexadecimal digits, got %q", o.sha256)
	}
	if o.dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return o, fmt.Errorf("-dir: no home directory to default to (%v); give -dir", err)
		}
		o.dir = filepath.Join(home, ".local", "lib", "go-xla")
	}
	abs, err := filepath.Abs(o.dir)
	if err != nil {
		return o, fmt.Errorf("-dir %q: %v", o.dir, err)
	}
	o.dir = abs
	return o, nil
}

// run executes the command line args and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "xla-install: %v\n", err)
		return exitUsage
	}
	if err := install(o, stdout); err != nil {
		fmt.Fprintf(stderr, "xla-install: %v\n", err)
		return exitFailure
	}
	return exitOK
}

// pluginFile is the file that marks the plugin as installed in dir.
func pluginFile(o options) string {
	if o.plugin == "cuda" {
		return filepath.Join(o.dir, "nvidia", "pjrt_c_api_cuda_plugin.so")
	}
	ext := "so"
	if runtime.GOOS == "windows" {
		ext = "dll"
	}
	return filepath.Join(o.dir, fmt.Sprintf("pjrt_c_api_cpu_%s_plugin.%s", o.version, ext))
}

// plan describes, for people, what install would do.
func plan(o options) string {
	var b strings.Builder
	switch o.plugin {
	case "cpu":
		fmt.Fprintf(&b, "XLA PJRT CPU plugin %s for %s_%s from github.com/gomlx/pjrt-cpu-binaries\n", o.version, runtime.GOOS, runtime.GOARCH)
		if o.sha256 != "" {
			fmt.Fprintf(&b, "  archive checked against sha256 %s\n", o.sha256)
		} else {
			fmt.Fprintf(&b, "  archive sha256 not checked (give -sha256 to check it; it is printed after download)\n")
		}
	case "cuda":
		fmt.Fprintf(&b, "XLA PJRT CUDA 13 plugin from jax-cuda13-pjrt %s and its NVIDIA libraries, from PyPI (sha256-checked)\n", o.version)
	}
	fmt.Fprintf(&b, "  into %s\n", o.dir)
	return b.String()
}
