// Package modeltest decides what a test does when SmolLM2-135M-Instruct,
// which make model downloads, is missing.
package modeltest

import (
	"os"
	"testing"
)

// Require does nothing when err (smollm.Find's) is nil. Otherwise the test
// skips with err, which says to run make model, except on CI (CI set),
// where it fails: make test fetches the model first, so a missing one
// there is a defect.
func Require(t testing.TB, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%v (CI is set: make test runs make model first)", err)
	}
	t.Skipf("%v", err)
}
