package main

import (
	"bytes"
	"debug/elf"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestHighestVersion(t *testing.T) {
	tests := []struct {
		names  []string
		prefix string
		want   string
	}{
		{[]string{"GLIBC_2.2.5", "GLIBC_2.27", "GLIBC_2.3.4", "GLIBC_2.4"}, "GLIBC_", "GLIBC_2.27"},
		{[]string{"GLIBC_2.34", "GLIBC_2.4", "GLIBC_PRIVATE"}, "GLIBC_", "GLIBC_2.34"},
		{[]string{"GLIBCXX_3.4.9", "GLIBCXX_3.4.22", "GLIBC_2.38"}, "GLIBCXX_", "GLIBCXX_3.4.22"},
		{[]string{"GLIBCXX_3.4", "CXXABI_1.3"}, "GLIBC_", ""},
		{nil, "GLIBC_", ""},
	}
	for _, tc := range tests {
		if got := highestVersion(tc.names, tc.prefix); got != tc.want {
			t.Errorf("highestVersion(%v, %q) = %q; want %q", tc.names, tc.prefix, got, tc.want)
		}
	}
}

// smallELF returns a small dynamically linked executable of this system
// that needs versions of libc.so.6, or skips.
func smallELF(t *testing.T) (path string, highest string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the runtime check reads Linux ELF files")
	}
	for _, p := range []string{"/usr/bin/true", "/bin/true"} {
		f, err := elf.Open(p)
		if err != nil {
			continue
		}
		needs, err := runtimeNeeds(f)
		_ = f.Close()
		var names []string
		for _, n := range needs {
			if n.lib == "libc.so.6" {
				names = append(names, n.version)
			}
		}
		if err == nil && len(names) > 0 {
			return p, highestVersion(names, "GLIBC_")
		}
	}
	t.Skip("no dynamically linked /usr/bin/true here")
	return "", ""
}

// needingNewerGlibc copies the ELF file src and renames, in its string
// table, the version it needs from old to new (of the same length): a
// plugin built against a newer glibc than this system's, as far as the
// dynamic loader and the check can tell.
func needingNewerGlibc(t *testing.T, src, old, new string) string {
	t.Helper()
	if len(old) != len(new) {
		t.Fatalf("%q and %q differ in length", old, new)
	}
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.NewFile(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	dynstr := f.Section(".dynstr")
	if dynstr == nil {
		t.Fatalf("%s has no .dynstr", src)
	}
	start, end := int(dynstr.Offset), int(dynstr.Offset+dynstr.Size)
	i := bytes.Index(b[start:end], []byte(old+"\x00"))
	if i < 0 {
		t.Fatalf("%s: %q is not in .dynstr", src, old)
	}
	copy(b[start+i:], new)
	dst := filepath.Join(t.TempDir(), "plugin.so")
	if err := os.WriteFile(dst, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestRuntimeCheckRefusesANewerGlibc checks a file that needs GLIBC_2.99:
// the check names the version, the library, the one this system has, and
// what to do; the same file as built passes.
func TestRuntimeCheckRefusesANewerGlibc(t *testing.T) {
	bin, highest := smallELF(t)
	r, err := checkRuntime(bin, "/")
	if err != nil || len(r.missing) != 0 || r.highestGlibc != highest || r.libc == "" {
		t.Fatalf("checkRuntime(%s) = %+v, %v; want it to pass, needing %s, checked against this libc.so.6", bin, r, err, highest)
	}
	patched := needingNewerGlibc(t, bin, highest, "GLIBC_2.99"[:len(highest)])
	want := "GLIBC_2.99"[:len(highest)]
	r, err = checkRuntime(patched, "/")
	if err != nil {
		t.Fatal(err)
	}
	if r.highestGlibc != want || len(r.missing) != 1 || !strings.Contains(r.missing[0], want+" from libc.so.6, which defines up to "+r.libcHighest) {
		t.Errorf("checkRuntime of a file needing %s = %+v; want it missing from libc.so.6", want, r)
	}

	code, out, errOut := runCLI(t, "-runtime-check", patched)
	if code != exitIncompatible || out != "" {
		t.Errorf("-runtime-check %s: exit status %d, stdout %q; want %d and nothing", patched, code, out, exitIncompatible)
	}
	for _, s := range []string{"cannot load on this system", want, "libc.so.6", "WITH_XLA=0", "GOMLX_BACKEND=go"} {
		if !strings.Contains(errOut, s) {
			t.Errorf("stderr %q; want it to name %q", errOut, s)
		}
	}
	if strings.Count(errOut, "\n") != 1 {
		t.Errorf("stderr %q; want one line", errOut)
	}
	code, out, errOut = runCLI(t, "-runtime-check", bin)
	if code != exitOK || !strings.Contains(out, "needs "+highest+" at most") {
		t.Errorf("-runtime-check %s: exit status %d, stdout %q, stderr %q; want 0 and its highest need %s", bin, code, out, errOut, highest)
	}
}

// TestRuntimeCheckSysroot checks against another root's libraries: one
// holding this system's libc.so.6 only passes; one without any C library
// cannot be checked, and says so.
func TestRuntimeCheckSysroot(t *testing.T) {
	bin, _ := smallELF(t)
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	machine := f.Machine
	_ = f.Close()
	libc := findLibrary("/", libraryDirs("/", machine), "libc.so.6", machine)
	if libc == "" || multiarchTriplet(machine) == "" {
		t.Skip("no libc.so.6 of a known architecture here")
	}
	root := t.TempDir()
	dir := filepath.Join(root, "usr", "lib", multiarchTriplet(machine))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(libc)
	if err != nil {
		t.Fatal(err)
	}
	// As in a copied system: the library by an absolute link, which must
	// resolve inside the root, not on this system.
	if err := os.WriteFile(filepath.Join(dir, "libc-2.99.so"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/usr/lib/"+multiarchTriplet(machine)+"/libc-2.99.so", filepath.Join(dir, "libc.so.6")); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "-runtime-check", bin, "-sysroot", root)
	if code != exitOK || !strings.Contains(out, "the system under "+root) || !strings.Contains(out, filepath.Join(dir, "libc-2.99.so")) {
		t.Errorf("-runtime-check against a root with this libc: exit status %d, stdout %q, stderr %q; want 0, naming that libc as its link resolves inside the root", code, out, errOut)
	}
	code, _, errOut = runCLI(t, "-runtime-check", bin, "-sysroot", t.TempDir())
	if code != exitFailure || !strings.Contains(errOut, "no libc.so.6") {
		t.Errorf("-runtime-check against an empty root: exit status %d, stderr %q; want %d saying there is no libc.so.6", code, errOut, exitFailure)
	}
}

// TestRuntimeCheckOfTheTestPlugin checks the XLA CPU plugin that make
// xla-test installs (scripts/xla-test.sh: lammps-jax-pjrt-cpu, a manylinux
// 2.27 wheel) against this system.
func TestRuntimeCheckOfTheTestPlugin(t *testing.T) {
	plugin := filepath.Join("..", "..", ".tools", "xla-cpu-test", "pjrt_c_api_cpu_plugin.so")
	if _, err := os.Stat(plugin); err != nil {
		t.Skip("no test plugin: scripts/xla-test.sh installs it")
	}
	r, err := checkRuntime(plugin, "/")
	if err != nil {
		t.Fatal(err)
	}
	if r.highestGlibc != "GLIBC_2.27" || len(r.missing) != 0 || len(r.unchecked) != 0 {
		t.Errorf("checkRuntime(test plugin) = %+v; want it to need GLIBC_2.27 at most, found here in full", r)
	}
}

func TestDefaultDirIsWhereGoXLALooks(t *testing.T) {
	for goos, want := range map[string]string{
		"linux":  "/h/.local/lib/go-xla",
		"darwin": "/h/Library/Application Support/go-xla",
	} {
		if got := defaultDir(goos, "/h"); got != want {
			t.Errorf("defaultDir(%s) = %q; want %q", goos, got, want)
		}
	}
}
