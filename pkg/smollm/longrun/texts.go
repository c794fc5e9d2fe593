package longrun

import (
	"embed"
	"fmt"
	"path"
	"strings"
)

// textFiles are the long texts: names, sources and licences in
// texts/SOURCES.md.
//
//go:embed texts/*.txt
var textFiles embed.FS

// Text is one long text to score.
type Text struct {
	Name string // the file name without .txt: opticks, genesis, go-net-http-server.go
	Body string
}

// TextNames lists the committed texts, in the order the run scores them.
var TextNames = []string{"opticks", "genesis", "go-net-http-server.go"}

// LoadText returns the committed text called name.
func LoadText(name string) (Text, error) {
	b, err := textFiles.ReadFile(path.Join("texts", name+".txt"))
	if err != nil {
		return Text{}, fmt.Errorf("longrun: no text %q (have %s)", name, strings.Join(TextNames, ", "))
	}
	return Text{Name: name, Body: string(b)}, nil
}
