package lab

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
)

// CorpusFiles lists the documents of the Go distribution the lab's text is
// made from, with the sha256 of each as shipped with Go 1.26.8. They are
// prose about Go (the language specification, the memory model, the
// assembler guide, the GODEBUG settings), BSD-licensed like Go itself
// (corpus/LICENSE). The text they make is committed (corpus/go-docs.txt), so
// the lab does not depend on which Go a learner has installed;
// BuildCorpus rebuilds it from a Go 1.26.8 tree to show where it came from.
var CorpusFiles = []struct{ Path, SHA256 string }{
	{"doc/go_spec.html", "e5806989624c1e9dd32bddaedd2f70a1dd208295cb6d0ff72b02625b2cd6f592"},
	{"doc/go_mem.html", "a7372b4f36c9525ecc7531bbdbb9e53746ae3f58367a25fe8084d5a35bb8ee7c"},
	{"doc/asm.html", "b9e2477834a9fdce6c7983b5e84649bfcff2d8daa70cb68a534efbdb21720055"},
	{"doc/godebug.md", "c1e6c227a93f6d8427a69141261cf7f703c083552cce52e3135549ba537a11e5"},
}

// corpusText is the committed text, built by BuildCorpus from CorpusFiles.
//
//go:embed corpus/go-docs.txt
var corpusText []byte

// CorpusText returns the lab's text: the documents of CorpusFiles with their
// markup removed, one after another.
func CorpusText() []byte { return corpusText }

var (
	htmlTag    = regexp.MustCompile(`(?s)<!--.*?-->|<[^>]*>`)
	blankLines = regexp.MustCompile(`\n[ \t]*(\n[ \t]*)+\n`)
)

// BuildCorpus reads CorpusFiles under goroot, checks each file's sha256
// (another Go version's documents differ, and the error says which file),
// strips HTML tags and entities, and joins the documents.
func BuildCorpus(goroot string) ([]byte, error) {
	var out bytes.Buffer
	for _, f := range CorpusFiles {
		data, err := os.ReadFile(filepath.Join(goroot, f.Path))
		if err != nil {
			return nil, fmt.Errorf("lab: corpus file: %w", err)
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != f.SHA256 {
			return nil, fmt.Errorf("lab: corpus file %s has sha256 %s, want %s (the corpus is made from Go 1.26.8's)",
				f.Path, got, f.SHA256)
		}
		if filepath.Ext(f.Path) == ".html" {
			data = []byte(html.UnescapeString(htmlTag.ReplaceAllString(string(data), "")))
		}
		data = blankLines.ReplaceAll(bytes.TrimSpace(data), []byte("\n\n"))
		out.Write(data)
		out.WriteString("\n\n")
	}
	return out.Bytes(), nil
}
