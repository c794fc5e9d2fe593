package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gomlx/go-xla/installer"
)

// cpuPlatforms are the platforms whose CPU plugin archives xla-install
// installs, and -sums records.
var cpuPlatforms = []struct{ goos, goarch string }{
	{"linux", "amd64"},
	{"linux", "arm64"},
	{"darwin", "arm64"},
}

// sumsLine is one line of sha256.txt: what -sums prints, what an install
// of an unrecorded archive prints, and what the install records in the
// plugin's folder. A maintainer copies it into cmd/xla-install/sha256.txt.
func sumsLine(version, asset, sum string) string {
	return fmt.Sprintf("%s   %s   %s", version, asset, sum)
}

// installedSumsFile is where an install records, in the plugin's folder,
// the sha256.txt line of the archive it unpacked: the image workflow
// compares it with the sum its first job printed.
const installedSumsFile = "sha256.txt"

// recordInstalled writes the sha256.txt line of an installed archive into
// dir/sha256.txt, replacing an older line for the same version and asset.
func recordInstalled(dir, version, asset, sum string) error {
	path := filepath.Join(dir, installedSumsFile)
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(old)), "\n") {
		if f := strings.Fields(l); len(f) == 3 && !(f[0] == version && f[1] == asset) {
			lines = append(lines, l)
		}
	}
	lines = append(lines, sumsLine(version, asset, sum))
	return os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}

// writeSums downloads, once each, the CPU plugin archive of o.version for
// every platform into dir, and prints each one's sha256 as a line of
// sha256.txt, the sum of the .tar.gz itself, which is what installCPU
// checks. It writes the lines to dir/sha256.txt too, and keeps the archives
// for -runtime-check. It fails when a sum differs from the one recorded in
// cmd/xla-install/sha256.txt, after printing every sum.
func writeSums(o options, dir string, stdout io.Writer) error {
	recorded, err := parseSums(cpuSumsFile)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("-sums %s: %v", dir, err)
	}
	var lines, problems []string
	for _, p := range cpuPlatforms {
		asset := cpuAsset(p.goos, p.goarch)
		url := cpuAssetURL(o.version, asset)
		fmt.Fprintf(stdout, "downloading %s\n", url)
		archive := filepath.Join(dir, asset)
		sum, err := fetch(url, archive, "")
		if err != nil {
			return err
		}
		line := sumsLine(o.version, asset, sum)
		lines = append(lines, line)
		switch rec := recorded[o.version+"/"+asset]; {
		case rec == "":
			fmt.Fprintf(stdout, "%s\n  not yet recorded in cmd/xla-install/sha256.txt\n", line)
		case rec == sum:
			fmt.Fprintf(stdout, "%s\n  matches cmd/xla-install/sha256.txt\n", line)
		default:
			fmt.Fprintf(stdout, "%s\n  DIFFERS from cmd/xla-install/sha256.txt, which records %s\n", line, rec)
			problems = append(problems, fmt.Sprintf("%s %s: sha256 %s, recorded %s", o.version, asset, sum, rec))
		}
		if p.goos == "linux" {
			r, err := archiveRuntime(archive, "")
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "  its plugin needs %s at most\n", orNone(r.highestGlibc))
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "sha256.txt"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	if len(problems) > 0 {
		return fmt.Errorf("the release assets are not the ones recorded (%s): find out why before recording anything", strings.Join(problems, "; "))
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "no versioned C library symbol"
	}
	return s
}

// archiveRuntime unpacks the plugin from a CPU plugin archive into a
// temporary folder and checks it against the runtime libraries under root.
func archiveRuntime(archive, root string) (runtimeReport, error) {
	tmp, err := os.MkdirTemp("", "xla-install-check-")
	if err != nil {
		return runtimeReport{}, err
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	files, err := installer.Untar(archive, tmp)
	if err != nil {
		return runtimeReport{}, fmt.Errorf("unpacking %s: %v", archive, err)
	}
	for _, f := range files {
		if b := filepath.Base(f); strings.HasPrefix(b, "pjrt_c_api_cpu_") && strings.HasSuffix(b, "_plugin.so") {
			return checkRuntime(f, root)
		}
	}
	return runtimeReport{}, fmt.Errorf("%s holds no pjrt_c_api_cpu_*_plugin.so", archive)
}

// runtimeCheck checks a plugin, or the plugin in a CPU plugin archive,
// against the runtime libraries under root, without installing anything.
func runtimeCheck(path, root string, stdout io.Writer) error {
	var r runtimeReport
	var err error
	if strings.HasSuffix(path, ".tar.gz") {
		r, err = archiveRuntime(path, root)
	} else {
		r, err = checkRuntime(path, root)
	}
	if err != nil {
		return err
	}
	where := "this system"
	if root != "/" {
		where = "the system under " + root
	}
	if r.highestGlibc != "" && r.libc == "" {
		return fmt.Errorf("no libc.so.6 for the plugin's architecture under %s: cannot check %s against it", root, path)
	}
	if len(r.missing) > 0 {
		return &incompatibleError{fmt.Sprintf("%s cannot load on %s: it needs %s. %s", path, where, strings.Join(r.missing, "; "), noXLAAdvice)}
	}
	fmt.Fprintf(stdout, "%s loads on %s's runtime libraries: %s\n", path, where, r.summary())
	return nil
}
