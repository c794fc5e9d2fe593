// Command gen writes the files that follow from the exercises' entries (each
// registered beside its checks in internal/check), so that none of them is a
// hand-kept copy:
//
//   - exercises/NN_slug_test.go, the test a learner reads: one line that runs
//     the exercise's checks, under a comment that lists each of them;
//   - exercises/README.md's table and its folded hints (each between two
//     markers);
//   - each lesson's list of exercises and its grading cell, in its
//     Exercises section (between two markers);
//   - the Exercises column of README.md's course map.
//
// Run it after adding or changing an exercise, from anywhere in the course
// (exercises/doc.go holds its //go:generate line):
//
//	go generate ./exercises                  # rewrite the files
//	go run ./exercises/internal/gen -check   # fail if any is stale (its tests do this too)
//
// A lesson whose Markdown it rewrote needs its notebook regenerated (make
// notebooks N=…); go run ./cmd/course check says which.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/internal/check"
	"github.com/posenc/course/internal/cli"
)

func main() {
	checkOnly := flag.Bool("check", false, "report stale files instead of rewriting them")
	root := flag.String("root", "", "the repository root (default: found from the current directory)")
	flag.Parse()
	if *root == "" {
		var err error
		if *root, err = cli.FindRoot("-root"); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(2)
		}
	}
	files, err := generate(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(2)
	}
	stale := 0
	for _, f := range files {
		old, err := os.ReadFile(filepath.Join(*root, f.path))
		if err == nil && bytes.Equal(old, f.data) {
			continue
		}
		if *checkOnly {
			fmt.Fprintf(os.Stderr, "gen: %s is stale: run go generate ./exercises\n", f.path)
			stale++
			continue
		}
		if err := os.WriteFile(filepath.Join(*root, f.path), f.data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(2)
		}
		fmt.Println("wrote", f.path)
		if strings.HasPrefix(f.path, "lessons"+string(filepath.Separator)) {
			fmt.Printf("    regenerate its notebook: make notebooks N=%s\n", filepath.Base(f.path)[:2])
		}
	}
	if stale > 0 {
		os.Exit(1)
	}
}

// file is one generated file, by its path from the repository root.
type file struct {
	path string
	data []byte
}

// generate returns every generated file's expected contents.
func generate(root string) ([]file, error) {
	entries := check.Entries()
	if err := validate(entries); err != nil {
		return nil, err
	}
	var out []file
	for _, e := range entries {
		data, err := testFile(e)
		if err != nil {
			return nil, err
		}
		out = append(out, file{filepath.Join(catalog.Dir, e.TestFile()), data})
	}

	readme, err := os.ReadFile(filepath.Join(root, catalog.Dir, "README.md"))
	if err != nil {
		return nil, err
	}
	text, err := replaceBetween(string(readme), "exercises/README.md", tableStart, tableEnd, table(entries))
	if err != nil {
		return nil, err
	}
	if text, err = replaceBetween(text, "exercises/README.md", hintsStart, hintsEnd, hintsSection(entries)); err != nil {
		return nil, err
	}
	out = append(out, file{filepath.Join(catalog.Dir, "README.md"), []byte(text)})

	for _, l := range catalog.Lessons {
		path, data, err := exercisesPart(root, l)
		if err != nil {
			return nil, err
		}
		rel := filepath.Join("lessons", filepath.Base(path))
		text, err := replaceBetween(string(data), rel, lessonStart, lessonEnd, lessonSection(l, entries))
		if err != nil {
			return nil, err
		}
		out = append(out, file{rel, []byte(text)})
	}

	course, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		return nil, err
	}
	text, err = courseMap(string(course), entries)
	if err != nil {
		return nil, err
	}
	out = append(out, file{"README.md", []byte(text)})
	return out, nil
}

// exercisesPart returns the file of lesson l that holds its Exercises
// markers, and its text: the lesson's only file, or, for a lesson split into
// parts (files sharing its number), the one part with the markers.
func exercisesPart(root string, l catalog.Lesson) (string, []byte, error) {
	paths, _ := filepath.Glob(filepath.Join(root, "lessons", fmt.Sprintf("%02d-*.md", l.Num)))
	if len(paths) == 0 {
		return "", nil, fmt.Errorf("lesson %d (%s): no file lessons/%02d-*.md", l.Num, l.Title, l.Num)
	}
	var found string
	var text []byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return "", nil, err
		}
		if len(paths) > 1 && !bytes.Contains(data, []byte(lessonStart+"\n")) {
			continue
		}
		if found != "" {
			return "", nil, fmt.Errorf("lesson %d (%s): both %s and %s hold its exercises' markers; want one part",
				l.Num, l.Title, filepath.Base(found), filepath.Base(p))
		}
		found, text = p, data
	}
	if found == "" {
		return "", nil, fmt.Errorf("lesson %d (%s): none of its parts lessons/%02d-*.md holds the markers %s … %s",
			l.Num, l.Title, l.Num, lessonStart, lessonEnd)
	}
	return found, text, nil
}

// validate checks what the generated files rely on: unique numbers, slugs
// and tests, and a lesson with a title for every exercise.
func validate(entries []check.Entry) error {
	slugs, tests := map[string]int{}, map[string]int{}
	for _, e := range entries {
		if catalog.LessonTitle(e.Lesson) == "" {
			return fmt.Errorf("exercise %d: lesson %d is not in catalog.Lessons", e.Num, e.Lesson)
		}
		if n, ok := slugs[e.Slug]; ok {
			return fmt.Errorf("exercises %d and %d share the slug %q", n, e.Num, e.Slug)
		}
		if n, ok := tests[e.Test]; ok {
			return fmt.Errorf("exercises %d and %d share the test %s", n, e.Num, e.Test)
		}
		if !strings.HasPrefix(e.Test, "Test") {
			return fmt.Errorf("exercise %d: its test %q does not start with Test", e.Num, e.Test)
		}
		slugs[e.Slug], tests[e.Test] = e.Num, e.Num
		for _, u := range e.Uses {
			if u >= e.Num {
				return fmt.Errorf("exercise %d uses exercise %d, which does not come before it", e.Num, u)
			}
		}
	}
	return nil
}

// generatedHeader starts every generated Go file.
const generatedHeader = "// Code generated by go generate ./exercises; DO NOT EDIT.\n\n"

// testFile returns exercises/NN_slug_test.go for e: its test, which runs
// the exercise's checks on its case table, and the table.
func testFile(e check.Entry) ([]byte, error) {
	ex := e.Checks(e.Cases)
	if ex.Info.Num != e.Num || len(ex.Checks) == 0 {
		return nil, fmt.Errorf("exercise %d: its Checks build exercise %d with %d checks", e.Num, ex.Info.Num, len(ex.Checks))
	}
	var l literal
	table, err := l.value(reflect.ValueOf(e.Cases), 0, false)
	if err != nil {
		return nil, fmt.Errorf("exercise %d: %w", e.Num, err)
	}
	var b bytes.Buffer
	b.WriteString(generatedHeader)
	b.WriteString("package exercises\n\nimport (\n")
	if l.usesMath {
		b.WriteString("\t\"math\"\n")
	}
	b.WriteString("\t\"testing\"\n\n\t\"github.com/posenc/course/internal/check\"\n)\n\n")
	name := strings.TrimPrefix(e.Test, "Test")
	cases := fmt.Sprintf("exercise%02d", e.Num)
	doc := fmt.Sprintf("%s checks %s (exercise %d) on each row of %s below, in a subtest of the row's name: "+
		"go test ./exercises -run '%s/%s' -v runs the first row alone. Each row calls your code on copies of its "+
		"inputs and compares the answer with its Want (or checks the property its table states); it fails too "+
		"when your code changes an argument or returns memory it shares with one. When a wrong answer matches a "+
		"classic mistake, the message names it in a hint (the hints are chosen in internal/check/ex%02d_%s.go).",
		e.Test, e.FuncList(), e.Num, cases, name, ex.Checks[0].Name, e.Num, e.Slug)
	for _, line := range strings.Split(strings.TrimSuffix(wrap(doc, 77, ""), "\n"), "\n") {
		b.WriteString("// " + line + "\n")
	}
	fmt.Fprintf(&b, "func %s(t *testing.T) { check.%s(%s, %s).Run(t) }\n\n", e.Test, name, strings.Join(e.Funcs, ", "), cases)
	fmt.Fprintf(&b, "// %s is exercise %d's case table.\nvar %s = %s\n", cases, e.Num, cases, table)
	return format.Source(b.Bytes())
}

// replaceBetween returns text with what lies between the lines start and
// end replaced by body.
func replaceBetween(text, name, start, end, body string) (string, error) {
	i := strings.Index(text, start+"\n")
	j := strings.Index(text, "\n"+end+"\n")
	if i < 0 || j < i {
		return "", fmt.Errorf("%s lacks the markers %s … %s, each on a line of its own", name, start, end)
	}
	return text[:i+len(start)+1] + body + text[j+1:], nil
}

// The markers of the generated parts.
const (
	tableStart  = "<!-- The table is generated by go generate ./exercises from internal/check. -->"
	tableEnd    = "<!-- End of the generated table. -->"
	hintsStart  = "<!-- The hints are generated by go generate ./exercises from internal/check. -->"
	hintsEnd    = "<!-- End of the generated hints. -->"
	lessonStart = "<!-- The list and the grading cell are generated by go generate ./exercises from internal/check. -->"
	lessonEnd   = "<!-- End of the generated exercises. -->"
)

// table returns the README's table of exercises and its total.
func table(entries []check.Entry) string {
	var b strings.Builder
	b.WriteString("\n| # | Exercise | Lesson | Difficulty | Points | Run |\n|---|----------|--------|------------|--------|-----|\n")
	count := map[catalog.Difficulty]int{}
	list := make([]catalog.Exercise, len(entries))
	for i, e := range entries {
		fmt.Fprintf(&b, "| %02d | [%s](%s) | %d · %s | %s | %d | `-run %s` |\n",
			e.Num, e.Title, e.File(), e.Lesson, catalog.LessonTitle(e.Lesson), e.Difficulty, e.Points(), strings.TrimPrefix(e.Test, "Test"))
		count[e.Difficulty]++
		list[i] = e.Exercise
	}
	fmt.Fprintf(&b, "\n**Total: %d points** for %d exercises (%d easy, worth %d each; %d medium, %d each; %d advanced, %d each).\n",
		catalog.MaxPoints(list), len(list), count[catalog.Easy], catalog.Easy.Points(),
		count[catalog.Medium], catalog.Medium.Points(), count[catalog.Advanced], catalog.Advanced.Points())
	b.WriteString("An exercise scores its points when all of its checks pass.\n\n")
	return b.String()
}

// hintsSection returns the README's folded hints, by lesson: under each
// exercise's fold, one fold for each layer of its hints (where to look and
// the idea, the formula, the code), so that opening the first does not give
// away the last.
func hintsSection(entries []check.Entry) string {
	var b strings.Builder
	for _, l := range catalog.Lessons {
		first := true
		for _, e := range entries {
			if e.Lesson != l.Num {
				continue
			}
			if first {
				fmt.Fprintf(&b, "\n### Lesson %d · %s\n", l.Num, l.Title)
				first = false
			}
			fmt.Fprintf(&b, "\n<details>\n<summary><b>%02d · %s</b></summary>\n", e.Num, e.Title)
			layers := []struct {
				title  string
				blocks []string
			}{
				{"1 · Where to look, and the idea", append([]string{readLine(e.Hints.Read)}, e.Hints.Idea...)},
				{"2 · The formula", e.Hints.Formula},
				{"3 · The code", e.Hints.Code},
			}
			for _, layer := range layers {
				if len(layer.blocks) > 0 {
					fmt.Fprintf(&b, "\n<details>\n<summary>%s</summary>\n\n%s</details>\n", layer.title, markdownBlocks(layer.blocks, 113))
				}
			}
			b.WriteString("</details>\n")
		}
	}
	b.WriteString("\n")
	return b.String()
}

// readLine names the lesson sections to read: "Read lesson 4, “Rotating a
// pair” and “The frequencies”."
func readLine(sections []check.Section) string {
	var parts []string
	for i, sec := range sections {
		title := "“" + sec.Title + "”"
		if i == 0 || sections[i-1].Lesson != sec.Lesson {
			title = fmt.Sprintf("lesson %d, %s", sec.Lesson, title)
		}
		parts = append(parts, title)
	}
	switch len(parts) {
	case 1:
		return "Read " + parts[0] + "."
	default:
		return "Read " + strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1] + "."
	}
}

// listItem matches the start of a Markdown list item and captures its
// marker with the space after it.
var listItem = regexp.MustCompile(`^(- |\d+\. )`)

// markdownBlocks returns blocks (list items and paragraphs) as Markdown,
// each wrapped at width: consecutive list items form one list, and a blank
// line separates everything else.
func markdownBlocks(blocks []string, width int) string {
	var b strings.Builder
	for i, block := range blocks {
		isItem := listItem.MatchString(block)
		if i > 0 && !(isItem && listItem.MatchString(blocks[i-1])) {
			b.WriteString("\n")
		}
		indent := ""
		if isItem {
			indent = strings.Repeat(" ", len(listItem.FindString(block)))
		}
		b.WriteString(wrap(block, width, indent))
	}
	return b.String()
}

// wrap breaks text into lines of at most width runes where it can, the
// lines after the first starting with indent. It breaks only at spaces
// outside code spans (`…`) and math ($…$), so that neither is split.
func wrap(text string, width int, indent string) string {
	var words []string
	var cur strings.Builder
	inCode, inMath := false, false
	for _, r := range text {
		switch {
		case r == '`' && !inMath:
			inCode = !inCode
		case r == '$' && !inCode:
			inMath = !inMath
		case r == ' ' && !inCode && !inMath:
			words = append(words, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteRune(r)
	}
	words = append(words, cur.String())
	var b strings.Builder
	line := 0
	for i, w := range words {
		n := utf8.RuneCountInString(w)
		switch {
		case i == 0:
		case line+1+n > width:
			b.WriteString("\n" + indent)
			line = utf8.RuneCountInString(indent)
		default:
			b.WriteString(" ")
			line++
		}
		b.WriteString(w)
		line += n
	}
	return b.String() + "\n"
}

// lessonSection returns the generated part of lesson l's Exercises section:
// a line per exercise, how to check them, and the grading cell.
func lessonSection(l catalog.Lesson, entries []check.Entry) string {
	var b strings.Builder
	var tests []string
	b.WriteString("\n")
	for _, e := range entries {
		if e.Lesson != l.Num {
			continue
		}
		b.WriteString(wrap(fmt.Sprintf("- [%02d · %s](../%s/%s): %s", e.Num, e.Title, catalog.Dir, e.File(), e.Blurb), 115, "  "))
		tests = append(tests, strings.TrimPrefix(e.Test, "Test"))
	}
	if len(tests) == 0 {
		return "\nThis lesson has no graded exercises.\n\n"
	}
	b.WriteString("\n" + wrap(fmt.Sprintf("Run `go test ./exercises -run '%s'` to check your work, and `go run ./cmd/grade` for a "+
		"score; [exercises/README.md](../exercises/README.md) explains the hints.", strings.Join(tests, "|")), 115, "") + "\n")
	b.WriteString("To grade this lesson's exercises without leaving Jupyter, edit the files in its editor (in JupyterLab, the links\n" +
		"above open them there), save, and run the next cell: it runs the course's grader on this lesson's exercises only.\n" +
		"Until you fill them in, each reads \"not implemented\".\n\n")
	fmt.Fprintf(&b, "```go\n!cd .. && go run ./cmd/grade -lesson %d\n```\n\n", l.Num)
	return b.String()
}

// courseMap returns README.md with the Exercises column of its course map
// (the first table after "## The course") listing each lesson's exercises.
func courseMap(readme string, entries []check.Entry) (string, error) {
	const heading = "\n## The course\n"
	i := strings.Index(readme, heading)
	if i < 0 {
		return "", errors.New("README.md has no “## The course” section")
	}
	lines := strings.SplitAfter(readme[i+len(heading):], "\n")
	row := regexp.MustCompile(`^\| (\d+) \|(.*)\| [^|]* \|\n$`)
	var b strings.Builder
	b.WriteString(readme[:i+len(heading)])
	inTable, done := false, false
	for _, line := range lines {
		switch {
		case done:
		case strings.HasPrefix(line, "|") && !inTable:
			if !strings.HasSuffix(strings.TrimSpace(line), "| Exercises |") {
				return "", errors.New("README.md: the course map's last column is not “Exercises”")
			}
			inTable = true
		case strings.HasPrefix(line, "|"):
			if m := row.FindStringSubmatch(line); m != nil {
				var n int
				fmt.Sscan(m[1], &n)
				line = fmt.Sprintf("| %s |%s| %s |\n", m[1], m[2], lessonExercises(n, entries))
			}
		case inTable:
			done = true
		}
		b.WriteString(line)
	}
	if !inTable {
		return "", errors.New("README.md: no table under “## The course”")
	}
	return b.String(), nil
}

// lessonExercises returns lesson n's exercise numbers, "03, 04, 05", or "—".
func lessonExercises(n int, entries []check.Entry) string {
	var nums []string
	for _, e := range entries {
		if e.Lesson == n {
			nums = append(nums, fmt.Sprintf("%02d", e.Num))
		}
	}
	if len(nums) == 0 {
		return "—"
	}
	return strings.Join(nums, ", ")
}
