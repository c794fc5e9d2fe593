package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"github.com/gomlx/go-xla/installer"
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

	// go-xla's installer keeps what it downloads in the user cache directory
	// ($XDG_CACHE_HOME/go-xla on Linux). A throw-away cache keeps the archives
	// out of a Docker layer and out of the learner's home.
	if runtime.GOOS == "linux" {
		tmp, err := os.MkdirTemp("", "xla-install-cache-")
		if err != nil {
			return err
		}
		defer func() { _ = os.RemoveAll(tmp) }()
		if err := os.Setenv("XDG_CACHE_HOME", tmp); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(o.dir, 0o755); err != nil {
		return fmt.Errorf("-dir %s: %v", o.dir, err)
	}

	var err error
	switch o.plugin {
	case "cpu":
		err = installCPU(o, stdout)
	case "cuda":
		err = installer.CudaInstall("cuda13", o.version, o.dir, true, installer.Verbose)
	}
	if err != nil {
		return fmt.Errorf("installing the %s plugin %s: %v", o.plugin, o.version, err)
	}
	return checkPlugin(o, marker, stdout)
}

// installCPU downloads the CPU plugin archive into go-xla's cache first, so
// that its sha256 can be checked (go-xla's CPUInstall checks none) and
// printed, and then lets CPUInstall unpack it from that cache.
func installCPU(o options, stdout io.Writer) error {
	platform := runtime.GOOS + "_" + runtime.GOARCH
	url, err := installer.CPUGetDownloadURL(platform, o.version)
	if err != nil {
		return err
	}
	// The cache name CPUInstall looks for: "<version>_<asset name>".
	cacheName := fmt.Sprintf("%s_%s", o.version, filepath.Base(url))
	archive, _, err := installer.DownloadURLToTemp(url, cacheName, o.sha256, true, installer.Verbose)
	if err != nil {
		return err
	}
	sum, err := fileSHA256(archive)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "archive %s sha256 %s\n", filepath.Base(url), sum)
	return installer.CPUInstall(platform, o.version, o.dir, true, installer.Verbose)
}

// fileSHA256 returns the lower-case hex sha256 of the file at path.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer func() { _ = f.Close() }()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
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
		candidates = append(candidates, filepath.Join(home, ".local", "lib", "go-xla"))
	}
	for _, c := range candidates {
		if dir == c {
			return true
		}
	}
	return false
}
