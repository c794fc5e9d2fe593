package posgraph_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeExamples runs every Go program in README.md's library section
// and compares its standard output with the "// Output:" comment that ends
// it, so that the README's examples cannot rot.
func TestReadmeExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs each README example (-short)")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	programs := readmeLibraryPrograms(string(readme))
	if len(programs) < 4 {
		t.Fatalf("README.md's library section has %d Go programs; want at least 4 (one per family of encodings)", len(programs))
	}
	for i, src := range programs {
		t.Run(strings.TrimSpace(strings.Split(firstComment(src), "\n")[0]), func(t *testing.T) {
			want, ok := expectedOutput(src)
			if !ok {
				t.Fatalf("README example %d has no trailing // Output: comment", i+1)
			}
			dir, err := os.MkdirTemp(root, ".readme-example-")
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(dir)
			if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("go", "run", "./"+filepath.Base(dir))
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "GOMLX_BACKEND=go")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("README example %d failed: %v\n%s", i+1, err, stderr.String())
			}
			if got := strings.TrimSpace(stdout.String()); got != want {
				t.Errorf("README example %d printed\n%s\nwant (its // Output: comment)\n%s", i+1, got, want)
			}
		})
	}
}

// readmeLibraryPrograms returns the ```go blocks of the "## The library"
// section that are whole programs.
func readmeLibraryPrograms(readme string) []string {
	start := strings.Index(readme, "\n## The library")
	if start < 0 {
		return nil
	}
	section := readme[start+1:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	var programs []string
	for {
		i := strings.Index(section, "```go\n")
		if i < 0 {
			return programs
		}
		section = section[i+len("```go\n"):]
		j := strings.Index(section, "\n```")
		if j < 0 {
			return programs
		}
		if block := section[:j+1]; strings.HasPrefix(block, "package main") {
			programs = append(programs, block)
		}
		section = section[j+4:]
	}
}

// expectedOutput returns the text of the final "// Output:" comment.
func expectedOutput(src string) (string, bool) {
	i := strings.LastIndex(src, "// Output:")
	if i < 0 {
		return "", false
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(src[i+len("// Output:"):]), "\n") {
		lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(l, "//"), " "))
	}
	return strings.TrimSpace(strings.Join(lines, "\n")), true
}

// firstComment returns the first // comment of main, to name the subtest.
func firstComment(src string) string {
	i := strings.Index(src, "func main() {")
	if i < 0 {
		return "example"
	}
	rest := src[i:]
	if j := strings.Index(rest, "// "); j >= 0 {
		return rest[j+3:]
	}
	return "example"
}
