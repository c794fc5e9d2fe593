package lab

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLessonShowsTheModel checks that lesson 8 shows Model.Logits as it is.
func TestLessonShowsTheModel(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "model.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("model.go")
	if err != nil {
		t.Fatal(err)
	}
	var fn string
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "Logits" {
			fn = string(src[fset.Position(fd.Doc.Pos()).Offset:fset.Position(fd.End()).Offset])
		}
	}
	lessons, _ := filepath.Glob("../../lessons/08-*.md")
	if len(lessons) != 1 {
		t.Fatalf("want one lessons/08-*.md, got %v", lessons)
	}
	lesson, err := os.ReadFile(lessons[0])
	if err != nil {
		t.Fatal(err)
	}
	if fn == "" || !strings.Contains(string(lesson), "```golang\n"+fn+"\n```") {
		t.Errorf("%s does not show Model.Logits as pkg/lab/model.go has it; copy it in a ```golang block:\n%s", lessons[0], fn)
	}
}
