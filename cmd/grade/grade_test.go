package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// events builds `go test -json` output from (action, test, output) triples.
func events(triples ...[3]string) []byte {
	var b bytes.Buffer
	for _, t := range triples {
		ev := map[string]string{"Action": t[0], "Package": "github.com/posenc/course/exercises"}
		if t[1] != "" {
			ev["Test"] = t[1]
		}
		if t[2] != "" {
			ev["Output"] = t[2]
		}
		data, _ := json.Marshal(ev)
		b.Write(data)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

var twoExercises = []exercise{
	{1, "one", "TestOne", 1, "easy", 5},
	{2, "two", "TestTwo", 2, "advanced", 15},
}

func TestGrade(t *testing.T) {
	pass := [][3]string{
		{"run", "TestOne", ""}, {"run", "TestOne/a", ""}, {"pass", "TestOne/a", ""}, {"pass", "TestOne", ""},
	}
	tests := []struct {
		name       string
		out        []byte
		wantStatus [2]string
		wantHint   [2]string
		wantChecks [2]string
		wantPoints int
	}{
		{
			name: "pass_and_todo",
			out: events(append(pass,
				[3]string{"run", "TestTwo", ""},
				[3]string{"output", "TestTwo", "    02_two_test.go:11: not implemented yet: open exercises/02_two.go and write Two (lesson 2). Hints: exercises/README.md\n"},
				[3]string{"fail", "TestTwo", ""})...),
			wantStatus: [2]string{statusPass, statusTodo},
			wantHint:   [2]string{"", "not implemented yet: open exercises/02_two.go and write Two (lesson 2)."},
			wantChecks: [2]string{"1/1", "0/0"},
			wantPoints: 5,
		},
		{
			name: "fail_with_hint_and_partial_checks",
			out: events(append(pass,
				[3]string{"run", "TestTwo", ""},
				[3]string{"run", "TestTwo/a", ""},
				[3]string{"output", "TestTwo/a", "=== RUN   TestTwo/a\n"},
				[3]string{"pass", "TestTwo/a", ""},
				[3]string{"run", "TestTwo/b", ""},
				[3]string{"output", "TestTwo/b", "        02_two_test.go:13: Two(1):\n"},
				[3]string{"output", "TestTwo/b", "            got 1, want 2\n"},
				[3]string{"output", "TestTwo/b", "            Hint: sin and cos are swapped\n"},
				[3]string{"output", "TestTwo/b", "    --- FAIL: TestTwo/b (0.00s)\n"},
				[3]string{"fail", "TestTwo/b", ""},
				[3]string{"fail", "TestTwo", ""})...),
			wantStatus: [2]string{statusPass, statusFail},
			wantHint:   [2]string{"", "sin and cos are swapped"},
			wantChecks: [2]string{"1/1", "1/2"},
			wantPoints: 5,
		},
		{
			name: "crash_stops_the_binary",
			out: events(append(pass,
				[3]string{"run", "TestTwo", ""},
				[3]string{"output", "TestTwo", "panic: boom in a goroutine\n"},
				[3]string{"fail", "", ""})...),
			wantStatus: [2]string{statusPass, statusCrashed},
			wantHint:   [2]string{"", "panic: boom in a goroutine"},
			wantChecks: [2]string{"1/1", "0/0"},
			wantPoints: 5,
		},
		{
			name:       "a_test_that_never_ran",
			out:        events(pass...),
			wantStatus: [2]string{statusPass, statusNotRun},
			wantHint:   [2]string{"", "the test TestTwo did not run"},
			wantChecks: [2]string{"1/1", "0/0"},
			wantPoints: 5,
		},
		{
			name: "build_failure",
			out: []byte(`{"ImportPath":"github.com/posenc/course/exercises [github.com/posenc/course/exercises.test]","Action":"build-output","Output":"# github.com/posenc/course/exercises\n"}
{"ImportPath":"github.com/posenc/course/exercises [github.com/posenc/course/exercises.test]","Action":"build-output","Output":"exercises/03_sinusoidal.go:9:2: undefined: foo\n"}
{"ImportPath":"github.com/posenc/course/exercises [github.com/posenc/course/exercises.test]","Action":"build-fail"}
{"Action":"start","Package":"github.com/posenc/course/exercises"}
{"Action":"output","Package":"github.com/posenc/course/exercises","Output":"FAIL\tgithub.com/posenc/course/exercises [build failed]\n"}
{"Action":"fail","Package":"github.com/posenc/course/exercises","FailedBuild":"github.com/posenc/course/exercises [github.com/posenc/course/exercises.test]"}
`),
			wantStatus: [2]string{statusBuild, statusBuild},
			wantHint:   [2]string{"exercises/03_sinusoidal.go:9:2: undefined: foo", "exercises/03_sinusoidal.go:9:2: undefined: foo"},
			wantChecks: [2]string{"0/0", "0/0"},
			wantPoints: 0,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := grade(parseEvents(tc.out), twoExercises)
			for i, r := range rep.Exercises {
				if r.Status != tc.wantStatus[i] {
					t.Errorf("exercise %d: status %q; want %q", r.Number, r.Status, tc.wantStatus[i])
				}
				if r.Hint != tc.wantHint[i] {
					t.Errorf("exercise %d: hint %q; want %q", r.Number, r.Hint, tc.wantHint[i])
				}
				if got := fmt.Sprintf("%d/%d", r.ChecksPassed, r.Checks); got != tc.wantChecks[i] {
					t.Errorf("exercise %d: checks %s; want %s", r.Number, got, tc.wantChecks[i])
				}
			}
			if rep.Points != tc.wantPoints || rep.MaxPoints != 20 {
				t.Errorf("points %d/%d; want %d/20", rep.Points, rep.MaxPoints, tc.wantPoints)
			}
			if rep.AllPassed() {
				t.Error("AllPassed() = true; want false")
			}
		})
	}
}

func TestWriteTable(t *testing.T) {
	out := events(
		[3]string{"run", "TestOne", ""}, [3]string{"run", "TestOne/a", ""}, [3]string{"pass", "TestOne/a", ""}, [3]string{"pass", "TestOne", ""},
		[3]string{"run", "TestTwo", ""}, [3]string{"run", "TestTwo/a", ""},
		[3]string{"output", "TestTwo/a", "    x_test.go:1: Hint: " + strings.Repeat("long ", 40) + "\n"},
		[3]string{"fail", "TestTwo/a", ""}, [3]string{"fail", "TestTwo", ""})
	rep := grade(parseEvents(out), twoExercises)
	var b bytes.Buffer
	if err := rep.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	table := b.String()
	for _, want := range []string{
		"exercise", "first hint",
		"01 one", "pass", "1/1", "5/5",
		"02 two", "fail", "0/1", "0/15", "long long", "…",
		"Total: 5/20 points, 1 of 2 exercises pass.",
		"-run Two",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	b.Reset()
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatalf("--json output does not parse: %v\n%s", err, b.String())
	}
	if back.Points != 5 || back.MaxPoints != 20 || len(back.Exercises) != 2 || back.Exercises[1].Hint != strings.TrimSpace(strings.Repeat("long ", 40)) {
		t.Errorf("--json round trip: %+v", back)
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-nope"},
		{"extra"},
		{"-verify", "--json"},
		{"-dir", t.TempDir()},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("run(%q) = %d; want 2", args, code)
		}
		if msg := stderr.String(); !strings.HasPrefix(msg, "grade: ") || strings.Count(msg, "\n") != 1 {
			t.Errorf("run(%q) printed %q; want one line starting with \"grade: \"", args, msg)
		}
	}
}

// TestVerifyCatches feeds the verifier broken states: each must be reported.
func TestVerifyCatches(t *testing.T) {
	v := &verifier{list: twoExercises}
	solvedOne := func(e exercise) bool { return e.Num == 1 }
	base := [][3]string{{"run", "TestFeedback", ""}, {"pass", "TestFeedback", ""}}
	todoTwo := [][3]string{{"run", "TestTwo", ""},
		{"output", "TestTwo", "    t.go:1: not implemented yet: open exercises/02_two.go and write Two\n"}, {"fail", "TestTwo", ""}}
	passOne := [][3]string{{"run", "TestOne", ""}, {"run", "TestOne/a", ""}, {"pass", "TestOne/a", ""}, {"pass", "TestOne", ""}}
	tests := []struct {
		name string
		evs  [][3]string
		want string
	}{
		{"solution_fails", append(append([][3]string{{"run", "TestOne", ""}, {"fail", "TestOne", ""}}, todoTwo...), base...), "01 one fails on its solution"},
		{"stub_passes", append(append(append([][3]string{}, passOne...), base...),
			[3]string{"run", "TestTwo", ""}, [3]string{"pass", "TestTwo", ""}), "02 two on its untouched stub"},
		{"feedback_fails", append(append(append([][3]string{}, passOne...), todoTwo...),
			[3]string{"run", "TestFeedback", ""}, [3]string{"fail", "TestFeedback", ""}), "TestFeedback fails"},
		{"unknown_test", append(append(append(append([][3]string{}, passOne...), todoTwo...), base...),
			[3]string{"run", "TestExtra", ""}, [3]string{"pass", "TestExtra", ""}), "TestExtra is neither"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := parseEvents(events(tc.evs...))
			err := v.checkRun(grade(run, v.list), run, solvedOne)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("checkRun = %v; want an error containing %q", err, tc.want)
			}
		})
	}
	t.Run("good_run", func(t *testing.T) {
		run := parseEvents(events(append(append(append([][3]string{}, passOne...), todoTwo...), base...)...))
		if err := v.checkRun(grade(run, v.list), run, solvedOne); err != nil {
			t.Errorf("checkRun on a good run: %v", err)
		}
	})
}

// TestCheckFilesCatches breaks a copy of the real exercise files.
func TestCheckFilesCatches(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"exercises", "solutions"} {
		if err := copyTree(filepath.Join("..", "..", d), filepath.Join(root, d)); err != nil {
			t.Fatal(err)
		}
	}
	v := &verifier{root: root, list: exercises}
	if _, err := v.checkFiles(); err != nil {
		t.Fatalf("checkFiles on the real files: %v", err)
	}
	e := exercises[2]
	readme := filepath.Join(root, "exercises", "README.md")
	text, _ := os.ReadFile(readme)
	broken := strings.Replace(string(text), fmt.Sprintf("| %d |", e.Points), "| 99 |", 1)
	mustWrite(t, readme, broken)
	mustWrite(t, filepath.Join(root, "solutions", e.Base()), "package exercises\n\n// TODO\n")
	mustWrite(t, filepath.Join(root, "exercises", "99_extra.go"), "package exercises\n")
	_, err := v.checkFiles()
	for _, want := range []string{"points \"99\"", "solutions/" + e.Base() + " is still a stub", "99_extra.go is not in"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("checkFiles = %v; want it to report %q", err, want)
		}
	}
}

func mustWrite(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGradeRealExercises runs the grader on the real exercises: on the
// stubs as they are, and with every solution standing in for its stub.
func TestGradeRealExercises(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on ./exercises twice")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("stubs", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"-dir", root}, &stdout, &stderr); code != 1 {
			t.Fatalf("exit status %d; want 1 (stderr: %s)", code, stderr.String())
		}
		table := stdout.String()
		for _, e := range exercises {
			line := lineWith(table, e.Name()+" ")
			if !strings.Contains(line, statusTodo) || !strings.Contains(line, "not implemented yet: open exercises/"+e.Base()) {
				t.Errorf("the row of %s is %q; want %q and its stub's message", e.Name(), line, statusTodo)
			}
		}
		if want := fmt.Sprintf("Total: 0/%d points, 0 of %d exercises pass.", maxPoints(exercises), len(exercises)); !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	})
	t.Run("solutions", func(t *testing.T) {
		replace := map[string]string{}
		for _, e := range exercises {
			replace[filepath.Join(root, "exercises", e.Base())] = filepath.Join(root, "solutions", e.Base())
		}
		data, _ := json.Marshal(map[string]any{"Replace": replace})
		overlay := filepath.Join(t.TempDir(), "overlay.json")
		mustWrite(t, overlay, string(data))
		var stdout, stderr bytes.Buffer
		if code := run([]string{"-dir", root, "-overlay", overlay, "--json"}, &stdout, &stderr); code != 0 {
			t.Fatalf("exit status %d; want 0\n%s%s", code, stdout.String(), stderr.String())
		}
		var rep Report
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
			t.Fatalf("--json: %v\n%s", err, stdout.String())
		}
		if rep.Points != maxPoints(exercises) || rep.Passed != len(exercises) {
			t.Errorf("%d/%d points, %d/%d pass; want full marks", rep.Points, rep.MaxPoints, rep.Passed, rep.Total)
		}
		for _, r := range rep.Exercises {
			if r.Checks == 0 || r.ChecksPassed != r.Checks {
				t.Errorf("%02d %s: %d/%d checks", r.Number, r.Slug, r.ChecksPassed, r.Checks)
			}
		}
	})
}

func lineWith(text, prefix string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}
