//go:build cgo && !noxla && ((linux && (amd64 || arm64)) || (darwin && arm64) || (windows && amd64))

package posgraph

import (
	"github.com/gomlx/go-xla/compute/xla"
	"github.com/gomlx/go-xla/pjrt"
)

func init() {
	// go-xla downloads its plugin from the internet on first use by default;
	// the course never downloads anything unless the user asks (make xla).
	xla.EnableAutoInstall(false)
	xlaPlugins = pjrt.AvailablePlugins
}
