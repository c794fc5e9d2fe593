package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/posenc/course/internal/cli"
)

// tempCourse makes a repository root with one lesson and, when executed is
// true, its notebook as the course tool would write it.
func tempCourse(t *testing.T, executed bool) string {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module "+cli.ModulePath+"\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lp := writeLesson(t, filepath.Join(root, "lessons"), "07-demo.md", demoLesson)
	if err := os.MkdirAll(filepath.Join(root, "notebooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if executed {
		l, err := ReadLesson(lp)
		if err != nil {
			t.Fatal(err)
		}
		gen := NewNotebook(l)
		nb, err := WithOutputs(gen, executedCopy(t, gen, "2\n"))
		if err != nil {
			t.Fatal(err)
		}
		data, _ := nb.Encode()
		if err := os.WriteFile(filepath.Join(root, "notebooks", "07-demo.ipynb"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func runCourse(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestUsageErrors(t *testing.T) {
	root := tempCourse(t, true)
	tests := []struct {
		args    []string
		wantErr string
	}{
		{nil, "course: no command"},
		{[]string{"-root", root, "frobnicate"}, `course: unknown command "frobnicate"`},
		{[]string{"-nosuchflag", "check"}, "flag provided but not defined: -nosuchflag"},
		{[]string{"-root", root, "run", "-timeout", "0s"}, "-timeout must be positive, got 0s"},
		{[]string{"-root", root, "run", "9"}, `no lesson "9"`},
		{[]string{"-root", root, "check", "07"}, "check takes no lessons"},
	}
	for _, tt := range tests {
		code, _, stderr := runCourse(tt.args...)
		if code != 2 {
			t.Errorf("course %q exit code = %d; want 2", tt.args, code)
		}
		if !strings.Contains(stderr, tt.wantErr) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("course %q stderr = %q; want one line containing %q", tt.args, stderr, tt.wantErr)
		}
	}
	if code, _, stderr := runCourse("-h"); code != 0 || !strings.Contains(stderr, "usage: course") {
		t.Errorf("course -h = %d, %q; want 0 and the usage", code, stderr)
	}
}

func TestListCommand(t *testing.T) {
	root := tempCourse(t, false)
	code, stdout, _ := runCourse("-root", root, "list")
	if code != 0 || stdout != "07\tlessons/07-demo.md\tnotebooks/07-demo.ipynb\n" {
		t.Errorf("course list = %d, %q", code, stdout)
	}
}

func TestCheckCommand(t *testing.T) {
	t.Run("in sync", func(t *testing.T) {
		root := tempCourse(t, true)
		code, stdout, stderr := runCourse("-root", root, "check")
		if code != 0 || !strings.Contains(stdout, "ok   notebooks/07-demo.ipynb matches lessons/07-demo.md") {
			t.Errorf("check = %d\nstdout %s\nstderr %s", code, stdout, stderr)
		}
	})
	t.Run("code line changed without regenerating", func(t *testing.T) {
		root := tempCourse(t, true)
		writeLesson(t, filepath.Join(root, "lessons"), "07-demo.md", strings.Replace(demoLesson, "return 2", "return 20", 1))
		code, _, stderr := runCourse("-root", root, "check")
		for _, want := range []string{
			"FAIL notebooks/07-demo.ipynb is out of date with lessons/07-demo.md: cell 3 (code, lesson line 6)",
			"go run ./cmd/course notebooks 07",
		} {
			if !strings.Contains(stderr, want) {
				t.Errorf("check stderr:\n%s\nwant it to contain %q", stderr, want)
			}
		}
		if code != 1 {
			t.Errorf("check exit code = %d; want 1", code)
		}
	})
	t.Run("missing notebook", func(t *testing.T) {
		root := tempCourse(t, false)
		code, _, stderr := runCourse("-root", root, "check")
		if code != 1 || !strings.Contains(stderr, "notebooks/07-demo.ipynb is missing for lessons/07-demo.md") {
			t.Errorf("check = %d, %q", code, stderr)
		}
	})
	t.Run("notebook without lesson", func(t *testing.T) {
		root := tempCourse(t, true)
		if err := os.WriteFile(filepath.Join(root, "notebooks", "08-stray.ipynb"), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCourse("-root", root, "check")
		if code != 1 || !strings.Contains(stderr, "notebooks/08-stray.ipynb has no lesson lessons/08-stray.md") {
			t.Errorf("check = %d, %q", code, stderr)
		}
	})
	t.Run("committed with a failing cell", func(t *testing.T) {
		root := tempCourse(t, true)
		p := filepath.Join(root, "notebooks", "07-demo.ipynb")
		nb, err := ReadNotebook(p)
		if err != nil {
			t.Fatal(err)
		}
		nb.Cells()[4]["outputs"] = []any{stream("stderr", "panic: lesson check failed: x\n\nexit status 2\n")}
		data, _ := nb.Encode()
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCourse("-root", root, "check")
		if code != 1 || !strings.Contains(stderr, "committed with a failing cell (panic)") || !strings.Contains(stderr, "lesson check failed: x") {
			t.Errorf("check = %d, %q", code, stderr)
		}
	})
}

func TestRunWithoutJupyter(t *testing.T) {
	root := tempCourse(t, false)
	t.Setenv("COURSE_PYTHON", filepath.Join(root, "no-such-python"))
	code, _, stderr := runCourse("-root", root, "run")
	if code != 1 || !strings.Contains(stderr, "no Python with Jupyter's nbclient") || !strings.Contains(stderr, "scripts/install.sh --apt") {
		t.Errorf("run without Jupyter = %d, %q; want 1 and how to install it", code, stderr)
	}
}

// TestRootFromCurrentFolder checks that the command finds the checkout
// from a folder inside it, and names its -root option outside one.
func TestRootFromCurrentFolder(t *testing.T) {
	root := tempCourse(t, false)
	t.Chdir(filepath.Join(root, "lessons"))
	if code, stdout, stderr := runCourse("list"); code != 0 || !strings.Contains(stdout, "lessons/07-demo.md") {
		t.Errorf("list from lessons/ = %d, %q, %q; want 0 and the demo lesson", code, stdout, stderr)
	}
	t.Chdir(t.TempDir())
	if code, _, stderr := runCourse("list"); code != 1 || !strings.Contains(stderr, "give -root") {
		t.Errorf("list outside the course = %d, %q; want 1 and an error suggesting -root", code, stderr)
	}
}
