package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
)

// install does what o asks, printing progress to stdout. It is the only
// function of the command that touches the network.
func install(o options, stdout io.Writer) error {
	fmt.Fprint(stdout, plan(o))
	if o.dryRun {
		fmt.Fprintln(stdout, "dry run: nothing downloaded")
		return nil
	}
	marker := pluginFile(o)
	if _, err := os.Stat(marker); err == nil && !o.force {
		fmt.Fprintf(stdout, "already installed: %s (give -force to reinstall)\n", marker)
		return checkPlugin(o, marker, stdout)
	}
	if err := os.MkdirAll(o.dir, 0o755); err != nil {
		return fmt.Errorf("-dir %s: %v", o.dir, err)
	}
	var err error
	switch o.plugin {
	case "cpu":
		err = installCPU(o, stdout)
	case "cuda":
		err = installCUDA(o, stdout)
	}
	if err != nil {
		return fmt.Errorf("installing the %s plugin %s: %v", o.plugin, o.version, err)
	}
	return checkPlugin(o, marker, stdout)
}

// onSearchPath reports whether dir is one of the directories go-xla
// searches for plugins without PJRT_PLUGIN_LIBRARY_PATH.
func onSearchPath(dir string) bool {
	if v := os.Getenv("PJRT_PLUGIN_LIBRARY_PATH"); v != "" {
		for _, d := range filepath.SplitList(v) {
			if filepath.Clean(d) == dir {
				return true
			}
		}
		return false
	}
	candidates := []string{"/usr/local/lib/go-xla"}
	if home, err := os.UserHomeDir(); err == nil {
		candidates = append(candidates, defaultDir(runtime.GOOS, home))
	}
	for _, c := range candidates {
		if dir == c {
			return true
		}
	}
	return false
}
