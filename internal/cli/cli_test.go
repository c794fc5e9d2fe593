package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindRoot(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module "+ModulePath+"\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	deep := filepath.Join(root, "notebooks", "sub")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(deep)
	if got, err := FindRoot("-root"); err != nil || got != root {
		t.Errorf("FindRoot from %s = %q, %v; want %q", deep, got, err, root)
	}

	// Another module's go.mod is not the course.
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(other)
	if _, err := FindRoot("-dir"); err == nil || !strings.Contains(err.Error(), "give -dir") {
		t.Errorf("FindRoot outside the course = %v; want an error naming -dir", err)
	}
}

func TestIndent(t *testing.T) {
	if got, want := Indent("a\nb"), "    a\n    b"; got != want {
		t.Errorf("Indent = %q; want %q", got, want)
	}
}
