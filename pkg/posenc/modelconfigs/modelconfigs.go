// Package modelconfigs holds the position fields of the Hugging Face
// config.json of real models, small enough to ship, and in full/ the whole
// published config.json of others: the fixtures of
// posenc.ParseHFConfig, of the golden comparison with Hugging Face
// transformers (golden.json, written by `make golden`), of lesson 9 and of
// `posenc config`. SOURCES.md says where each file's values come from and
// under which licence.
package modelconfigs

import (
	"embed"
	"slices"
	"strings"
)

//go:embed *.json full/*.json designs/*.json
var files embed.FS

// Names returns the fixtures' names (a file's name without .json), sorted;
// golden.json and golden-classes.json are not fixtures.
func Names() []string {
	entries, _ := files.ReadDir(".")
	var out []string
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".json")
		if !strings.HasPrefix(name, "golden") && !e.IsDir() {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// Config returns the config.json of the fixture name.
func Config(name string) ([]byte, error) { return files.ReadFile(name + ".json") }

// FullNames returns the names of the whole published config.json files in
// full/ (every field as released, not only the position ones), sorted.
func FullNames() []string { return namesIn("full") }

// namesIn returns the names of the .json files of dir, sorted.
func namesIn(dir string) []string {
	entries, _ := files.ReadDir(dir)
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".json"))
	}
	slices.Sort(out)
	return out
}

// Full returns the whole published config.json of name (see FullNames).
func Full(name string) ([]byte, error) { return files.ReadFile("full/" + name + ".json") }

// DesignNames returns the names of the fixtures in designs/: the position
// fields of the 2025–26 designs (hybrid stacks with linear-attention or
// NoPE layers, partial rotary by class default, Ministral 3's query
// scaling), sorted.
func DesignNames() []string { return namesIn("designs") }

// Design returns the fixture name of designs/ (see DesignNames).
func Design(name string) ([]byte, error) { return files.ReadFile("designs/" + name + ".json") }

// Lookup returns the shipped config of that name, whichever folder holds
// it (a position-only fixture, full/ or designs/).
func Lookup(name string) ([]byte, error) {
	if data, err := Config(name); err == nil {
		return data, nil
	}
	if data, err := Full(name); err == nil {
		return data, nil
	}
	return Design(name)
}

// AllNames returns the names Lookup finds: Names, FullNames and
// DesignNames, in that order.
func AllNames() []string {
	return slices.Concat(Names(), FullNames(), DesignNames())
}

// Golden returns golden.json: what Hugging Face transformers computes for
// every fixture (see scripts/golden/golden.py).
func Golden() ([]byte, error) { return files.ReadFile("golden.json") }

// GoldenClasses returns golden-classes.json: every text model of
// transformers with a rotary embedding, its configuration class's whole
// config.json and the frequencies its own rotary module holds (see
// scripts/golden/classes.py).
func GoldenClasses() ([]byte, error) { return files.ReadFile("golden-classes.json") }
