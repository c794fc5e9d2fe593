//go:build linux && amd64

package main

import (
	"testing"

	"github.com/gomlx/go-xla/installer"
)

// TestCUDAPluginFileName checks the copy of go-xla's plugin file name, which
// go-xla declares on linux/amd64 only, against the original.
func TestCUDAPluginFileName(t *testing.T) {
	if cudaPluginFile != installer.NVIDIAPJRTPluginFileName {
		t.Errorf("cudaPluginFile = %q; go-xla loads %q", cudaPluginFile, installer.NVIDIAPJRTPluginFileName)
	}
}
