package cli

import (
	"io/fs"
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
	if _, err := FindRoot(""); err == nil || !strings.HasSuffix(err.Error(), "; run it from the course") {
		t.Errorf("FindRoot outside the course, for a command without the option = %v; want an error ending with the advice to run it from the course", err)
	}
}

func TestIndent(t *testing.T) {
	if got, want := Indent("a\nb"), "    a\n    b"; got != want {
		t.Errorf("Indent = %q; want %q", got, want)
	}
}

func TestCopyTree(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "copy")
	files := map[string]string{
		"a.go":          "package a\n",
		"a_test.go":     "package a // skipped\n",
		"sub/b.go":      "package b\n",
		"sub/deep/c.md": "c\n",
	}
	for name, text := range files {
		path := filepath.Join(src, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(src, "a.go"), filepath.Join(src, "link.go")); err != nil {
		t.Fatal(err)
	}
	skipTests := func(path string, d fs.DirEntry) bool { return strings.HasSuffix(path, "_test.go") }
	if err := CopyTree(dst, src, skipTests); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		got, err := os.ReadFile(filepath.Join(dst, filepath.FromSlash(name)))
		switch {
		case name == "a_test.go":
			if err == nil {
				t.Errorf("%s was copied; skip says to leave it out", name)
			}
		case err != nil:
			t.Errorf("%s: %v", name, err)
		case string(got) != text:
			t.Errorf("%s = %q; want %q", name, got, text)
		}
	}
	if _, err := os.Lstat(filepath.Join(dst, "link.go")); err == nil {
		t.Errorf("the link was copied; want links left out")
	}

	// A single file, into a folder that does not exist yet; nil skips nothing.
	one := filepath.Join(t.TempDir(), "new", "a_test.go")
	if err := CopyTree(one, filepath.Join(src, "a_test.go"), nil); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(one); err != nil || string(got) != files["a_test.go"] {
		t.Errorf("single file copy = %q, %v; want %q", got, err, files["a_test.go"])
	}
	if err := CopyFile(filepath.Join(dst, "x"), filepath.Join(src, "missing")); err == nil {
		t.Errorf("CopyFile of a missing file: no error")
	}
}
