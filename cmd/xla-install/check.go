package main

import (
	"fmt"
	"io"
)

// checkPlugin checks the installed plugin when o.check is set: first that
// this system's runtime libraries define every version it needs. The CPU
// plugin is loaded once: one that does not load (wrong glibc, a truncated
// file) fails here rather than in a learner's first notebook cell. The CUDA
// plugin needs a GPU and its driver to load, which an image build does not
// have, so ldd checks instead that every library it needs resolves, but the
// driver's own.
func checkPlugin(o options, path string, stdout io.Writer) error {
	if !o.check {
		return nil
	}
	if err := requireRuntime("the XLA "+o.plugin+" plugin at "+path, path, "/", stdout); err != nil {
		return err
	}
	if o.plugin == "cuda" {
		return checkLibraries(path, stdout)
	}
	major, minor, err := loadPlugin(path)
	if err != nil {
		return fmt.Errorf("the plugin at %s does not load: %v", path, err)
	}
	fmt.Fprintf(stdout, "loaded %s (PJRT C API %d.%d)\n", path, major, minor)
	if !onSearchPath(o.dir) {
		fmt.Fprintf(stdout, "note: %s is not where go-xla looks by default; set PJRT_PLUGIN_LIBRARY_PATH=%s\n", o.dir, o.dir)
	}
	return nil
}
