// Package modeltest gives tests the path of SmolLM2-135M-Instruct's GGUF
// file, which make model downloads.
package modeltest

import (
	"os"
	"testing"

	"github.com/posenc/course/pkg/smollm"
)

// Path returns the model's path. When it is not downloaded, the test skips
// saying to run make model, except on CI (CI set), where it fails: make
// test fetches the model first, so a missing one there is a defect.
func Path(t testing.TB) string {
	t.Helper()
	path, err := smollm.Find()
	if err == nil {
		return path
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%v (CI is set: make test runs make model first)", err)
	}
	t.Skipf("%v", err)
	return ""
}
