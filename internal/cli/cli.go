// Package cli holds what the course's own commands (cmd/course, cmd/grade,
// exercises/internal/mutate) share: finding the checkout they run in,
// indenting the multi-line messages they print under a one-line summary, and
// copying parts of the checkout into a scratch folder.
package cli

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ModulePath is the course's Go module.
const ModulePath = "github.com/posenc/course"

// FindRoot returns the nearest folder at or above the current one whose
// go.mod declares the course module. flag names the command's option for
// giving the folder instead, for the error message ("" when it has none).
func FindRoot(flag string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.Contains(string(data), "module "+ModulePath+"\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			advice := "run it from the course"
			if flag != "" {
				advice += ", or give " + flag
			}
			return "", fmt.Errorf("not inside the course repository (no go.mod for %s above the current folder); %s", ModulePath, advice)
		}
		dir = parent
	}
}

// Indent indents every line of s by four spaces.
func Indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// CopyTree copies the regular files under src (a folder, or a single file)
// to the same relative paths under dst, making folders as needed. Links and
// other special files are not part of the course and are left out, as is
// every file for which skip (if not nil) returns true.
func CopyTree(dst, src string, skip func(path string, d fs.DirEntry) bool) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type().IsRegular() && (skip == nil || !skip(path, d)):
			return CopyFile(target, path)
		}
		return nil
	})
}

// CopyFile copies the regular file src to dst, making dst's folder if needed.
func CopyFile(dst, src string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}
