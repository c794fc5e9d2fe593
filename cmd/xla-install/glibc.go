package main

import (
	"bufio"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A plugin built on a newer Linux than the one it runs on fails to load
// with "version `GLIBC_2.38' not found": the CPU plugins of
// gomlx/pjrt-cpu-binaries are built on Ubuntu 24.04 (glibc 2.39), the
// course's image is Debian 12 (glibc 2.36). checkRuntime reads, from the
// plugin's ELF version needs (the SHT_GNU_verneed section the dynamic loader
// checks), the versions of the C and C++ runtime libraries it needs, and
// looks each one up in the version definitions of the library of that name
// on the system, before anything is installed.

// runtimeVersionPrefixes are the version names that the system's C and C++
// runtime libraries define (glibc's libc.so.6, libm.so.6, ...; GCC's
// libstdc++.so.6 and libgcc_s.so.1). A plugin's other version needs (the
// NVIDIA libraries' own) are served by the libraries it ships.
var runtimeVersionPrefixes = []string{"GLIBC_", "GLIBCXX_", "CXXABI_", "GCC_"}

// versionNeed is one version that an ELF file needs from a library.
type versionNeed struct {
	lib     string // the library's soname, e.g. libc.so.6
	version string // e.g. GLIBC_2.27
}

// runtimeNeeds returns the runtime library versions the ELF file needs.
func runtimeNeeds(f *elf.File) ([]versionNeed, error) {
	deps, err := f.DynamicVersionNeeds()
	if err != nil {
		if errors.Is(err, elf.ErrNoSymbols) {
			return nil, nil
		}
		return nil, err
	}
	var needs []versionNeed
	for _, d := range deps {
		for _, v := range d.Needs {
			if runtimeVersion(v.Dep) {
				needs = append(needs, versionNeed{lib: d.Name, version: v.Dep})
			}
		}
	}
	return needs, nil
}

func runtimeVersion(name string) bool {
	for _, p := range runtimeVersionPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// versionKey splits a version name such as GLIBC_2.2.5 into its prefix
// ("GLIBC_") and numbers ([2 2 5]); ok is false when it is not of that form.
func versionKey(name string) (prefix string, nums []int, ok bool) {
	i := strings.LastIndexByte(name, '_')
	if i < 0 {
		return "", nil, false
	}
	for _, s := range strings.Split(name[i+1:], ".") {
		n, err := strconv.Atoi(s)
		if err != nil {
			return "", nil, false
		}
		nums = append(nums, n)
	}
	return name[:i+1], nums, true
}

// highestVersion returns the highest of the names that have the prefix, by
// number (GLIBC_2.27 > GLIBC_2.3.4), or "" when none has.
func highestVersion(names []string, prefix string) string {
	best, bestNums := "", []int(nil)
	for _, n := range names {
		p, nums, ok := versionKey(n)
		if !ok || p != prefix {
			continue
		}
		if best == "" || slices.Compare(nums, bestNums) > 0 {
			best, bestNums = n, nums
		}
	}
	return best
}

// multiarchTriplet is Debian's name for the library folder of an ELF
// machine (/usr/lib/x86_64-linux-gnu, ...).
func multiarchTriplet(m elf.Machine) string {
	switch m {
	case elf.EM_X86_64:
		return "x86_64-linux-gnu"
	case elf.EM_AARCH64:
		return "aarch64-linux-gnu"
	}
	return ""
}

// libraryDirs returns the folders under root where the dynamic loader
// finds the runtime libraries for machine m: Debian's and Ubuntu's
// multiarch folders, then the 64-bit and plain ones of other
// distributions. On the running system (root "/") the folders of the C
// library this process has loaded come first, when it has one.
func libraryDirs(root string, m elf.Machine) []string {
	var dirs []string
	if root == "/" {
		dirs = append(dirs, loadedLibcDirs()...)
	}
	rel := []string{"lib64", "usr/lib64", "lib", "usr/lib"}
	if t := multiarchTriplet(m); t != "" {
		rel = append([]string{"lib/" + t, "usr/lib/" + t}, rel...)
	}
	for _, r := range rel {
		d := filepath.Join(root, r)
		if !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// loadedLibcDirs returns the folder of the libc.so.6 mapped into this
// process (a cgo build is linked against it), from /proc/self/maps.
func loadedLibcDirs() []string {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return nil
	}
	defer func() { _ = f.Close() }()
	s := bufio.NewScanner(f)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) >= 6 && filepath.Base(fields[5]) == "libc.so.6" {
			return []string{filepath.Dir(fields[5])}
		}
	}
	return nil
}

// definedVersions returns the versions the shared library at path defines.
func definedVersions(path string) ([]string, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	defs, err := f.DynamicVersions()
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(defs))
	for _, d := range defs {
		names = append(names, d.Name)
	}
	return names, nil
}

// runtimeReport is what checkRuntime found.
type runtimeReport struct {
	highestGlibc string   // the highest GLIBC_ version needed, "" for none
	libc         string   // the C library it was checked against, "" if none was found
	libcHighest  string   // the highest GLIBC_ version that C library defines
	missing      []string // "GLIBC_2.38 from libc.so.6, which defines up to GLIBC_2.36 (path)"
	unchecked    []string // libraries that were not found, so not checked
}

// checkRuntime checks the ELF file at path against the runtime libraries
// under root ("/" for this system; "" reads the needs only): every GLIBC_, GLIBCXX_, CXXABI_ and
// GCC_ version it needs must be defined by the library it needs it from.
// A file that is not ELF (a macOS plugin) has nothing to check.
func checkRuntime(path, root string) (runtimeReport, error) {
	var r runtimeReport
	if elfFile, err := isELF(path); err != nil || !elfFile {
		return r, err
	}
	f, err := elf.Open(path)
	if err != nil {
		return r, fmt.Errorf("reading %s: %v", path, err)
	}
	defer func() { _ = f.Close() }()
	needs, err := runtimeNeeds(f)
	if err != nil {
		return r, fmt.Errorf("reading the version needs of %s: %v", path, err)
	}
	byLib := map[string][]string{}
	var libs, glibc []string
	for _, n := range needs {
		if _, ok := byLib[n.lib]; !ok {
			libs = append(libs, n.lib)
		}
		byLib[n.lib] = append(byLib[n.lib], n.version)
		glibc = append(glibc, n.version)
	}
	r.highestGlibc = highestVersion(glibc, "GLIBC_")
	if root == "" {
		return r, nil
	}
	dirs := libraryDirs(root, f.Machine)
	if libc := findLibrary(root, dirs, "libc.so.6", f.Machine); libc != "" {
		if defs, err := definedVersions(libc); err == nil {
			r.libc, r.libcHighest = libc, highestVersion(defs, "GLIBC_")
		}
	}
	for _, lib := range libs {
		p := findLibrary(root, dirs, lib, f.Machine)
		if p == "" {
			r.unchecked = append(r.unchecked, lib)
			continue
		}
		defs, err := definedVersions(p)
		if err != nil {
			return r, fmt.Errorf("reading the versions %s defines: %v", p, err)
		}
		for _, v := range byLib[lib] {
			if slices.Contains(defs, v) {
				continue
			}
			prefix, _, _ := versionKey(v)
			has := highestVersion(defs, prefix)
			if has == "" {
				has = "no " + prefix + " version"
			}
			r.missing = append(r.missing, fmt.Sprintf("%s from %s, which defines up to %s here (%s)", v, lib, has, p))
		}
	}
	return r, nil
}

// resolveIn follows the symbolic links of path as they resolve inside the
// system under root: an absolute link in a copied system's /usr/lib
// (/usr/lib/x86_64-linux-gnu/libfoo.so -> /lib/...) names that system's
// file, not this one's.
func resolveIn(root, path string) string {
	if root == "/" {
		return path
	}
	for range 40 {
		target, err := os.Readlink(path)
		if err != nil {
			return path
		}
		if filepath.IsAbs(target) {
			path = filepath.Join(root, target)
		} else {
			path = filepath.Join(filepath.Dir(path), target)
		}
	}
	return path
}

// isELF reports whether the file at path starts as an ELF file does.
func isELF(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer func() { _ = f.Close() }()
	magic := make([]byte, len(elf.ELFMAG))
	if _, err := io.ReadFull(f, magic); err != nil {
		return false, nil
	}
	return string(magic) == elf.ELFMAG, nil
}

// findLibrary returns the first dirs/name that is an ELF file for machine
// m (a /usr/lib64 of another architecture does not count), or "". The dirs
// are under root.
func findLibrary(root string, dirs []string, name string, m elf.Machine) string {
	for _, d := range dirs {
		p := resolveIn(root, filepath.Join(d, name))
		f, err := elf.Open(p)
		if err != nil {
			continue
		}
		ok := f.Machine == m
		_ = f.Close()
		if ok {
			return p
		}
	}
	return ""
}

// summary says in one line what the plugin needs and what it was checked
// against.
func (r runtimeReport) summary() string {
	if r.highestGlibc == "" {
		return "needs no versioned C library symbols"
	}
	s := "needs " + r.highestGlibc + " at most"
	if r.libc != "" {
		s += "; the C library here (" + r.libc + ") defines up to " + r.libcHighest
	}
	if len(r.unchecked) > 0 {
		s += "; not found here, so not checked: " + strings.Join(r.unchecked, ", ")
	}
	return s
}

// noXLAAdvice says what to do when a plugin cannot load on this system.
const noXLAAdvice = "Run it on a system with a newer C library, or go without XLA: GoMLX then runs on its pure-Go backend (GOMLX_BACKEND=go). " +
	"For the Docker image or the dev container, build with WITH_XLA=0 (docker compose: WITH_XLA=0 docker compose -f docker/compose.yaml up --build)."

// incompatibleError says that a plugin cannot load on the system it was
// checked against: the command exits with exitIncompatible, which the
// image workflow tells from other failures.
type incompatibleError struct{ msg string }

func (e *incompatibleError) Error() string { return e.msg }

// requireRuntime fails, saying what to do, when the ELF file at path needs
// a runtime library version that the system under root lacks; otherwise it
// prints what it checked.
func requireRuntime(what, path, root string, stdout io.Writer) error {
	r, err := checkRuntime(path, root)
	if err != nil {
		return err
	}
	if len(r.missing) > 0 {
		return &incompatibleError{fmt.Sprintf("%s cannot load on this system: it needs %s. %s", what, strings.Join(r.missing, "; "), noXLAAdvice)}
	}
	if r.highestGlibc != "" {
		fmt.Fprintf(stdout, "runtime libraries: %s %s: ok\n", what, r.summary())
	}
	return nil
}
