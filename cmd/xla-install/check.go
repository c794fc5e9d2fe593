package main

import (
	"fmt"
	"io"
)

// checkPlugin loads the installed plugin once when o.check is set: a plugin
// that does not load (wrong glibc, a truncated file) fails here rather than
// in a learner's first notebook cell. The CUDA plugin needs a GPU and its
// driver to load, which an image build does not have, so it is only checked
// to exist.
func checkPlugin(o options, path string, stdout io.Writer) error {
	if !o.check {
		return nil
	}
	if o.plugin == "cuda" {
		fmt.Fprintf(stdout, "installed %s (not loaded: that needs a GPU)\n", path)
		return nil
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
