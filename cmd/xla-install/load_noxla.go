//go:build !(cgo && !noxla && ((linux && (amd64 || arm64)) || (darwin && arm64) || (windows && amd64)))

package main

import "errors"

// loadPlugin cannot load plugins in a build without XLA (cgo off, -tags
// noxla, or a platform go-xla does not support): use -check=false.
func loadPlugin(path string) (major, minor int, err error) {
	return 0, 0, errors.New("this build of xla-install cannot load plugins (it has no cgo/XLA); rerun with -check=false")
}
