package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// LessonStats is what `course stats` reports for one lesson: how much prose
// it asks the learner to read, how number-dense that prose is, how many
// self-check lines its committed notebook shows, and the time it states.
type LessonStats struct {
	Lesson   string `json:"lesson"`   // "04-rope"
	Words    int    `json:"words"`    // words of running prose (see Prose)
	Decimals int    `json:"decimals"` // decimal numbers in that prose
	// DecimalsPer100 is Decimals per 100 words of prose.
	DecimalsPer100 float64 `json:"decimals_per_100_words"`
	CheckLines     int     `json:"check_lines"` // output lines of the committed notebook that start with ✓
	CodeCells      int     `json:"code_cells"`  // the lesson's ```go cells (the setup cell not counted)
	CheckCells     int     `json:"check_cells"` // those whose first line starts with // Checks:
	// Stated is the time line under the title (rule 1 of the style guide)
	// without its asterisks, "" when there is none; StatedMinutes its first
	// "N minutes" (reading and running).
	Stated        string `json:"stated,omitempty"`
	StatedMinutes int    `json:"stated_minutes,omitempty"`
	// EstimatedMinutes is the style guide's estimate of reading and
	// running: 200 words of prose a minute plus a minute a code cell.
	EstimatedMinutes int `json:"estimated_minutes"`
}

// decimalNumber matches a decimal number such as 1.7 or 0.0586; Decimals
// keeps those that stand alone (not in 2104.09864 after "arXiv:", v0.11.3,
// 1.2.3 or a name).
var decimalNumber = regexp.MustCompile(`[0-9]+\.[0-9]+`)

// statedTime matches the time line under a lesson's title: an emphasised
// line that starts "About".
var statedTime = regexp.MustCompile(`^\*(About [^*]*)\*$`)

var (
	htmlComment = regexp.MustCompile(`(?s)<!--.*?-->`)
	proseTag    = regexp.MustCompile(`</?[a-zA-Z][^>]*>`)
	linkTarget  = regexp.MustCompile(`\]\([^)]*\)`)
	minutes     = regexp.MustCompile(`([0-9]+) minutes?\b`)
)

// Prose returns the running prose of a lesson's Markdown: its lines outside
// fenced blocks (of any language), tables (lines starting with |) and $$
// display blocks, with HTML comments and tags, and link targets, removed
// (a tag's text stays: "Answer" of <summary>Answer</summary>).
func Prose(text string) string {
	text = htmlComment.ReplaceAllString(strings.ReplaceAll(text, "\r\n", "\n"), "")
	var out []string
	fence, inMath := "", false
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case fence != "":
			if isClosingFence(line, fence) {
				fence = ""
			}
			continue
		case inMath:
			if strings.HasSuffix(trimmed, "$$") {
				inMath = false
			}
			continue
		}
		if f, _, ok := openingFence(line); ok {
			fence = f
			continue
		}
		if strings.HasPrefix(trimmed, "$$") {
			// A one-line $$…$$ block, or the start of a longer one.
			inMath = !(len(trimmed) > 2 && strings.HasSuffix(trimmed[2:], "$$"))
			continue
		}
		if strings.HasPrefix(trimmed, "|") {
			continue
		}
		out = append(out, line)
	}
	prose := strings.Join(out, "\n")
	prose = proseTag.ReplaceAllString(prose, " ")
	return linkTarget.ReplaceAllString(prose, "]")
}

// Words counts the words of prose: runs of non-space characters holding a
// letter or a digit (a lone "—" or "$" is not a word).
func Words(prose string) int {
	n := 0
	for _, f := range strings.Fields(prose) {
		if strings.IndexFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			n++
		}
	}
	return n
}

// Decimals counts the decimal numbers of prose that stand alone: not
// preceded by a letter, digit, '.', ':', '/' or '_' (arXiv:2104.09864,
// v0.11.3, a path) nor followed by a letter, digit or '.' followed by a
// digit (1.2.3).
func Decimals(prose string) int {
	n := 0
	for _, m := range decimalNumber.FindAllStringIndex(prose, -1) {
		if m[0] > 0 {
			if c := prose[m[0]-1]; isWordByte(c) || c == '.' || c == ':' || c == '/' || c == '_' {
				continue
			}
		}
		if m[1] < len(prose) {
			c := prose[m[1]]
			if isWordByte(c) || (c == '.' && m[1]+1 < len(prose) && prose[m[1]+1] >= '0' && prose[m[1]+1] <= '9') {
				continue
			}
		}
		n++
	}
	return n
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// CheckLines counts the lines of a notebook's outputs (streams and plain
// text) that start with ✓: the self-checks a reader sees.
func CheckLines(nb Notebook) int {
	n := 0
	for _, c := range nb.Cells() {
		for _, o := range CellOutputs(c) {
			text := joinText(o["text"])
			if data, ok := o["data"].(map[string]any); ok {
				text += joinText(data["text/plain"])
			}
			for _, l := range strings.Split(text, "\n") {
				if strings.HasPrefix(strings.TrimSpace(l), "✓") {
					n++
				}
			}
		}
	}
	return n
}

// Stated returns the time line right under a lesson's title (the first
// non-blank line after it), without its asterisks, and its first "N
// minutes"; "" and 0 when there is none.
func Stated(text string) (string, int) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "# ") {
			continue
		}
		// The first paragraph under the title, which may wrap.
		var para []string
		for _, next := range lines[i+1:] {
			if t := strings.TrimSpace(next); t != "" {
				para = append(para, t)
			} else if len(para) > 0 {
				break
			}
		}
		if len(para) > 0 {
			m := statedTime.FindStringSubmatch(strings.Join(para, " "))
			if m == nil {
				return "", 0
			}
			mins := 0
			if mm := minutes.FindStringSubmatch(m[1]); mm != nil {
				mins, _ = strconv.Atoi(mm[1])
			}
			return m[1], mins
		}
		break
	}
	return "", 0
}

// Stats measures one lesson from its Markdown and its committed notebook
// (nil when there is none).
func Stats(slug, lesson string, nb Notebook) (LessonStats, error) {
	cells, err := ParseLesson(lesson)
	if err != nil {
		return LessonStats{}, fmt.Errorf("%s: %w", slug, err)
	}
	prose := Prose(lesson)
	s := LessonStats{Lesson: slug, Words: Words(prose), Decimals: Decimals(prose)}
	if s.Words > 0 {
		s.DecimalsPer100 = math.Round(1000*float64(s.Decimals)/float64(s.Words)) / 10
	}
	for _, c := range cells {
		if c.Type == "code" && c.Source != SetupCell {
			s.CodeCells++
			if c.IsCheck() {
				s.CheckCells++
			}
		}
	}
	if nb != nil {
		s.CheckLines = CheckLines(nb)
	}
	s.Stated, s.StatedMinutes = Stated(lesson)
	s.EstimatedMinutes = int(math.Round(float64(s.Words)/200)) + s.CodeCells
	return s, nil
}

// courseFiles reads the course's lessons and notebooks: from the working
// tree, or from a commit through git.
type courseFiles struct {
	root, rev string
}

// lessons returns the lesson file names (NN-slug.md), sorted.
func (f courseFiles) lessons() ([]string, error) {
	var names []string
	if f.rev == "" {
		entries, err := os.ReadDir(filepath.Join(f.root, "lessons"))
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			names = append(names, e.Name())
		}
	} else {
		out, err := f.git("ls-tree", "--name-only", f.rev+":lessons")
		if err != nil {
			return nil, err
		}
		names = strings.Fields(out)
	}
	var lessons []string
	for _, n := range names {
		if lessonName.MatchString(n) {
			lessons = append(lessons, n)
		}
	}
	sort.Strings(lessons)
	return lessons, nil
}

// read returns a file of the course (a slash-separated path from the root);
// ok is false when it does not exist.
func (f courseFiles) read(p string) (data []byte, ok bool, err error) {
	if f.rev == "" {
		data, err = os.ReadFile(filepath.Join(f.root, filepath.FromSlash(p)))
		if os.IsNotExist(err) {
			return nil, false, nil
		}
		return data, err == nil, err
	}
	if _, err := f.git("cat-file", "-e", f.rev+":"+p); err != nil {
		return nil, false, nil
	}
	out, err := f.git("show", f.rev+":"+p)
	return []byte(out), err == nil, err
}

func (f courseFiles) git(args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", f.root}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
			return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return string(out), nil
}

// stats prints every lesson's LessonStats, as a table or JSON.
func (c *course) stats(names []string) int {
	files := courseFiles{root: c.root, rev: c.opts.rev}
	if files.rev != "" {
		if _, err := files.git("rev-parse", "--verify", "-q", files.rev+"^{commit}"); err != nil {
			fmt.Fprintf(c.stderr, "course: -rev %s is not a commit of %s\n", files.rev, c.root)
			return 2
		}
	}
	lessons, err := files.lessons()
	if err != nil {
		fmt.Fprintf(c.stderr, "course: %v\n", err)
		return 1
	}
	want := map[string]bool{}
	for _, n := range names {
		key := strings.TrimSuffix(strings.TrimSuffix(path.Base(n), ".md"), ".ipynb")
		if len(key) == 1 {
			key = "0" + key
		}
		want[key] = true
	}
	var all []LessonStats
	for _, name := range lessons {
		slug := strings.TrimSuffix(name, ".md")
		if len(want) > 0 && !want[slug] && !want[slug[:2]] {
			continue
		}
		text, _, err := files.read("lessons/" + name)
		if err != nil {
			fmt.Fprintf(c.stderr, "course: %v\n", err)
			return 1
		}
		var nb Notebook
		if data, ok, err := files.read("notebooks/" + slug + ".ipynb"); err != nil {
			fmt.Fprintf(c.stderr, "course: %v\n", err)
			return 1
		} else if ok {
			if nb, err = ParseNotebook(data); err != nil {
				fmt.Fprintf(c.stderr, "course: notebooks/%s.ipynb: %v\n", slug, err)
				return 1
			}
		}
		s, err := Stats(slug, string(text), nb)
		if err != nil {
			fmt.Fprintf(c.stderr, "course: %v\n", err)
			return 1
		}
		all = append(all, s)
	}
	if len(all) == 0 {
		fmt.Fprintf(c.stderr, "course: no lessons matched\n")
		return 1
	}
	if c.opts.json {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(map[string]any{"rev": files.rev, "lessons": all, "total": total(all)}); err != nil {
			fmt.Fprintf(c.stderr, "course: %v\n", err)
			return 1
		}
		return 0
	}
	if err := writeStats(c.stdout, files.rev, all); err != nil {
		fmt.Fprintf(c.stderr, "course: %v\n", err)
		return 1
	}
	return 0
}

// total sums the lessons' counts; its DecimalsPer100 is over all the prose.
func total(all []LessonStats) LessonStats {
	t := LessonStats{Lesson: "total"}
	for _, s := range all {
		t.Words += s.Words
		t.Decimals += s.Decimals
		t.CheckLines += s.CheckLines
		t.CodeCells += s.CodeCells
		t.CheckCells += s.CheckCells
		t.StatedMinutes += s.StatedMinutes
		t.EstimatedMinutes += s.EstimatedMinutes
	}
	if t.Words > 0 {
		t.DecimalsPer100 = math.Round(1000*float64(t.Decimals)/float64(t.Words)) / 10
	}
	return t
}

// writeStats prints the table.
func writeStats(w io.Writer, rev string, all []LessonStats) error {
	where := "the working tree"
	if rev != "" {
		where = rev
	}
	fmt.Fprintf(w, "Lessons at %s: prose outside code, tables, $$ blocks and HTML tags; ✓ lines in the committed notebook's outputs.\n\n", where)
	header := []string{"lesson", "words", "decimals", "per 100 words", "✓ lines", "code cells", "check cells", "stated min", "estimated min"}
	rows := [][]string{header}
	row := func(s LessonStats, stated string) {
		rows = append(rows, []string{s.Lesson, strconv.Itoa(s.Words), strconv.Itoa(s.Decimals), strconv.FormatFloat(s.DecimalsPer100, 'f', 1, 64),
			strconv.Itoa(s.CheckLines), strconv.Itoa(s.CodeCells), strconv.Itoa(s.CheckCells), stated, strconv.Itoa(s.EstimatedMinutes)})
	}
	for _, s := range all {
		stated := "—"
		if s.Stated != "" {
			stated = strconv.Itoa(s.StatedMinutes)
		}
		row(s, stated)
	}
	t := total(all)
	row(t, strconv.Itoa(t.StatedMinutes))
	widths := make([]int, len(header))
	for _, r := range rows {
		for i, cell := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, cell := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell))
			if i == 0 {
				b.WriteString(cell + pad) // the lesson, left-aligned; the numbers right-aligned
			} else {
				b.WriteString("  " + pad + cell)
			}
		}
		if _, err := fmt.Fprintln(w, b.String()); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, "\nstated min: the first \"N minutes\" of the *About …* line under the title (reading and running; — when there is none);\nestimated min: 200 words of prose a minute plus a minute a code cell.")
	return err
}
