package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/internal/check"
)

// built is the outcome of compiling the exercise tests.
type built struct {
	binary string              // the test binary, when the build succeeded
	broken map[int]string      // exercises replaced by a stand-in: their compiler error's first line
	errs   map[string][]string // every compiler error, by file
	fatal  string              // what stopped the build, when nothing could be graded
}

// errorText returns every compiler error of the broken files, once, in
// file order.
func (b *built) errorText() string {
	files := make([]string, 0, len(b.errs))
	for f := range b.errs {
		files = append(files, f)
	}
	sort.Strings(files)
	var out []string
	for _, f := range files {
		out = append(out, b.errs[f]...)
	}
	return strings.Join(out, "\n")
}

// compileError matches one compiler error: "exercises/03_x.go:9:2: undefined: foo".
var compileError = regexp.MustCompile(`^(\S+\.go):(\d+)(?::(\d+))?: (.*)$`)

// build compiles the exercise tests of root into dir, with replace as the
// overlay, every time: go's build cache makes a rebuild cheap. (A cache of
// whole test binaries, keyed by everything they are built from, was tried
// and removed: measured with go run ./cmd/grade on 2 busy cores, minimum of
// 3 runs, it saved 1.4 s when nothing had changed since the last grade
// (0.42 s against 1.66 s on the stubs, 0.44 s against 1.87 s on the
// solutions) and nothing after an edit (1.76 s against 2.01 s, 1.98 s
// against 2.34 s, within the noise) or with an empty GOCACHE (38 to 117 s
// either way, set by the load): not worth its 190 lines.) Each exercise whose files do not compile is replaced by a
// stand-in built from its solution's signatures, and the build is retried,
// until it succeeds or an error is in no exercise's files.
func build(root, dir string, replace map[string]string) (*built, error) {
	b := &built{broken: map[int]string{}, errs: map[string][]string{}}
	replace = maps.Clone(replace) // build adds stand-ins; the caller's map stays as it was
	if replace == nil {
		replace = map[string]string{}
	}
	binary := filepath.Join(dir, "exercises.test")
	if runtime.GOOS == "windows" {
		binary += ".exe"
	}
	for attempt := 0; attempt <= len(check.Exercises())+1; attempt++ {
		out, err := goBuild(root, dir, binary, replace)
		if err == nil {
			b.binary = binary
			return b, nil
		}
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) {
			return nil, fmt.Errorf("running go test -c: %w", err)
		}
		progress := false
		for _, line := range strings.Split(out, "\n") {
			m := compileError.FindStringSubmatch(strings.TrimSpace(line))
			if m == nil {
				continue
			}
			path := compilerPath(root, m[1])
			if orig, ok := original(replace, path); ok { // the compiler names an overlay's file by its own path
				path = orig
			}
			file := filepath.ToSlash(relTo(root, path))
			if filepath.Dir(file) != catalog.Dir {
				continue // the course's own code: nothing a stand-in can fix
			}
			e, ok := check.ByFile(filepath.Base(file))
			if !ok {
				// A file of the learner's own (helpers.go): leave it out, and
				// let the exercises that need it fail to compile in turn.
				line := file + ":" + m[2] + suffix(m[3]) + ": " + m[4]
				b.errs[file] = append(b.errs[file], line)
				abs := filepath.Join(root, file)
				if _, done := replace[abs]; !done {
					empty := filepath.Join(dir, "empty_"+filepath.Base(file))
					if err := os.WriteFile(empty, []byte("package exercises\n"), 0o644); err != nil {
						return nil, err
					}
					replace[abs] = empty
					progress = true
				}
				continue
			}
			if _, done := b.broken[e.Num]; done {
				b.errs[file] = append(b.errs[file], file+":"+m[2]+suffix(m[3])+": "+m[4])
				continue
			}
			b.broken[e.Num] = file + ":" + m[2] + suffix(m[3]) + ": " + m[4]
			b.errs[file] = append(b.errs[file], b.broken[e.Num])
			standIn, err := writeStandIn(root, dir, e)
			if err != nil {
				return nil, err
			}
			replace[filepath.Join(root, catalog.Dir, e.File())] = standIn
			progress = true
		}
		if !progress {
			b.fatal = strings.TrimSpace(out)
			return b, nil
		}
	}
	b.fatal = "the exercises still do not compile after replacing every broken file"
	return b, nil
}

func suffix(col string) string {
	if col == "" {
		return ""
	}
	return ":" + col
}

// original returns the path that the overlay file path stands in for.
func original(replace map[string]string, path string) (string, bool) {
	for k, v := range replace {
		if v == path {
			return k, true
		}
	}
	return "", false
}

// compilerPath returns a path from a compiler message as an absolute path:
// the go command shortens paths relative to the directory it ran in (root)
// whenever that is shorter, overlay files outside root included (a
// checkout in /tmp/x/c sees /tmp/grade-1/07_rope.go as
// ../../grade-1/07_rope.go).
func compilerPath(root, path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(root, path)
}

// relTo returns path relative to root when it is inside it.
func relTo(root, path string) string {
	if !filepath.IsAbs(path) {
		return path
	}
	if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}

// goBuild runs go test -c on ./exercises. Vet is off: a vet complaint is not
// a reason to grade nothing.
func goBuild(root, dir, binary string, replace map[string]string) (string, error) {
	args := []string{"test", "-c", "-vet=off", "-o", binary}
	if len(replace) > 0 {
		data, err := json.Marshal(map[string]any{"Replace": replace})
		if err != nil {
			return "", err
		}
		overlay := filepath.Join(dir, "overlay.json")
		if err := os.WriteFile(overlay, data, 0o644); err != nil {
			return "", err
		}
		args = append(args, "-overlay="+overlay)
	}
	args = append(args, "./"+catalog.Dir)
	cmd := exec.Command(goCommand(), args...)
	cmd.Dir = root
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// goCommand returns the go command that runs this program's toolchain.
func goCommand() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

// readOverlay reads the Replace map of a go build -overlay file.
func readOverlay(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var o struct{ Replace map[string]string }
	if err := json.Unmarshal(data, &o); err != nil {
		return nil, fmt.Errorf("-overlay %s: %w", path, err)
	}
	return o.Replace, nil
}

// writeStandIn writes the stand-in for e's stub into dir and returns its
// path.
func writeStandIn(root, dir string, e catalog.Exercise) (string, error) {
	src, err := standIn(root, e)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "standin_"+e.File())
	return path, os.WriteFile(path, src, 0o644)
}

// standIn returns a stub for e that compiles whatever the learner's file
// holds: the exported functions of solutions/NN_slug.go, each of whose
// bodies panics with the stub's message and catalog.NotCompiling, so that
// another exercise calling one says which file to fix. (solutions/ is part
// of the course and the learner never edits it.)
func standIn(root string, e catalog.Exercise) ([]byte, error) {
	path := filepath.Join(root, "solutions", e.File())
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("building a stand-in for %s: %w", e.Path(), err)
	}
	var b bytes.Buffer
	b.WriteString("package exercises\n\n")
	var names []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || !fn.Name.IsExported() {
			continue
		}
		names = append(names, fn.Name.Name)
		fn.Doc, fn.Body = nil, nil
		if err := format.Node(&b, fset, fn); err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, " {\n\tpanic(%s)\n}\n\n", strconv.Quote(catalog.StubPanic(e)+catalog.NotCompiling))
	}
	for _, want := range e.Funcs {
		if !slices.Contains(names, want) {
			return nil, fmt.Errorf("building a stand-in for %s: solutions/%s has no func %s", e.Path(), e.File(), want)
		}
	}
	return format.Source(b.Bytes())
}
