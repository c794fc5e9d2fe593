package main

import (
	"fmt"
	"math"
	"reflect"
	"runtime"
	"strconv"
	"strings"
)

// The case table of an exercise is printed into its test file as a Go
// composite literal, so that the learner reads the inputs and the expected
// values the test runs (exercism's cases_test.go does the same).

// checkPkg is the import path of the package whose types and functions the
// tables use, and lineWidth where a literal wraps.
const (
	checkPkg  = "github.com/posenc/course/internal/check"
	lineWidth = 100
	tabWidth  = 4
)

// literal prints Go values as composite literals.
type literal struct {
	usesMath bool // math.Inf or math.NaN was printed
}

// value returns v as Go source, indented by depth tabs after its first
// line; elide drops the type of a composite literal (an element of a slice).
func (l *literal) value(v reflect.Value, depth int, elide bool) (string, error) {
	switch v.Kind() {
	case reflect.Bool:
		return strconv.FormatBool(v.Bool()), nil
	case reflect.Int:
		return strconv.FormatInt(v.Int(), 10), nil
	case reflect.Float64:
		return l.float(v.Float()), nil
	case reflect.String:
		return strconv.Quote(v.String()), nil
	case reflect.Func:
		return funcName(v)
	case reflect.Slice:
		return l.slice(v, depth, elide)
	case reflect.Struct:
		return l.structLit(v, depth, elide)
	}
	return "", fmt.Errorf("a case table cannot hold a %s", v.Type())
}

func (l *literal) float(f float64) string {
	switch {
	case math.IsInf(f, 1):
		l.usesMath = true
		return "math.Inf(1)"
	case math.IsInf(f, -1):
		l.usesMath = true
		return "math.Inf(-1)"
	case math.IsNaN(f):
		l.usesMath = true
		return "math.NaN()"
	case f == 0 && math.Signbit(f):
		l.usesMath = true
		return "math.Copysign(0, -1)"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// funcName returns a function of the check package as check.Name.
func funcName(v reflect.Value) (string, error) {
	if v.IsNil() {
		return "nil", nil
	}
	full := runtime.FuncForPC(v.Pointer()).Name()
	name, ok := strings.CutPrefix(full, checkPkg+".")
	if !ok || strings.Contains(name, ".") {
		return "", fmt.Errorf("a case table holds the function %s: only exported functions of internal/check can be printed", full)
	}
	return "check." + name, nil
}

// typeName returns v's type as the generated file spells it.
func typeName(t reflect.Type) string { return t.String() }

func (l *literal) slice(v reflect.Value, depth int, elide bool) (string, error) {
	prefix := typeName(v.Type())
	if elide {
		prefix = ""
	}
	if v.IsNil() {
		if elide {
			return "nil", nil
		}
		return "nil", nil
	}
	items := make([]string, v.Len())
	multiline := false
	for i := range v.Len() {
		s, err := l.value(v.Index(i), depth+1, true)
		if err != nil {
			return "", err
		}
		items[i] = s
		multiline = multiline || strings.Contains(s, "\n")
	}
	oneLine := prefix + "{" + strings.Join(items, ", ") + "}"
	if !multiline && depth*tabWidth+len(oneLine) <= lineWidth {
		return oneLine, nil
	}
	indent := strings.Repeat("\t", depth+1)
	var b strings.Builder
	b.WriteString(prefix + "{\n")
	composite := v.Type().Elem().Kind() == reflect.Slice || v.Type().Elem().Kind() == reflect.Struct
	if composite || multiline {
		for _, s := range items {
			b.WriteString(indent + s + ",\n")
		}
	} else { // scalars: as many on a line as fit
		line := ""
		for _, s := range items {
			if line != "" && (depth+1)*tabWidth+len(line)+len(s)+1 > lineWidth {
				b.WriteString(indent + strings.TrimSuffix(line, " ") + "\n")
				line = ""
			}
			line += s + ", "
		}
		b.WriteString(indent + strings.TrimSuffix(line, " ") + "\n")
	}
	b.WriteString(strings.Repeat("\t", depth) + "}")
	return b.String(), nil
}

func (l *literal) structLit(v reflect.Value, depth int, elide bool) (string, error) {
	prefix := typeName(v.Type())
	if elide {
		prefix = ""
	}
	t := v.Type()
	fields := make([]string, 0, t.NumField())
	docs := make([]string, 0, t.NumField())
	multiline := false
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			return "", fmt.Errorf("%s.%s is not exported: the test file cannot set it", t, f.Name)
		}
		s, err := l.value(v.Field(i), depth+1, false)
		if err != nil {
			return "", fmt.Errorf("%s.%s: %w", t, f.Name, err)
		}
		fields = append(fields, f.Name+": "+s)
		docs = append(docs, f.Tag.Get("doc"))
		multiline = multiline || strings.Contains(s, "\n") || docs[i] != ""
	}
	oneLine := prefix + "{" + strings.Join(fields, ", ") + "}"
	if !multiline && depth*tabWidth+len(oneLine) <= lineWidth {
		return oneLine, nil
	}
	// One field a line, except that the short one-line fields of a row go
	// together on its first line.
	indent := strings.Repeat("\t", depth+1)
	var b strings.Builder
	b.WriteString(prefix + "{\n")
	short := ""
	var rest []int
	for i, s := range fields {
		if docs[i] == "" && !strings.Contains(s, "\n") && len(s) <= 40 &&
			(depth+1)*tabWidth+len(short)+len(s)+2 <= lineWidth {
			short += s + ", "
			continue
		}
		rest = append(rest, i)
	}
	if short != "" {
		b.WriteString(indent + strings.TrimSuffix(short, " ") + "\n")
	}
	for n, i := range rest {
		if docs[i] != "" {
			if n > 0 || short != "" {
				b.WriteString("\n")
			}
			for _, line := range strings.Split(wrap(docs[i], lineWidth-tabWidth*(depth+1)-3, ""), "\n") {
				if line != "" {
					b.WriteString(indent + "// " + line + "\n")
				}
			}
		}
		b.WriteString(indent + fields[i] + ",\n")
	}
	b.WriteString(strings.Repeat("\t", depth) + "}")
	return b.String(), nil
}
