//go:build cgo && !noxla && ((linux && (amd64 || arm64)) || (darwin && arm64) || (windows && amd64))

package main

import (
	"testing"

	"github.com/gomlx/go-xla/pjrt"
)

// TestCPUVersionIsGoXLADefault fails when a go-xla upgrade moves its
// default CPU plugin version away from the pinned one, so that the pin (and
// any -sha256 given for it in docker/Dockerfile) is looked at again.
func TestCPUVersionIsGoXLADefault(t *testing.T) {
	if got, want := CPUVersion, pjrt.DefaultCPUVersion; got != want {
		t.Errorf("CPUVersion = %q; want go-xla's pjrt.DefaultCPUVersion %q", got, want)
	}
}
