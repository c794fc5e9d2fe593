// Package cli holds what the course's own commands (cmd/course, cmd/grade)
// share: finding the checkout they run in, and indenting the multi-line
// messages they print under a one-line summary.
package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ModulePath is the course's Go module.
const ModulePath = "github.com/posenc/course"

// FindRoot returns the nearest folder at or above the current one whose
// go.mod declares the course module. flag names the command's option for
// giving the folder instead, for the error message.
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
			return "", fmt.Errorf("not inside the course repository (no go.mod for %s above the current folder); run it from the course, or give %s", ModulePath, flag)
		}
		dir = parent
	}
}

// Indent indents every line of s by four spaces.
func Indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}
