package main

import (
	_ "embed"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gomlx/go-xla/installer"
)

// cpuReleaseBase is where github.com/gomlx/pjrt-cpu-binaries serves its
// release assets. Their direct URLs need no call to GitHub's REST API, whose
// unauthenticated limit (60 calls an hour per address) a shared NAT exhausts;
// go-xla's own installer makes two such calls per install.
var cpuReleaseBase = "https://github.com/gomlx/pjrt-cpu-binaries/releases/download"

//go:embed sha256.txt
var cpuSumsFile string

// unrecorded marks, in sha256.txt, an asset whose sum is not known yet.
const unrecorded = "unrecorded"

// cpuAsset is the release asset name of the CPU plugin for goos/goarch.
func cpuAsset(goos, goarch string) string {
	return fmt.Sprintf("pjrt_cpu_%s_%s.tar.gz", goos, goarch)
}

// cpuAssetURL is the direct download URL of a CPU plugin release asset.
func cpuAssetURL(version, asset string) string {
	return cpuReleaseBase + "/" + version + "/" + asset
}

// parseSums parses sha256.txt: lines "version asset sha256|unrecorded",
// '#' comments and blank lines. The key of the map is "version/asset"; the
// value is the sum, or "" when unrecorded.
func parseSums(text string) (map[string]string, error) {
	sums := make(map[string]string)
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			return nil, fmt.Errorf("sha256.txt line %d: want \"version asset sha256\", got %q", i+1, line)
		}
		sum := strings.ToLower(f[2])
		switch {
		case sum == unrecorded:
			sum = ""
		case !sha256Hex.MatchString(sum):
			return nil, fmt.Errorf("sha256.txt line %d: %q is neither 64 hexadecimal digits nor %q", i+1, f[2], unrecorded)
		}
		key := f[0] + "/" + f[1]
		if _, dup := sums[key]; dup {
			return nil, fmt.Errorf("sha256.txt line %d: %s listed twice", i+1, key)
		}
		sums[key] = sum
	}
	return sums, nil
}

// expectedCPUSum returns the sha256 the CPU archive must have: -sha256 when
// given, else the recorded one; recorded reports whether sha256.txt lists
// the asset with a sum.
func expectedCPUSum(o options, asset string) (want string, recorded bool, err error) {
	sums, err := parseSums(cpuSumsFile)
	if err != nil {
		return "", false, err
	}
	rec := sums[o.version+"/"+asset]
	if o.sha256 != "" {
		if rec != "" && rec != o.sha256 {
			return "", false, fmt.Errorf("-sha256 %s differs from the sum recorded for %s %s in cmd/xla-install/sha256.txt (%s)", o.sha256, o.version, asset, rec)
		}
		return o.sha256, rec != "", nil
	}
	return rec, rec != "", nil
}

// installCPU downloads the CPU plugin archive by its direct URL, checks its
// sha256, and unpacks the plugin into o.dir, linked as
// pjrt_c_api_cpu_plugin.so as go-xla's own installer does.
func installCPU(o options, stdout io.Writer) error {
	asset := cpuAsset(o.goos, o.goarch)
	want, recorded, err := expectedCPUSum(o, asset)
	if err != nil {
		return err
	}
	if want == "" && o.requireSHA256 {
		return fmt.Errorf("no sha256 is recorded for %s %s in cmd/xla-install/sha256.txt, and -require-sha256 is set: "+
			"record it from a trusted build first", o.version, asset)
	}
	tmp, err := os.MkdirTemp(o.dir, ".xla-install-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(tmp) }()

	url := cpuAssetURL(o.version, asset)
	fmt.Fprintf(stdout, "downloading %s\n", url)
	archive := filepath.Join(tmp, asset)
	sum, err := fetch(url, archive, want)
	if err != nil {
		return err
	}
	switch {
	case recorded:
		fmt.Fprintf(stdout, "archive %s sha256 %s: matches cmd/xla-install/sha256.txt\n", asset, sum)
	case want != "":
		fmt.Fprintf(stdout, "archive %s sha256 %s: matches -sha256\n", asset, sum)
	default:
		fmt.Fprintf(stdout, "archive %s sha256 %s: not yet recorded; to pin it, put it in cmd/xla-install/sha256.txt:\n  %s\n",
			asset, sum, sumsLine(o.version, asset, sum))
	}

	unpacked := filepath.Join(tmp, "unpacked")
	files, err := installer.Untar(archive, unpacked)
	if err != nil {
		return fmt.Errorf("unpacking %s: %v", asset, err)
	}
	want = filepath.Base(pluginFile(o))
	for _, f := range files {
		if filepath.Base(f) != want {
			continue
		}
		// Before anything is installed: a plugin that needs a newer C
		// library than this system's would only fail to load.
		if err := requireRuntime("the XLA CPU plugin "+o.version+" for "+o.goos+"/"+o.goarch, f, "/", stdout); err != nil {
			return err
		}
		dst := filepath.Join(o.dir, want)
		if err := os.Rename(f, dst); err != nil {
			return err
		}
		link := filepath.Join(o.dir, "pjrt_c_api_cpu_plugin.so")
		_ = os.Remove(link)
		if err := os.Symlink(want, link); err != nil {
			return err
		}
		if err := recordInstalled(o.dir, o.version, asset, sum); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "installed %s (linked as %s; archive sha256 recorded in %s)\n", dst, filepath.Base(link), filepath.Join(o.dir, installedSumsFile))
		return nil
	}
	return fmt.Errorf("%s holds no %s (it holds %d files)", asset, want, len(files))
}
