package smollm

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindSaysRunMakeModel(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(ModelDirEnvVar, dir)
	if _, err := Find(); !errors.Is(err, ErrNoModel) || !strings.Contains(err.Error(), "run make model") {
		t.Fatalf("Find with no file: %v, want an error saying run make model", err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("GGUF"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Find(); !errors.Is(err, ErrNoModel) || !strings.Contains(err.Error(), "4 bytes") {
		t.Fatalf("Find with a truncated file: %v, want an error naming its size", err)
	}
}

func TestDirFollowsXDG(t *testing.T) {
	t.Setenv(ModelDirEnvVar, "")
	t.Setenv("XDG_CACHE_HOME", "/x/cache")
	if d, _ := Dir(); d != "/x/cache/posenc-course/models" {
		t.Fatalf("Dir = %q, want /x/cache/posenc-course/models", d)
	}
}
