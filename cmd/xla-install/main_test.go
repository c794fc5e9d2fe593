package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// runCLI runs the command line in-process and returns its exit status,
// stdout and stderr.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestBadFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // the message must name this
	}{
		{"unknown plugin", []string{"-plugin", "tpu"}, `-plugin: want "cpu" or "cuda", got "tpu"`},
		{"latest cpu", []string{"-version", "latest"}, `-version`},
		{"cpu version without v", []string{"-version", "0.114.0"}, `got "0.114.0"`},
		{"cuda version with v", []string{"-plugin", "cuda", "-version", "v0.114.0"}, `-version`},
		{"short sha256", []string{"-sha256", "abc"}, `-sha256: want 64 hexadecimal digits, got "abc"`},
		{"sha256 with cuda", []string{"-plugin", "cuda", "-sha256", strings.Repeat("a", 64)}, `-sha256 applies to -plugin cpu only`},
		{"cuda version not locked", []string{"-plugin", "cuda", "-version", "0.12.0"}, `locked at ` + CUDAVersion},
		{"unknown flag", []string{"-bogus"}, "-bogus"},
		{"positional argument", []string{"cpu"}, `unexpected argument "cpu"`},
		{"sums and runtime check", []string{"-sums", "d", "-runtime-check", "p.so"}, "give one of them"},
		{"sums of cuda", []string{"-plugin", "cuda", "-sums", "d"}, "-plugin cpu only"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.args[0] == "-plugin" && tc.args[1] == "cuda" && (runtime.GOOS != "linux" || runtime.GOARCH != "amd64") {
				t.Skip("-plugin cuda is refused earlier on this platform")
			}
			code, out, errOut := runCLI(t, append(tc.args, "-dir", t.TempDir())...)
			if code != exitUsage {
				t.Errorf("exit status %d; want %d (stderr %q)", code, exitUsage, errOut)
			}
			if out != "" {
				t.Errorf("stdout %q; want empty", out)
			}
			if lines := strings.Count(errOut, "\n"); lines != 1 || !strings.HasPrefix(errOut, "xla-install: ") {
				t.Errorf("stderr %q; want one line starting with \"xla-install: \"", errOut)
			}
			if !strings.Contains(errOut, tc.want) {
				t.Errorf("stderr %q; want it to contain %q", errOut, tc.want)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	code, out, errOut := runCLI(t, "-help")
	if code != exitOK {
		t.Errorf("exit status %d; want 0", code)
	}
	if out != "" {
		t.Errorf("stdout %q; want empty", out)
	}
	for _, want := range []string{"usage: xla-install", "-plugin", "-sha256", "-dry-run"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("help %q; want it to mention %q", errOut, want)
		}
	}
}

// TestDryRunDownloadsNothing checks that -dry-run states the pinned version
// and the directory, and creates nothing.
func TestDryRunDownloadsNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "go-xla")
	code, out, errOut := runCLI(t, "-dry-run", "-dir", dir)
	if code != exitOK {
		t.Fatalf("exit status %d, stderr %q; want 0", code, errOut)
	}
	for _, want := range []string{"CPU plugin " + CPUVersion, "into " + dir, "releases/download/" + CPUVersion + "/pjrt_cpu_", "nothing downloaded"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout %q; want it to contain %q", out, want)
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("stat %s: %v; want it not to exist after a dry run", dir, err)
	}
}

// TestAlreadyInstalled checks that an installed version is not downloaded
// again (the marker file stands in for the plugin; -check=false skips
// loading it).
func TestAlreadyInstalled(t *testing.T) {
	dir := t.TempDir()
	marker := pluginFile(options{plugin: "cpu", version: CPUVersion, dir: dir})
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "-dir", dir, "-check=false")
	if code != exitOK {
		t.Fatalf("exit status %d, stderr %q; want 0", code, errOut)
	}
	if want := "already installed: " + marker; !strings.Contains(out, want) {
		t.Errorf("stdout %q; want it to contain %q", out, want)
	}
}

// TestCheckRejectsBrokenPlugin checks that a file that is not a plugin is
// reported, not taken for an installed plugin.
func TestCheckRejectsBrokenPlugin(t *testing.T) {
	dir := t.TempDir()
	marker := pluginFile(options{plugin: "cpu", version: CPUVersion, dir: dir})
	if err := os.WriteFile(marker, []byte("not a shared library"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, "-dir", dir)
	if code != exitFailure {
		t.Errorf("exit status %d; want %d", code, exitFailure)
	}
	if want := "does not load"; !strings.Contains(errOut, want) {
		t.Errorf("stderr %q; want it to contain %q", errOut, want)
	}
}

func TestPlanNamesSHA256(t *testing.T) {
	sum := strings.Repeat("0f", 32)
	got := plan(options{plugin: "cpu", version: CPUVersion, dir: "/x", sha256: sum, goos: "linux", goarch: "amd64"})
	if want := "checked against sha256 " + sum; !strings.Contains(got, want) {
		t.Errorf("plan = %q; want it to contain %q", got, want)
	}
}
