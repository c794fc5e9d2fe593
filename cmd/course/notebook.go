package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"strings"
)

// Notebook is a Jupyter notebook (nbformat 4.5) kept as decoded JSON, so that
// outputs written by Jupyter survive a read and a write unchanged.
type Notebook map[string]any

// kernelspec and languageInfo are the notebook metadata the tool writes.
// kernelspec is fixed, so that regenerating a notebook changes nothing but
// its outputs. languageInfo is a placeholder until the notebook runs: then
// the kernel's own language_info replaces it (see WithOutputs).
var (
	kernelspec   = map[string]any{"display_name": "Go (gonb)", "language": "go", "name": "gonb"}
	languageInfo = map[string]any{"file_extension": ".go", "mimetype": "text/x-go", "name": "go"}
)

// cellID returns a stable id for cell i of the notebook slug: nbformat ids
// are 1 to 64 characters of [a-zA-Z0-9-_], unique within a notebook.
func cellID(slug string, i int) string {
	suffix := fmt.Sprintf("-%02d", i)
	if len(slug)+len(suffix) > 64 {
		slug = slug[:64-len(suffix)]
	}
	return slug + suffix
}

// NewNotebook returns the lesson's notebook with no outputs.
func NewNotebook(l *Lesson) Notebook {
	cells := make([]any, len(l.Cells))
	for i, c := range l.Cells {
		cell := map[string]any{
			"cell_type": c.Type,
			"id":        cellID(l.Slug, i),
			"metadata":  c.Metadata(),
			"source":    splitLines(c.Source),
		}
		if c.Type == "code" {
			cell["execution_count"] = nil
			cell["outputs"] = []any{}
		}
		cells[i] = cell
	}
	return Notebook{
		"cells":          cells,
		"metadata":       map[string]any{"kernelspec": kernelspec, "language_info": languageInfo},
		"nbformat":       json.Number("4"),
		"nbformat_minor": json.Number("5"),
	}
}

// splitLines splits text the way nbformat stores multi-line strings: a list
// of lines, each but the last ending in "\n".
func splitLines(text string) []any {
	if text == "" {
		return []any{}
	}
	parts := strings.SplitAfter(text, "\n")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out
}

// joinText returns a multi-line nbformat string (a string or a list of
// strings) as one string.
func joinText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case []any:
		var b strings.Builder
		for _, p := range t {
			s, _ := p.(string)
			b.WriteString(s)
		}
		return b.String()
	}
	return ""
}

// ReadNotebook reads a notebook file.
func ReadNotebook(path string) (Notebook, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseNotebook(data)
}

// ParseNotebook decodes a notebook, keeping numbers as written.
func ParseNotebook(data []byte) (Notebook, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var nb Notebook
	if err := dec.Decode(&nb); err != nil {
		return nil, fmt.Errorf("not a notebook: %w", err)
	}
	if _, ok := nb["cells"].([]any); !ok {
		return nil, fmt.Errorf("not a notebook: no cells")
	}
	return nb, nil
}

// Encode returns the notebook as Jupyter writes it: keys sorted, one-space
// indent, non-ASCII and HTML characters unescaped, a final newline.
func (nb Notebook) Encode() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(map[string]any(nb)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Cells returns the notebook's cells as maps.
func (nb Notebook) Cells() []map[string]any {
	raw, _ := nb["cells"].([]any)
	cells := make([]map[string]any, 0, len(raw))
	for _, c := range raw {
		m, _ := c.(map[string]any)
		if m == nil {
			m = map[string]any{}
		}
		cells = append(cells, m)
	}
	return cells
}

// CellType returns a cell's cell_type.
func CellType(c map[string]any) string { s, _ := c["cell_type"].(string); return s }

// CellSource returns a cell's source as one string.
func CellSource(c map[string]any) string { return joinText(c["source"]) }

// CellOutputs returns a code cell's outputs.
func CellOutputs(c map[string]any) []map[string]any {
	raw, _ := c["outputs"].([]any)
	outs := make([]map[string]any, 0, len(raw))
	for _, o := range raw {
		if m, ok := o.(map[string]any); ok {
			outs = append(outs, m)
		}
	}
	return outs
}

// WithOutputs returns a copy of the generated notebook gen carrying the
// execution counts and outputs of executed, a notebook with the same cells
// (Jupyter's copy of gen after running it). Everything else comes from gen,
// so that metadata Jupyter adds (timings) never reaches the committed file,
// except the notebook's language_info: the kernel's answer to kernel_info,
// which JupyterLab and Jupyter Notebook write into the notebook as soon as
// they connect to the kernel. Committed as the kernel gives it, opening the
// notebook changes nothing and it does not open modified.
func WithOutputs(gen, executed Notebook) (Notebook, error) {
	gc, ec := gen.Cells(), executed.Cells()
	if len(gc) != len(ec) {
		return nil, fmt.Errorf("executed notebook has %d cells, want %d", len(ec), len(gc))
	}
	cells := make([]any, len(gc))
	for i := range gc {
		c := maps.Clone(gc[i]) // Cells gives {} for a cell that is not an object
		if CellType(gc[i]) == "code" {
			if CellSource(gc[i]) != CellSource(ec[i]) {
				return nil, fmt.Errorf("executed notebook's cell %d has another source", i)
			}
			c["execution_count"] = ec[i]["execution_count"]
			outs, _ := ec[i]["outputs"].([]any)
			c["outputs"] = coalesceStreams(outs)
		}
		cells[i] = c
	}
	out := maps.Clone(gen)
	if out == nil {
		out = Notebook{}
	}
	out["cells"] = cells
	if info, ok := notebookMetadata(executed)["language_info"].(map[string]any); ok {
		meta := maps.Clone(notebookMetadata(gen))
		if meta == nil {
			meta = map[string]any{}
		}
		meta["language_info"] = info
		out["metadata"] = meta
	}
	return out, nil
}

// notebookMetadata returns a notebook's metadata (nil when it has none).
func notebookMetadata(nb Notebook) map[string]any {
	m, _ := nb["metadata"].(map[string]any)
	return m
}

// coalesceStreams merges consecutive stream outputs of the same stream into
// one, as nbconvert's coalesce_streams does: GoNB sends a program's output
// in pieces whose boundaries vary from run to run, and a committed notebook
// should change only when what it shows changes.
func coalesceStreams(outs []any) []any {
	merged := []any{}
	var last map[string]any // the previous output, when it is a stream
	var text strings.Builder
	flush := func() {
		if last != nil {
			last["text"] = splitLines(text.String())
			last = nil
			text.Reset()
		}
	}
	for _, o := range outs {
		m, ok := o.(map[string]any)
		if !ok || m["output_type"] != "stream" {
			flush()
			merged = append(merged, o)
			continue
		}
		if last != nil && last["name"] == m["name"] {
			text.WriteString(joinText(m["text"]))
			continue
		}
		flush()
		last = map[string]any{}
		for k, v := range m {
			last[k] = v
		}
		text.WriteString(joinText(m["text"]))
		merged = append(merged, last)
	}
	flush()
	return merged
}
