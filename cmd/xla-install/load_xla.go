//go:build cgo && !noxla && ((linux && (amd64 || arm64)) || (darwin && arm64) || (windows && amd64))

package main

import "github.com/gomlx/go-xla/pjrt"

// loadPlugin loads the PJRT plugin at path (dlopen) and returns the PJRT C
// API version it implements.
func loadPlugin(path string) (major, minor int, err error) {
	p, err := pjrt.GetPlugin(path)
	if err != nil {
		return 0, 0, err
	}
	major, minor = p.Version()
	return major, minor, nil
}
