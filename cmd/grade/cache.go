package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/posenc/course/internal/cli"
)

// The grader keeps its last few test binaries, keyed by everything they are
// built from, so that grading again with nothing changed (a notebook cell
// run twice) skips the compiler and the linker.

// cacheKeep is how many binaries the cache keeps.
const cacheKeep = 4

// cacheFormat changes when what the cache holds changes.
const cacheFormat = "grade-cache-1"

// cacheInputs are the paths, from the repository root, whose contents a test
// binary of the exercises depends on: the exercises and their machinery,
// the library they call, and the module's requirements.
var cacheInputs = []string{"exercises", "internal", "pkg", "solutions", "go.mod", "go.sum"}

// cachedBuild is build, through the cache when it can be used.
func cachedBuild(root, dir string, replace map[string]string) (*built, error) {
	cacheDir, key := cacheLocation(root, replace)
	if key != "" {
		if b, ok := cacheGet(cacheDir, key); ok {
			return b, nil
		}
	}
	b, err := build(root, dir, replace)
	if err != nil || key == "" || b.fatal != "" {
		return b, err
	}
	cachePut(cacheDir, key, b)
	return b, nil
}

// cacheLocation returns the cache's directory and the key of this build, or
// "" when there is no usable cache.
func cacheLocation(root string, replace map[string]string) (string, string) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s/%s\x00", cacheFormat, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	// The grader itself: how it builds stand-ins is part of what it caches.
	if self, err := os.Executable(); err != nil || hashFile(h, self) != nil {
		return "", ""
	}
	for _, v := range []string{"GOFLAGS", "GOEXPERIMENT", "CGO_ENABLED", "GOAMD64", "GOARM64", "GOROOT", "GOTOOLCHAIN"} {
		fmt.Fprintf(h, "%s=%s\x00", v, os.Getenv(v))
	}
	for _, p := range cacheInputs {
		if err := hashTree(h, filepath.Join(root, p), replace); err != nil {
			return "", ""
		}
	}
	keys := make([]string, 0, len(replace))
	for k := range replace {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys { // overlay files that replace nothing on disk
		fmt.Fprintf(h, "overlay\x00%s\x00", k)
		if err := hashFile(h, replace[k]); err != nil {
			return "", ""
		}
	}
	return filepath.Join(base, "posenc-course", "grade"), fmt.Sprintf("%x", h.Sum(nil))[:32]
}

// hashTree hashes the names and contents of the files under path, each
// replaced by its overlay when it has one. A link is hashed by what it
// points to, as go build reads it; one that points nowhere (or to a folder)
// is an error, which leaves the cache unused.
func hashTree(h io.Writer, path string, replace map[string]string) error {
	return filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		fmt.Fprintf(h, "file\x00%s\x00", p)
		if r, ok := replace[p]; ok {
			p = r
		}
		return hashFile(h, p)
	})
}

func hashFile(h io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(h, f)
	return err
}

// cacheEntry is what the cache stores beside each binary.
type cacheEntry struct {
	Broken map[int]string
	Errs   map[string][]string
}

func cacheGet(dir, key string) (*built, bool) {
	binary := filepath.Join(dir, key+".test")
	data, err := os.ReadFile(filepath.Join(dir, key+".json"))
	if err != nil {
		return nil, false
	}
	var e cacheEntry
	if json.Unmarshal(data, &e) != nil {
		return nil, false
	}
	if st, err := os.Stat(binary); err != nil || !st.Mode().IsRegular() {
		return nil, false
	}
	now := time.Now()
	_ = os.Chtimes(binary, now, now) // recently used: kept longest
	if e.Broken == nil {
		e.Broken = map[int]string{}
	}
	if e.Errs == nil {
		e.Errs = map[string][]string{}
	}
	return &built{binary: binary, broken: e.Broken, errs: e.Errs}, true
}

// cachePut stores b's binary under key and drops the oldest entries. A
// cache that cannot be written is no error: the next run builds again.
func cachePut(dir, key string, b *built) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	data, err := json.Marshal(cacheEntry{Broken: b.broken, Errs: b.errs})
	if err != nil {
		return
	}
	f, err := os.CreateTemp(dir, key+".*.tmp")
	if err != nil {
		return
	}
	tmp := f.Name()
	f.Close()
	if cli.CopyFile(tmp, b.binary) != nil || os.Chmod(tmp, 0o755) != nil || os.Rename(tmp, filepath.Join(dir, key+".test")) != nil {
		os.Remove(tmp)
		return
	}
	if os.WriteFile(filepath.Join(dir, key+".json"), data, 0o644) != nil {
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type old struct {
		key string
		mod time.Time
	}
	var bins []old
	for _, en := range entries {
		if k, ok := strings.CutSuffix(en.Name(), ".test"); ok {
			if info, err := en.Info(); err == nil {
				bins = append(bins, old{k, info.ModTime()})
			}
		}
	}
	sort.Slice(bins, func(i, j int) bool { return bins[i].mod.After(bins[j].mod) })
	for _, o := range bins[min(len(bins), cacheKeep):] {
		os.Remove(filepath.Join(dir, o.key+".test"))
		os.Remove(filepath.Join(dir, o.key+".json"))
	}
}
